"""The compiled extraction core and its reference give identical results (profile_impl).

Every other test of ``tests/algorithms`` runs on both cores (the ``implementation`` fixture of its
conftest); here the two are compared array by array and text by text on every dev page, on a
bounded fuzz corpus (the full run: ``benchmarks/fuzz_core.py``), and the switch itself is checked.
"""
from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fuzz_pages import differences, fuzz_inputs, seed_pages, walk_differences
from mcecrawl.algorithms import lines, profile_impl
from mcecrawl.encoding import decode
from mcecrawl.evaluation import load_dataset

# Inputs of the bounded fuzz run in every test run (the full run is benchmarks/fuzz_core.py).
FUZZ_INPUTS = 1200
# Real pages to mutate, when the dev data is there (MCE_DATA_ROOT, else ../shared/data).
DATA_ROOT = Path(os.environ.get("MCE_DATA_ROOT") or Path(__file__).resolve().parents[2].parent / "shared" / "data")
DEV_SETS = ("r2l", "scrapinghub_aeb", "readability_mozilla", "chinese_wce", "trafilatura_eval")
both_cores = pytest.mark.skipif(profile_impl.COMPILED not in profile_impl.available(),
                                reason="the compiled extraction core is not built here; `pip install -e .` "
                                       "with Cython and a C compiler builds it")


@pytest.fixture
def implementation():
    """These tests switch the core themselves (overrides the conftest's parametrised fixture)."""
    previous = profile_impl.current()
    yield previous
    profile_impl.use(previous)


def _current_in_subprocess(**env: str) -> str:
    code = "from mcecrawl.algorithms import profile_impl; print(profile_impl.current())"
    environ = {k: v for k, v in os.environ.items() if k != profile_impl.FORCE_REFERENCE_ENV}
    proc = subprocess.run([sys.executable, "-c", code], env={**environ, **env}, capture_output=True, text=True,
                          check=True, timeout=60)
    return proc.stdout.strip()


def test_compiled_core_in_use_where_required():
    """CI sets MCE_REQUIRE_COMPILED=1 (.ci/run): there the run must not pass on the reference alone."""
    if os.environ.get("MCE_REQUIRE_COMPILED", "") in ("", "0"):
        pytest.skip("MCE_REQUIRE_COMPILED is not set (CI sets it): the reference alone is allowed here")
    assert profile_impl.available() == profile_impl.IMPLEMENTATIONS, profile_impl.describe()
    assert _current_in_subprocess() == profile_impl.COMPILED, profile_impl.describe()


def test_environment_forces_the_reference():
    assert _current_in_subprocess(**{profile_impl.FORCE_REFERENCE_ENV: "1"}) == profile_impl.REFERENCE
    assert _current_in_subprocess(**{profile_impl.FORCE_REFERENCE_ENV: "0"}) == profile_impl.available()[0]


def test_unknown_or_missing_implementation_is_refused():
    with pytest.raises(ValueError, match="not available"):
        profile_impl.use("assembly")


@both_cores
def test_describe_names_the_core_in_use():
    profile_impl.use(profile_impl.COMPILED)
    assert profile_impl.describe().startswith("extraction core: compiled")
    profile_impl.use(profile_impl.REFERENCE)
    assert profile_impl.describe().startswith("extraction core: reference")


@both_cores
def test_every_punctuation_mark_counts_alike():
    """The compiled twin spells lines.PUNCTUATION out in C: each mark, and near misses, count alike."""
    near = ("\u060d", "\u061a", "\u06d3", "\u0965", "\u3003", "\uff0d", ";", ":")
    text = " ".join(m.decode() for m in lines.PUNCTUATION) + " " + " ".join(near)
    page = f"<html><body><p>{text}</p><p>{text}{text}</p></body></html>".encode()
    assert differences(page) == []


