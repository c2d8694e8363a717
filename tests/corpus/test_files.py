"""Corpus files: .jsonl, .jsonl.gz of several members, directories, a member cut while written."""
from __future__ import annotations

import gzip
import json

from mcecrawl.corpus.files import corpus_files, iter_items


def test_members_directories_and_a_cut_member(tmp_path):
    lines = [json.dumps({"url": f"u{i}", "text": "متن\u2028"}, ensure_ascii=False) + "\n" for i in range(6)]
    packed = tmp_path / "d" / "a.jsonl.gz"
    packed.parent.mkdir()
    packed.write_bytes(gzip.compress("".join(lines[:3]).encode()) + gzip.compress("".join(lines[3:]).encode()))
    (tmp_path / "d" / "b.jsonl").write_text(lines[0] + "not json\n", "utf-8")
    (tmp_path / "d" / "_state.json").write_text("{}", "utf-8")
    assert [p.name for p in corpus_files([tmp_path / "d"])] == ["a.jsonl.gz", "b.jsonl"]
    assert [i["url"] for i in iter_items([tmp_path / "d"])] == [f"u{i}" for i in range(6)] + ["u0"]
    cut = tmp_path / "cut.jsonl.gz"
    whole = gzip.compress("".join(lines[:3]).encode())
    cut.write_bytes(whole + gzip.compress("".join(lines[3:]).encode())[:-12])  # the last member cut
    got = [i["url"] for i in iter_items([cut])]
    assert got[:3] == ["u0", "u1", "u2"] and len(got) <= 6
    cut.write_bytes(whole + b"\x1f\x8b\x08\x00garbage")
    assert [i["url"] for i in iter_items([cut])] == ["u0", "u1", "u2"]
