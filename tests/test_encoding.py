"""mcecrawl.encoding.decode: the lessons.md c.1 scenarios, legacy round trips, other scripts."""
from __future__ import annotations

import base64
import codecs
import gzip
import json
import random
import time
from collections import defaultdict

import pytest

from encoding_cases import (
    Case,
    heavy_page,
    legacy_bytes,
    other_script_cases,
    real_page_cases,
    round_trip_cases,
    small_page,
    synthetic_cases,
    wide_cases,
)
from mcecrawl.encoding import Decoded, decode, resolve_label

STEPS = {"bom", "nul_pattern", "utf-8", "header", "meta", "r2l", "chardet", "fallback", "forced", "empty"}


def _html(lang: str, meta: str | None = None) -> str:
    return small_page(lang, meta)


# --- lessons.md c.1: lying declarations (S1-S5), fa and ar -----------------------------------

@pytest.mark.parametrize("lang", ["fa", "ar"])
def test_s1_header_latin1_meta_utf8_body_utf8(lang):
    html = _html(lang, "utf-8")
    d = decode(html.encode("utf-8"), "text/html; charset=ISO-8859-1")
    assert (d.text, d.encoding, d.source, d.replacements) == (html, "utf-8", "utf-8", 0)
    assert d.declared_header == "ISO-8859-1" and d.declared_meta == "utf-8"  # as given


def test_valid_utf8_is_kept_as_its_bytes():
    """A body that is UTF-8 as it is stays the body (``utf8``, the same object: no copy, no text
    built until read); anything decoding changed (a BOM, replacements, another codec) has none."""
    body = _html("fa", "utf-8").encode("utf-8")
    d = decode(body)
    assert d.utf8 is body and d.page is body and "text" not in vars(d)  # not decoded yet
    assert d.text == body.decode("utf-8") and d.text is d.text  # decoded once, when read
    assert decode(codecs.BOM_UTF8 + body).utf8 is None
    assert decode(body[:-40] + b"\xff" + body[-40:]).utf8 is None  # broken UTF-8: text with a replacement
    assert decode(legacy_bytes(_html("fa", "windows-1256"), "cp1256")).utf8 is None


def test_read_text_builds_the_text_with_the_check():
    """``read_text``: a UTF-8 body's text is built by step 2 itself (held from the start), the body
    still kept as ``utf8``; the decision and every other field are the lazy decoding's."""
    body = _html("ar", "utf-8").encode("utf-8")
    lazy, built = decode(body, "text/html"), decode(body, "text/html", read_text=True)
    assert "text" in vars(built) and built.utf8 is body and built.text == body.decode("utf-8")
    assert built == lazy and built.text == lazy.text
    broken = body[:-40] + b"\xff" + body[-40:]
    assert decode(broken, read_text=True) == decode(broken)  # not UTF-8 as it is: the same later steps


@pytest.mark.parametrize("lang", ["fa", "ar"])
def test_s2_header_utf8_meta_1256_body_1256(lang):
    body = legacy_bytes(_html(lang, "windows-1256"), "cp1256")
    d = decode(body, "text/html; charset=utf-8")
    assert (d.text, d.encoding, d.source, d.replacements) == (body.decode("cp1256"), "cp1256", "meta", 0)
    assert d.declared_header == "utf-8" and d.declared_meta == "windows-1256"


@pytest.mark.parametrize("lang", ["fa", "ar"])
def test_s3_stale_meta_1256_on_utf8_body(lang):
    html = _html(lang, "windows-1256")
    d = decode(html.encode("utf-8"), "text/html")
    assert (d.text, d.encoding, d.source) == (html, "utf-8", "utf-8")
    assert d.declared_meta == "windows-1256"


@pytest.mark.parametrize("lang", ["fa", "ar", "ur", "ps"])
@pytest.mark.parametrize("build", [small_page, heavy_page, lambda lang: heavy_page(lang, sparse=True)],
                         ids=["small", "heavy-300KB", "heavy-300KB-one-sentence"])
def test_s4_nothing_declared_body_1256(lang, build):
    body = legacy_bytes(build(lang), "cp1256")
    d = decode(body, None)
    assert (d.text, d.encoding, d.source) == (body.decode("cp1256"), "cp1256", "r2l")


def test_s4_heavy_page_is_mostly_markup():
    body = legacy_bytes(heavy_page("fa", sparse=True), "cp1256")
    assert len(body) >= 300_000 and len(body.translate(None, bytes(range(128)))) < 0.001 * len(body)


