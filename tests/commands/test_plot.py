"""``mcecrawl plot``: Figures 2/3 from Extraction.region, written as an image."""
from __future__ import annotations

import pytest

from eval_fixtures import install_fake_algorithms, page_html, run_command
from mcecrawl.algorithms.result import Extraction

pytest.importorskip("matplotlib")


@pytest.fixture
def fake_algorithms(monkeypatch):
    return install_fake_algorithms(monkeypatch)


PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_plot_writes_png(tmp_path, fake_algorithms, capsys):
    page = tmp_path / "page.html"
    page.write_text(page_html("fa"), encoding="utf-8")
    out = tmp_path / "fig.png"
    assert run_command("plot", page, "-o", out, "--algorithm", "first", "--param", "P=3") == 0
    data = out.read_bytes()
    assert data.startswith(PNG_MAGIC) and len(data) > 10_000
    assert "region lines" in capsys.readouterr().out


def test_plot_svg_and_errors(tmp_path, fake_algorithms, capsys):
    page = tmp_path / "page.html"
    page.write_text(page_html("ar"), encoding="utf-8")
    svg = tmp_path / "fig.svg"
    assert run_command("plot", page, "-o", svg, "-a", "first") == 0
    assert b"<svg" in svg.read_bytes()[:1000]
    assert run_command("plot", tmp_path / "missing.html", "-o", svg, "-a", "first") == 2
    assert run_command("plot", page, "-o", svg, "-a", "nope") == 2
    assert run_command("plot", page, "-o", svg, "-a", "crash") == 1  # error result: no profile to draw
    err = capsys.readouterr().err
    assert "no per-line profile" in err and "scored_regions" in err


def test_the_named_line_algorithms_each_carry_a_profile():
    """The error names exactly the algorithms that draw: each of them returns a per-line profile."""
    from mcecrawl import extract
    from mcecrawl.evaluation.plot import LINE_PROFILE_ALGORITHMS

    html = "<html><body>" + ("<p>" + "این یک متن خبری است که خوانده می‌شود " * 8 + "</p>\n") * 12 + "</body></html>"
    for name in LINE_PROFILE_ALGORITHMS:
        region = extract(html, algorithm=name).region
        assert region is not None and region.content, name


def test_plot_region_needs_a_line_profile(tmp_path):
    from mcecrawl.evaluation.plot import NoLineProfile, plot_region

    with pytest.raises(NoLineProfile):
        plot_region(Extraction("x", ("x",), "xpath_blocks"), tmp_path / "f.png")


def test_plot_with_a_registered_line_algorithm(tmp_path, capsys):
    from mcecrawl import algorithms

    name = next((n for n in ("r2l", "dana", "danag") if n in algorithms.ALGORITHMS), None)
    if name is None:
        pytest.skip("no line-based algorithm registered")
    page = tmp_path / "page.html"
    page.write_text(page_html("fa") * 3, encoding="utf-8")
    out = tmp_path / "fig.png"
    assert run_command("plot", page, "-o", out, "-a", name) in (0, 1)
    assert out.exists() or "no per-line profile" in capsys.readouterr().err
