"""``mcecrawl from-warc``'s command line (the run itself: tests/archives)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "archives"))
from warcs import PARAS_EN, PARAS_FA, page, write_warc  # noqa: E402


def _warcs(tmp_path):
    out = []
    for k in range(2):
        path = tmp_path / f"w{k}.warc.gz"
        write_warc(path, [(f"http://a{k}.ir/1", page(PARAS_FA if k else PARAS_FA[::-1]).encode()),
                          (f"http://a{k}.com/1", page(PARAS_EN, title="x").encode())])
        out.append(str(path))
    return out


def test_command_line(tmp_path, capsys):
    from mcecrawl.cli import main

    warcs = _warcs(tmp_path)
    bad = tmp_path / "x.arc"
    bad.write_bytes(b"filedesc://x.arc 0.0.0.0 20140101000000 text/plain 75\n")
    assert main(["from-warc", str(tmp_path / "w*.warc.gz"), str(bad), "-o", str(tmp_path / "o.jsonl"),
                 "--workers", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["kept"] == 2 and summary["rejected"] == {"prefilter": 2, "not_warc": 1}
    assert summary["unreadable"] and "not a WARC" in summary["unreadable"][0]
    assert main(["from-warc", str(tmp_path / "nothing*.warc"), "-o", str(tmp_path / "p.jsonl")]) == 2
    assert main(["from-warc", warcs[0], "-o", str(tmp_path / "p.jsonl"), "-a", "nope"]) == 2
    assert "unknown algorithm" in capsys.readouterr().err