@pytest.mark.parametrize("lang", ["fa", "ar"])
def test_s5_header_1256_body_1256(lang):
    body = legacy_bytes(_html(lang), "cp1256")
    d = decode(body, "text/html; charset=windows-1256")
    assert (d.text, d.encoding, d.source) == (body.decode("cp1256"), "cp1256", "header")


@pytest.mark.parametrize("build", [small_page, heavy_page], ids=["small", "heavy"])
def test_iso_8859_6_versus_windows_1256(build):
    html = build("ar")
    iso, win = legacy_bytes(html, "iso8859-6"), legacy_bytes(html, "cp1256")
    assert iso != win
    d_iso, d_win = decode(iso), decode(win)
    assert (d_iso.encoding, d_iso.text) == ("iso8859-6", iso.decode("iso8859-6"))
    assert (d_win.encoding, d_win.text) == ("cp1256", win.decode("cp1256"))
    # windows-1256 decodes every byte; a windows-1256 label on ISO-8859-6 bytes is implausible.
    lied = decode(iso, "text/html; charset=windows-1256")
    assert (lied.encoding, lied.source) == ("iso8859-6", "r2l")


@pytest.mark.parametrize("ctype", [None, "text/html; charset=windows-1256", "text/html; charset=utf-8"])
def test_bilingual_arabic_french_windows_1256(ctype):
    body = legacy_bytes(small_page("ar+fr"), "cp1256")
    assert "élèves".encode("cp1256") in body
    d = decode(body, ctype)
    assert (d.text, d.encoding) == (body.decode("cp1256"), "cp1256")


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_unlabelled_latin_page_is_not_taken_for_r2l(lang):
    body = small_page(lang).encode("cp1252")
    d = decode(body)
    assert d.source != "r2l"  # left to chardet, whose answer is outside this test


def test_utf8_bom():
    html = _html("fa", "utf-8")
    d = decode(codecs.BOM_UTF8 + html.encode("utf-8"), "text/html; charset=windows-1256")
    assert (d.text, d.encoding, d.source) == (html, "utf-8-sig", "bom")


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-32"])
def test_utf16_utf32_with_bom(codec):
    html = _html("ar", "utf-16")
    body = html.encode(codec) if codec != "utf-16-be" else codecs.BOM_UTF16_BE + html.encode(codec)
    d = decode(body, "text/html")
    assert (d.text, d.source) == (html, "bom")


def test_utf16_without_bom_trusts_a_plausible_label():
    html = _html("fa")
    d = decode(html.encode("utf-16-le"), "text/html; charset=utf-16le")
    assert (d.text, d.encoding, d.source) == (html, "utf-16-le", "header")


def test_utf16_label_on_legacy_bytes_is_ignored():
    body = legacy_bytes(_html("ar"), "cp1256")
    body += b" " * (len(body) % 2)  # even length, so UTF-16 decodes strictly
    d = decode(body, "text/html; charset=utf-16le")
    assert (d.encoding, d.source) == ("cp1256", "r2l")


@pytest.mark.parametrize("codec", ["cp1255", "iso8859-8"])
def test_hebrew(codec):
    body = _html("he").encode(codec)
    d = decode(body, f"text/html; charset={codec}")
    assert (d.text, d.encoding, d.source) == (body.decode(codec), codec, "header")
    # Plain letters are the same bytes in both code pages; unlabelled, the narrower one wins.
    d = decode(body)
    assert (d.text, d.encoding, d.source) == (body.decode(codec), "iso8859-8", "r2l")


def test_hebrew_niqqud_forces_windows_1255():
    html = _html("he").replace("העירייה", "הָעִירִיָּה")  # points exist only in windows-1255
    d = decode(html.encode("cp1255"))
    assert (d.text, d.encoding) == (html, "cp1255")


def test_meta_after_the_first_4kb_is_read():
    html = small_page("ar", "windows-1256").replace("<head>", "<head><script>" + "var x = 1;\n" * 900 + "</script>")
    body = legacy_bytes(html, "cp1256")
    assert body.index(b"charset=") > 8192
    d = decode(body, "text/html; charset=utf-8")
    assert (d.text, d.encoding, d.source, d.declared_meta) == (body.decode("cp1256"), "cp1256", "meta", "windows-1256")