@both_cores
@pytest.mark.parametrize("ascii_before", [0, 5, 15, 16, 17])
def test_utf8_check_agrees_with_the_codec_on_every_sequence(ascii_before):
    """Every byte pair, and every lead of a three- or four-byte form with every second byte and the
    third and fourth bytes at the edges of their ranges, after ASCII of either side of the compiled
    check's 16-byte stride and before more ASCII: the offset Python's strict codec reports, or -1."""
    compiled = profile_impl.compiled
    assert compiled is not None
    pad = b"a" * ascii_before
    tails = (b"", b"\x80", b"\xbf", b"\x80\x80", b"\xbf\xbf", b"\x7f\x80", b"\x80\xc0", b"\x80\x80\x80")
    cases = [bytes([a, b]) for a in range(256) for b in range(256)]
    cases += [bytes([a, b]) + t for a in range(0xE0, 0x100) for b in range(256) for t in tails]
    for seq in cases:
        for data in (pad + seq, pad + seq + b"a" * 20):
            assert compiled.utf8_error_at(data) == lines.utf8_error_at(data), data


@both_cores
def test_title_meta_at_agrees_with_its_regex():
    """Where the title search starts: the compiled scan gives the reference regex's first match, on
    <meta> tags in any case, with the literal right after the name or before the '>', a <meta> inside
    another's attributes, a name that only starts with "meta", and every string of up to 5 of the tokens."""
    compiled = profile_impl.compiled
    assert compiled is not None
    cases = [b"", b"<meta", b"<META NAME=TWITTER:TITLE content=x>", b'<meta property="og:title" content="x">',
             b"<meta og:title", b"<metaog:title>", b"<meta-x og:title>", b"<meta_x og:title>", b"<meta/og:title>",
             b"<meta <meta property=og:title>", b"<meta a> og:title", b"<meta>og:title", b"<meta og:titl>",
             b"<meta :title og:title>", b"x<meta\nog:title", b"<meta name=x><meta twitter:TiTlE>"]
    tokens = [b"<", b">", b"<meta", b"<MeTa", b" ", b"og", b":", b"title", b"twitter", b"x", b"_", b"-"]
    cases += [b"".join(p) for p in itertools.product(tokens, repeat=3)]
    cases += [b"".join(p) for p in itertools.product([b"<meta", b" ", b"og", b":", b"title", b">"], repeat=5)]
    for data in cases:
        assert compiled.title_meta_at(data) == lines.title_meta_at(data), data


@both_cores
def test_identical_on_every_dev_page(shared_data):
    """Arrays (dtypes included) and texts, titles and reasons of every line-based algorithm."""
    checked = 0
    for name in DEV_SETS:
        for page in load_dataset(shared_data / name).pages:
            utf8 = decode(page.body, page.content_type).text.encode("utf-8")
            assert differences(utf8) == [], f"{name}/{page.id}"
            checked += 1
    assert checked > 500


@both_cores
def test_fuzz_bounded():
    """Random bytes, random markup and mutated real pages: no crash, no difference."""
    pages = seed_pages(DATA_ROOT)  # the fixture page alone when the dev data is absent
    for i, data in enumerate(fuzz_inputs(seed=20261124, count=FUZZ_INPUTS, pages=pages)):
        assert differences(data) + walk_differences(data) == [], f"input {i} ({len(data)} bytes): {data[:200]!r}"


@both_cores
@pytest.mark.parametrize("page", [
    b"<!--" + b"x" * 1000,                                  # unclosed comment
    b"<script>" + "متن".encode() * 500,                     # unclosed script
    b"<head><title>t</title>" + b"<p>body</p>" * 100,       # unclosed head
    b"<div>" * 100_000 + "<p>متن عمیق</p>".encode(),        # nesting past libxml2's limit
    "<p>متن</p>".encode()[:-6] + b"\xd8",                   # truncated UTF-8
    bytes(range(256)) * 40,                                 # binary
    b"<a href=x>" * 20_000,                                 # tags without text
    b"<p>" + b"word, " * 200_000 + b"</p>",                 # one 1.2 MB line
], ids=["unclosed-comment", "unclosed-script", "unclosed-head", "deep-nesting", "truncated-utf8", "binary",
        "tags-only", "one-long-line"])
def test_hostile_pages_alike(page):
    assert differences(page) == []
