"""``mcecrawl decode``: provenance lines, UTF-8 output, forcing, unreadable files."""
import json

from encoding_cases import legacy_bytes, small_page
from mcecrawl.cli import main


def test_lying_header_page_is_reported_and_written_as_utf8(tmp_path, capsys):
    html = small_page("fa", "windows-1256")
    page = tmp_path / "lying.html"
    page.write_bytes(legacy_bytes(html, "cp1256"))
    out_dir = tmp_path / "out"
    assert main(["decode", str(page), "--content-type", "text/html; charset=utf-8", "--output-dir", str(out_dir)]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec == {"file": str(page), "bytes": page.stat().st_size, "encoding_original": "cp1256",
                   "encoding_source": "meta", "encoding_declared_header": "utf-8",
                   "encoding_declared_meta": "windows-1256", "encoding_replacements": 0}
    written = (out_dir / "lying.html").read_bytes().decode("utf-8")
    assert written == legacy_bytes(html, "cp1256").decode("cp1256").replace("windows-1256", "utf-8")


def test_force_and_errors(tmp_path, capsys):
    page = tmp_path / "p.html"
    page.write_bytes(small_page("ar").encode("utf-8"))
    assert main(["decode", str(page), str(tmp_path / "missing.html"), "--force", "windows-1256"]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (lines[0]["encoding_original"], lines[0]["encoding_source"]) == ("cp1256", "forced")
    assert lines[1]["file"].endswith("missing.html") and "error" in lines[1]
    assert main(["decode", str(page), "--force", "no-such-charset"]) == 2
