"""``mcecrawl extract``: files, directories, globs, formats, bad pages, usage errors."""
import json
import shutil
from pathlib import Path

import pytest

from mcecrawl.cli import main
from mcecrawl.commands import parse_params
from mcecrawl.commands.extract import expand_paths, to_json_line

FIXTURE = Path(__file__).resolve().parent.parent / "algorithms" / "data" / "fa_article.html"


@pytest.fixture
def pages(tmp_path):
    shutil.copy(FIXTURE, tmp_path / "a.html")
    sub = tmp_path / "sub"
    sub.mkdir()
    shutil.copy(FIXTURE, sub / "b.htm")
    (sub / "notes.txt").write_text("not a page")
    (tmp_path / "broken.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(300))
    return tmp_path


def test_text_output_of_one_file(capsys):
    assert main(["extract", str(FIXTURE)]) == 0
    out = capsys.readouterr().out
    # The default's text policy: the headline, then the article's blocks.
    assert out.startswith("بارش برف سنگین در تهران و تعطیلی مدارس\nبارش برف سنگین از بامداد امروز") and "==>" not in out


def test_jsonl_over_directory_with_a_bad_page(pages, tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    assert main(["extract", str(pages), "--format", "jsonl", "-o", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    by_name = {Path(r["path"]).name: r for r in records}
    assert sorted(by_name) == ["a.html", "b.htm", "broken.html"]  # notes.txt is not a page
    assert by_name["broken.html"]["status"] == "error" and "PNG" in by_name["broken.html"]["reason"]
    good = by_name["a.html"]
    assert good["status"] == "ok" and good["encoding"] == "utf-8" and good["algorithm"] == "scored_regions"
    assert good["params"]["gap"] == 30 and "سازمان هواشناسی" in good["text"]
    assert set(good) >= {"path", "status", "reason", "text", "algorithm", "params", "encoding"}
    assert "3 pages: 1 error, 2 ok" in capsys.readouterr().err


def test_glob_algorithm_and_params(pages, capsys):
    assert main(["extract", str(pages / "*.html"), "-a", "danag", "-p", "gap=5", "-f", "jsonl"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [Path(r["path"]).name for r in records] == ["a.html", "broken.html"]
    assert records[0]["algorithm"] == "danag" and records[0]["params"]["gap"] == 5


def test_missing_file_is_a_record_not_a_failure(capsys):
    assert main(["extract", "/nonexistent/page.html", "-f", "jsonl"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["status"] == "error" and "cannot read" in rec["reason"]


@pytest.mark.parametrize("argv", [["-p", "P"], ["-p", "nope=1"], ["-p", "growth=sideways"]])
def test_usage_errors_exit_2(argv, capsys):
    assert main(["extract", str(FIXTURE), *argv]) == 2
    assert "mcecrawl extract:" in capsys.readouterr().err


def test_unknown_algorithm_is_rejected_by_argparse():
    with pytest.raises(SystemExit) as exc:
        main(["extract", str(FIXTURE), "-a", "nope"])
    assert exc.value.code == 2


def test_helpers():
    assert parse_params(["P=8", " growth = literal "]) == {"P": 8, "growth": "literal"}
    assert to_json_line({"t": "a\u2028b"}) == '{"t": "a\\u2028b"}\n'
    assert expand_paths([str(FIXTURE), str(FIXTURE)]) == [str(FIXTURE)]


def test_top_level_help_lists_extract(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0 and "extract" in capsys.readouterr().out