def test_labels_are_reported_as_given():
    html = ('<html><head><!-- <meta charset="iso-8859-1"> --><meta http-equiv="Content-Type" '
            'content="text/html; charset=Windows-1256"></head><body><p>سلام</p></body></html>')
    d = decode(html.encode("cp1256"), 'text/html; charset="UTF-8"')
    assert (d.declared_header, d.declared_meta, d.encoding, d.source) == ("UTF-8", "Windows-1256", "cp1256", "meta")
    xml = '<?xml version="1.0" encoding="ISO-8859-8"?><rss><title>ראש העירייה</title></rss>'
    assert decode(xml.encode("iso8859-8")).declared_meta == "ISO-8859-8"


def test_iso_8859_8_i_label():
    body = _html("he").encode("iso8859-8")
    d = decode(body, "text/html; charset=ISO-8859-8-I")
    assert (d.declared_header, d.encoding, d.source) == ("ISO-8859-8-I", "iso8859-8", "header")


@pytest.mark.parametrize("body", [
    gzip.compress(b"<html>" + bytes(range(256)) * 40),
    b"\x89PNG\r\n\x1a\n" + random.Random(4).randbytes(20_000),
    b"%PDF-1.4\n" + random.Random(5).randbytes(5_000),
], ids=["gzip", "png", "pdf"])
def test_binary_body_never_raises(body):
    d = decode(body, "application/octet-stream")
    assert isinstance(d, Decoded) and d.source in STEPS - {"utf-8", "bom", "empty", "forced"}
    assert len(d.text) >= len(body) // 4
    if d.source == "fallback":
        assert d.encoding == "cp1252" and d.replacements == d.text.count("\ufffd")


def test_chardet_sample_survives_a_huge_base64_token():
    # Not a speed test: the old sample regex backtracked quadratically here (about a minute).
    blob = base64.b64encode(random.Random(1).randbytes(75_000))
    body = b'<img src="data:image/png;base64,' + blob + b'">' + small_page("de").encode("cp1252")
    started = time.perf_counter()
    d = decode(body)
    assert time.perf_counter() - started < 5 and d.source != "r2l"


@pytest.mark.parametrize("body", [b"", None])
def test_empty_body(body):
    d = decode(body, "text/html; charset=windows-1256")
    assert (d.text, d.source, d.replacements, d.declared_header) == ("", "empty", 0, "windows-1256")


def test_ascii_body_is_utf8():
    d = decode(b"<html><p>&#1587;&#1604;&#1575;&#1605;</p></html>", "text/html; charset=windows-1256")
    assert (d.encoding, d.source) == ("utf-8", "utf-8")


def test_utf8_cut_inside_its_last_character():
    body = _html("fa").encode("utf-8")
    cut = body.rindex("ر".encode("utf-8")) + 1
    d = decode(body[:cut])
    assert (d.encoding, d.source, d.replacements) == ("utf-8", "utf-8", 1)
    assert d.text == body[: cut - 1].decode("utf-8") + "\ufffd"


