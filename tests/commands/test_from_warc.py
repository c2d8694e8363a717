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
    assert main(["from-warc", *warcs, "-o", str(tmp_path / "q.jsonl.gz"), "--workers", "2", "--progress"]) == 0
    out, err = capsys.readouterr()
    assert "2/2 WARCs" in err and "2 kept" in err and "prefilter 2" in err  # the progress line
    assert "4 response records, 2 kept" in out and "rejected by reason: prefilter 2" in out  # the summary
    assert main(["from-warc", str(tmp_path / "nothing*.warc"), "-o", str(tmp_path / "p.jsonl")]) == 2
    assert main(["from-warc", warcs[0], "-o", str(tmp_path / "p.jsonl"), "-a", "nope"]) == 2
    assert "unknown algorithm" in capsys.readouterr().err
    assert main(["from-warc", warcs[0], "-o", str(tmp_path / "p.jsonl"), "--lang", "fr"]) == 2
    assert "language identification knows" in capsys.readouterr().err


def test_corpus_commands_read_shards_and_gzip(tmp_path, capsys):
    """stats, merge, index, search and export-bulk read from-warc's .jsonl.gz files and shard directories."""
    from mcecrawl.cli import main

    warcs = _warcs(tmp_path)
    shards, packed = tmp_path / "shards", tmp_path / "c.jsonl.gz"
    assert main(["from-warc", *warcs, "-o", str(shards), "--workers", "1"]) == 0
    assert main(["from-warc", *warcs, "-o", str(packed), "--workers", "1"]) == 0
    capsys.readouterr()
    for corpus in (shards, packed):
        assert main(["stats", str(corpus), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["records"] == 2
        merged = tmp_path / f"m-{corpus.name}.jsonl"
        assert main(["merge", str(corpus), "-o", str(merged), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["written"] == 2
        db = tmp_path / f"i-{corpus.name}.sqlite"
        assert main(["index", str(corpus), "--db", str(db)]) == 0
        assert "2 added" in capsys.readouterr().err
        assert main(["search", "ایران", "--db", str(db), "--json"]) == 0
        assert len(capsys.readouterr().out.splitlines()) == 2
        assert main(["export-bulk", str(corpus), "--index", "news", "-o", str(tmp_path / "b.ndjson")]) == 0
        assert len((tmp_path / "b.ndjson").read_text("utf-8").splitlines()) == 4