@pytest.mark.parametrize("lang", ["fa", "ar", "ur"])
def test_utf8_with_a_corrupted_byte_stays_utf8(lang):
    body = heavy_page(lang).encode("utf-8")
    at = body.index(b"\xd8", len(body) // 3)
    body = body[:at] + b"\xff" + body[at + 1:]  # the lead byte lost: 2 broken bytes
    d = decode(body, "text/html; charset=utf-8")
    assert (d.text, d.encoding, d.source, d.replacements) == (body.decode("utf-8", "replace"), "utf-8", "utf-8", 2)


def test_replacement_characters_of_the_page_itself_are_not_counted():
    body = ("<p>\ufffd سلام \ufffd دنیا</p>" + _html("fa")).encode("utf-8") + b"\xff"
    assert decode(body).replacements == 1


def test_force_wins_and_counts_replacements():
    body = _html("ar").encode("utf-8")
    d = decode(body, "text/html; charset=utf-8", force="windows-1256")
    assert (d.encoding, d.source) == ("cp1256", "forced")
    assert decode(b"\x81\x8d abc", force="iso-8859-1").replacements == 2  # windows-1252 holes


def test_forced_utf8_does_not_count_the_pages_own_replacement_characters():
    body = "<p>\ufffd متن</p>".encode("utf-8")
    assert decode(body, force="utf-8").replacements == 0
    assert decode(body + b"\xff", force="utf-8").replacements == 1


def test_unknown_force_label_is_ignored():
    html = _html("ar")
    d = decode(html.encode("utf-8"), force="no-such-charset")
    assert (d.text, d.source) == (html, "utf-8")


def test_fallback_counts_replacements():
    body = b"<p>" + b"\x81\x8d\x8f\x90\x9d" * 3 + bytes(range(0xC0, 0x100)) * 3 + b"</p>"
    d = decode(body)  # no code page reads this as plausible text, whatever chardet says
    assert (d.encoding, d.source) == ("cp1252", "fallback")
    assert d.replacements == 15 == d.text.count("\ufffd")


def test_multibyte_label_superset():
    text = ("<html><head><meta charset=gb2312></head>"
            "<p>北京市今天发布了新的交通规定，鼓励市民乘坐公共交通出行。</p></html>")
    body = text.encode("gbk")
    d = decode(body, "text/html")
    assert (d.text, d.encoding, d.source, d.declared_meta) == (text, "gb18030", "meta", "gb2312")


@pytest.mark.parametrize("label, codec", [("ISO-8859-1", "cp1252"), ("latin1", "cp1252"), ("ascii", "cp1252"),
                                          ("gb2312", "gb18030"), ("GBK", "gb18030"), ("windows-1256", "cp1256"),
                                          ("iso-8859-6", "iso8859-6"), ("iso-8859-8-i", "iso8859-8"),
                                          ("x-mac-arabic", "mac-arabic"), ("utf-7", None), ("bogus", None), ("", None)])
def test_resolve_label(label, codec):
    assert resolve_label(label) == codec


# --- round trips: every case must come back exactly --------------------------------------------

def _failures(cases: list[Case]) -> dict[str, list[str]]:
    failed = defaultdict(list)
    for case in cases:
        d = decode(case.body, case.content_type)
        if d.text != case.expected:
            failed[case.scenario].append(f"{case.name}: got {d.encoding} via {d.source}")
    return dict(failed)


def test_round_trips_of_hand_written_pages():
    cases = synthetic_cases()
    assert {c.scenario for c in cases} == {"true_labels", "false_header", "false_header_true_meta", "false_meta",
                                           "no_label"}
    assert _failures(cases) == {}


def test_other_scripts_with_true_labels_come_back_exactly():
    cases = other_script_cases()
    assert {c.codec for c in cases} == {"cp1251", "iso8859-7", "iso8859-2", "cp1252"}
    assert _failures(cases) == {}


@pytest.fixture(scope="module")
def real_cases(shared_data) -> list[Case]:
    return real_page_cases(shared_data)


@pytest.mark.parametrize("scenario", ["true_labels", "false_header", "false_header_true_meta", "false_meta",
                                      "no_label"])
def test_round_trips_of_real_pages(real_cases, scenario):
    cases = [c for c in real_cases if c.scenario == scenario]
    assert {c.codec for c in cases} == {"cp1256", "iso8859-6", "cp1255"}
    assert len({c.name.split("/")[0] for c in cases}) == 18
    assert _failures(cases) == {}


def test_real_utf8_pages_with_a_corrupted_byte(shared_data):
    from encoding_cases import corrupted_utf8_cases
    cases = corrupted_utf8_cases(shared_data)
    assert len(cases) == 18 and _failures(cases) == {}
    assert all(decode(c.body, c.content_type).replacements >= 1 for c in cases)


def test_real_pages_decode_as_utf8_whatever_the_labels(shared_data):
    from encoding_cases import shared_r2l_pages
    for page_id, _lang, html in shared_r2l_pages(shared_data)[:6]:
        d = decode(html.encode("utf-8"), "text/html; charset=windows-1256")
        assert (d.text, d.source) == (html, "utf-8"), page_id


def test_round_trip_case_builder_writes_references_for_unencodable_chars():
    cases = round_trip_cases("t", "<p>۱۲۳ ی ک گ 😀</p>", "cp1256")
    body = cases[0].body
    assert b"&#1777;" in body and b"&#128512;" in body and "ي ك گ".encode("cp1256") in body


def test_shared_encoding_samples(shared_data):
    root = shared_data / "encodings"
    with open(root / "manifest.jsonl", encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    assert len(records) == 8
    for rec in records:
        body = (root / "pages" / f"{rec['id']}.html").read_bytes()
        ctype = f"text/xml; charset={rec['http_charset']}" if rec.get("http_charset") else None
        d = decode(body, ctype)
        assert d.text == body.decode(rec["true_encoding"]), rec["id"]
        assert d.source in {"r2l", "meta", "header"} and d.replacements == 0, rec["id"]


# --- multi-byte pages with a few damaged bytes (tolerant labels and chardet answers) -----------

CJK = {"zh": ("gb2312", "gb18030"), "ja": ("shift_jis", "cp932"), "ko": ("euc-kr", "cp949")}


def _damaged_cjk_page(lang: str, meta: str | None, damaged: int = 2) -> bytes:
    """A CJK page (paragraphs three times: ~900 CJK characters) in its legacy code page with
    the last character of ``damaged`` paragraphs cut to its lead byte, as truncated titles
    ("激\\xbc...") of real GB2312 pages are."""
    html = small_page(lang, meta)
    article = html[html.index("<article>"):html.index("</article>")]
    html = html.replace("</article>", article + article + "</article>")
    codec = CJK[lang][1]
    body, done = b"", 0
    for end in [i for i in range(len(html)) if html.startswith("</p>", i)][:damaged]:
        last = max(i for i in range(end) if ord(html[i]) > 127)  # the paragraph's last CJK character
        body += html[done:last].encode(codec) + html[last].encode(codec)[:1]
        done = last + 1
    return body + html[done:].encode(codec)


@pytest.mark.parametrize("lang", sorted(CJK))
@pytest.mark.parametrize("where", ["header", "meta"])
def test_true_multibyte_label_survives_a_few_damaged_bytes(lang, where):
    label, codec = CJK[lang]
    body = _damaged_cjk_page(lang, label if where == "meta" else None)
    with pytest.raises(UnicodeDecodeError):
        body.decode(codec)
    d = decode(body, f"text/html; charset={label}" if where == "header" else "text/html")
    assert (d.text, d.encoding, d.source, d.replacements) == (body.decode(codec, "replace"), codec, where, 2)


def test_unlabelled_damaged_gb2312_page_is_found_by_chardets_ranking():
    body = _damaged_cjk_page("zh", None)
    d = decode(body)
    assert (d.text, d.encoding, d.source, d.replacements) == (body.decode("gb18030", "replace"), "gb18030",
                                                               "chardet", 2)


def test_too_many_damaged_bytes_are_not_tolerated():
    # 40 of ~900 characters damaged (4 %): more than MAX_REPLACEMENT_SHARE, and more than the
    # cp932 reading of a Polish ISO-8859-2 page needs.
    body = _damaged_cjk_page("zh", "gb2312", damaged=40)
    assert decode(body, "text/html; charset=gb2312").encoding != "gb18030"


@pytest.mark.parametrize("lie", ["gb2312", "shift_jis", "euc-kr", "big5", "euc-jp"])
@pytest.mark.parametrize("build", [small_page, heavy_page, lambda lang: heavy_page(lang, sparse=True)],
                         ids=["small", "heavy", "sparse"])
@pytest.mark.parametrize("where", ["header", "meta"])
def test_lying_multibyte_label_on_windows_1256_bytes_still_loses(lie, build, where):
    from encoding_cases import with_meta
    for lang in ("fa", "ar", "ur"):
        body = legacy_bytes(with_meta(build(lang), lie if where == "meta" else None), "cp1256")
        d = decode(body, f"text/html; charset={lie}" if where == "header" else "text/html")
        assert (d.text, d.encoding, d.source) == (body.decode("cp1256"), "cp1256", "r2l"), lang


@pytest.mark.parametrize("lang, codec", [("ru", "cp1251"), ("el", "iso8859-7"), ("pl", "iso8859-2")])
@pytest.mark.parametrize("lie", ["gb2312", "shift_jis", "euc-kr", "big5"])
def test_lying_multibyte_label_on_other_single_byte_pages_is_not_tolerated(lang, codec, lie):
    from encoding_cases import with_meta
    body = with_meta(small_page(lang), lie).encode(codec)
    d = decode(body, f"text/html; charset={lie}")
    assert d.encoding != resolve_label(lie) and d.source not in ("header", "meta")


def test_single_byte_labels_get_no_tolerance():
    # ISO-8859-6 leaves most windows-1256 bytes undefined; one undefined byte would be "tiny",
    # but for a single-byte code page it is evidence of the wrong code page.
    body = legacy_bytes(small_page("ar"), "iso8859-6") + "پ".encode("cp1256")  # 0x81: a C1 control there
    assert decode(body, "text/html; charset=iso-8859-6").source != "header"


def test_gb18030_decodes_a3a0_as_a_browser_does():
    text = "<html><head><meta charset=gb2312></head><p>\u3000\u3000北京市今天发布了新的交通规定。</p></html>"
    body = text.encode("gb18030").replace("\u3000".encode("gb18030"), b"\xa3\xa0")  # GBK pages' indent
    assert body.decode("gb18030").count("\ue5e5") == 2  # Python's codec: private use
    d = decode(body, "text/html")
    assert (d.text, d.encoding, d.source) == (text, "gb18030", "meta")
    assert decode(body, force="gbk").text == text


def test_no_chinese_wce_page_ends_in_the_fallback(shared_data):
    root = shared_data / "chinese_wce"
    with open(root / "manifest.jsonl", encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    assert len(records) >= 60
    steps = defaultdict(list)
    for rec in records:
        body = (root / "pages" / f"{rec['id']}.html").read_bytes()
        ctype = f"text/html; charset={rec['http_charset']}" if rec.get("http_charset") else None
        d = decode(body, ctype)
        steps[d.source].append(rec["id"])
        assert d.encoding in ("utf-8", "utf-8-sig", "gb18030"), (rec["id"], d.encoding, d.source)
        assert d.replacements <= 0.005 * len(d.text), rec["id"]
    assert "fallback" not in steps, steps["fallback"]


def test_detected_charset_is_evidence_validated_like_a_label():
    """A detector's answer brought by the caller (Common Crawl's charset-detected) decides when the
    labels and the R2L code pages do not, and only if the bytes decode plausibly with it."""
    russian = ("<html><body><p>" + "Министерство иностранных дел России заявило в понедельник " * 20
               + "</p></body></html>").encode("cp1251")
    d = decode(russian, "text/html", detected="windows-1251")
    assert (d.encoding, d.source) == ("cp1251", "detected") and "Министерство" in d.text
    arabic = ("<p>" + "أعلنت وزارة الصحة المصرية اليوم عن افتتاح مستشفى جديد " * 20 + "</p>").encode("cp1256")
    d = decode(arabic, "text/html", detected="windows-1252")  # a wrong answer loses to the R2L step
    assert (d.encoding, d.source) == ("cp1256", "r2l")
    d = decode(russian, None, detected="shift_jis")  # an answer that does not decode plausibly is ignored
    assert d.source != "detected"


# --- UTF-16/32 without a BOM: the nul_pattern step --------------------------------------------------------

@pytest.mark.parametrize("case", wide_cases(), ids=lambda c: c.name)
def test_utf16_utf32_without_bom_or_label(case):
    d = decode(case.body, case.content_type)
    assert (d.text, d.encoding, d.source, d.replacements) == (case.expected, case.codec, "nul_pattern", 0)
    assert d.provenance()["encoding_source"] == "nul_pattern"


def test_utf16_without_bom_with_its_label_says_header():
    html = _html("ar", "utf-16")
    d = decode(html.encode("utf-16-be"), "text/html; charset=utf-16be")
    assert (d.text, d.encoding, d.source) == (html, "utf-16-be", "header")


def test_a_few_nul_bytes_do_not_make_utf16():
    html = _html("fa", "utf-8")
    body = html.encode("utf-8").replace(b"<title>", b"<title>\x00\x00\x00", 1)
    d = decode(body, "text/html")
    assert (d.encoding, d.source) == ("utf-8", "utf-8")
    legacy = legacy_bytes(_html("ar"), "cp1256") + b"\x00"
    assert decode(legacy).encoding == "cp1256"


def test_chardets_utf16_files_without_bom(tmp_path):
    """Shapes of chardet's tests/UTF-16{BE,LE}/nobom-* and plane1-* files: ASCII-only text, and an
    HTML page whose text is mostly characters outside the BMP."""
    text = "\n".join(f"This is line {i} of a plain text file without a byte-order mark." for i in range(20))
    page = ("<html><body>" + "".join(f"<p>{chr(0x1D400 + i)}{chr(0x10330 + i % 20)} x</p>\n" for i in range(120))
            + "</body></html>")
    for content in (text, page):
        for codec in ("utf-16-be", "utf-16-le"):
            d = decode(content.encode(codec))
            assert (d.text, d.encoding, d.source) == (content, codec, "nul_pattern")
