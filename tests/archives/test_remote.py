"""from-warc over HTTP: WARCs by URL and by a warc.paths.gz, 503/429 with Retry-After, connections cut
mid-file, servers that ignore Range, retries exhausted, kill -9 -- all on a server on 127.0.0.1."""
from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from httpserver import Server
from warcs import kill_half_way as kill_once
from warcs import make_warcs, write_warc

from mcecrawl.archives.pages import PageConfig
from mcecrawl.archives.remote import FetchOptions, Retry, read_paths, shard
from mcecrawl.archives.run import RunOptions, run
from mcecrawl.corpus.files import iter_items

ROOT = Path(__file__).resolve().parents[2]
# Fields that differ between two runs of the same page (timing) or name where the WARC was read from.
VOLATILE = ("extraction_ms", "warc_file")
FAST = FetchOptions(retry=Retry(base=0.01))


def stable(items):
    return sorted(({k: v for k, v in i.items() if k not in VOLATILE} for i in items), key=lambda i: i["url"])


def _items(path):
    return list(iter_items([path]))


def test_urls_and_paths_give_the_local_items(tmp_path, capsys):
    from mcecrawl.cli import main

    warcs = make_warcs(tmp_path)
    local = run(RunOptions([str(w) for w in warcs], str(tmp_path / "local.jsonl"), workers=1))
    expected = stable(_items(tmp_path / "local.jsonl"))
    assert len(expected) == 3 * 7 and local.kept == 21
    with Server(tmp_path) as srv:
        urls = [f"{srv.url}/crawl/{w.name}" for w in warcs]
        s = run(RunOptions(urls, str(tmp_path / "urls.jsonl"), workers=1, fetch=FAST))
        got = _items(tmp_path / "urls.jsonl")
        assert stable(got) == expected and {i["warc_file"] for i in got} == set(urls)
        run(RunOptions(urls, str(tmp_path / "two.jsonl"), workers=2, fetch=FAST))  # which copy is first may differ
        assert sorted((i["url"], i["text"]) for i in _items(tmp_path / "two.jsonl")) == \
            sorted((i["url"], i["text"]) for i in expected)
        assert s.bytes == sum(w.stat().st_size for w in warcs) == srv.bytes_sent() / 2
        paths = tmp_path / "warc.paths.gz"
        paths.write_bytes(gzip.compress("".join(f"crawl/{w.name}\n" for w in warcs).encode()))
        assert read_paths(str(paths), srv.url) == urls
        for k in range(2):  # two machines, one list
            assert main(["from-warc", "--paths", str(paths), "--base-url", srv.url, "--shard", f"{k}/2",
                         "-o", str(tmp_path / f"shard{k}.jsonl"), "--workers", "1", "--json"]) == 0
        capsys.readouterr()
        both = _items(tmp_path / "shard0.jsonl") + _items(tmp_path / "shard1.jsonl")
        assert [i["url"] for i in stable(both)] == [i["url"] for i in expected]
        assert main(["from-warc", "--paths", f"{srv.url}/warc.paths.gz", "--base-url", srv.url,
                     "-o", str(tmp_path / "p.jsonl"), "--workers", "1"]) == 0
        assert stable(_items(tmp_path / "p.jsonl")) == expected
    assert shard(list("abcde"), "1/2") == ["b", "d"]
    with pytest.raises(ValueError):
        shard(["a"], "2/2")
    (tmp_path / "x.arc").write_bytes(b"filedesc://x.arc 0.0.0.0 20140101000000 text/plain 75\n")
    with Server(tmp_path) as srv:  # no WARC at all: counted once, done (not read again)
        for _ in range(2):
            s = run(RunOptions([f"{srv.url}/x.arc"], str(tmp_path / "arc.jsonl"), workers=1))
        assert s.files_skipped == 1
        assert srv.state.requests["/x.arc"] == 1
    assert main(["from-warc", "-o", str(tmp_path / "x.jsonl")]) == 2
    assert "no WARC given" in capsys.readouterr().err


@pytest.mark.parametrize("fault", ["busy503", "busy429", "cut", "cut_no_range"])
def test_faults_lose_nothing_and_double_nothing(tmp_path, fault):
    warcs = make_warcs(tmp_path, n_files=2)
    run(RunOptions([str(w) for w in warcs], str(tmp_path / "local.jsonl"), workers=1))
    expected = stable(_items(tmp_path / "local.jsonl"))
    with Server(tmp_path) as srv:
        f = srv.state.faults
        if fault.startswith("busy"):
            f.busy, f.busy_status, f.retry_after = 2, int(fault[-3:]), "1"
        else:
            f.cut_after, f.cut_paths, f.ignore_range = 9000, ("/crawl/w0.warc.gz",), fault == "cut_no_range"
        t0 = time.monotonic()
        s = run(RunOptions([f"{srv.url}/crawl/{w.name}" for w in warcs], str(tmp_path / "r.jsonl"), workers=1,
                           fetch=FAST))
        took = time.monotonic() - t0
        assert stable(_items(tmp_path / "r.jsonl")) == expected and not s.unreadable
        assert s.retries >= 1
        if fault.startswith("busy"):
            assert srv.state.statuses[int(fault[-3:])] == 2 and took >= 2.0  # Retry-After: 1, twice, honoured
        else:
            assert srv.state.requests["/crawl/w0.warc.gz"] == 2  # reopened once
            assert srv.state.statuses[206 if fault == "cut" else 200] >= 1
            if fault == "cut":  # resumed by range: no byte sent twice
                assert srv.bytes_sent() == sum(w.stat().st_size for w in warcs)


def test_a_warc_not_read_to_its_end_is_not_done(tmp_path):
    warcs = make_warcs(tmp_path, n_files=2)
    out = tmp_path / "r.jsonl"
    with Server(tmp_path) as srv:
        urls = [f"{srv.url}/crawl/{w.name}" for w in warcs] + [f"{srv.url}/crawl/missing.warc.gz"]
        srv.state.faults.busy, srv.state.faults.retry_after = 2, "0"  # the first WARC gives up
        give_up = FetchOptions(retry=Retry(attempts=2, base=0.01))
        s = run(RunOptions(urls, str(out), workers=1, fetch=give_up))
        assert s.kept < 14 and s.reasons["fetch_failed"] >= 1 and s.unreadable
        assert all("read again by the next run" in u for u in s.unreadable)
        state = json.loads(Path(str(out) + ".state.json").read_text())
        assert list(state["done"]) == [urls[1]]
        srv.state.faults.busy = 0
        s2 = run(RunOptions(urls, str(out), workers=1, fetch=give_up))
        assert s2.reasons == {"prefilter": s2.reasons["prefilter"], "fetch_failed": 1}  # only the 404 is left
        assert "http_404" in s2.unreadable[0]
    run(RunOptions([str(w) for w in warcs], str(tmp_path / "local.jsonl"), workers=1))
    # each page once, none lost (which copy is "the first" follows the order the WARCs were done in)
    texts = sorted((i["url"], i["text"]) for i in _items(out))
    assert texts == sorted((i["url"], i["text"]) for i in _items(tmp_path / "local.jsonl")) and len(texts) == 14


def test_an_outage_mid_file_leaves_the_warc_for_the_next_run(tmp_path):
    warcs = make_warcs(tmp_path, n_files=2)
    out = tmp_path / "r.jsonl"
    with Server(tmp_path) as srv:
        urls = [f"{srv.url}/crawl/{w.name}" for w in warcs]
        f = srv.state.faults
        f.cut_after, f.cut_paths, f.down_after_cut, f.retry_after = 9000, ("/crawl/w0.warc.gz",), True, "0"
        s = run(RunOptions(urls, str(out), workers=1, fetch=FetchOptions(retry=Retry(attempts=3, base=0.01))))
        assert s.reasons["fetch_failed"] == 2 and "bad_record" not in s.reasons  # an outage is no bad record
        assert s.kept == 0 and len(s.unreadable) == 2 and "w0.warc.gz" in s.unreadable[0]
        f.busy = 0
        s = run(RunOptions(urls, str(out), workers=1, fetch=FAST))
        assert s.kept == 14 and not s.unreadable


def _server_process(root: Path, tmp_path: Path) -> tuple[subprocess.Popen, str]:
    port_file = tmp_path / "server.url"
    proc = subprocess.Popen([sys.executable, str(Path(__file__).with_name("httpserver.py")), str(root),
                             str(port_file)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while not port_file.is_file() and time.monotonic() < deadline:
        time.sleep(0.05)
    return proc, port_file.read_text()


def kill_half_way(cmd: list[str], state: Path, total: int) -> None:
    """Killed half-way (warcs.kill_half_way), then re-run to its end."""
    env = kill_once(cmd, state, total)
    assert subprocess.run(cmd, env=env, capture_output=True).returncode == 0


def test_resume_after_kill_9_over_http(tmp_path):
    warcs = make_warcs(tmp_path, n_files=6, per_file=8)
    (tmp_path / "warc.paths").write_text("".join(f"crawl/{w.name}\n" for w in warcs))
    server, url = _server_process(tmp_path, tmp_path)
    try:
        out = tmp_path / "killed.jsonl.gz"
        cmd = [sys.executable, "-m", "mcecrawl", "from-warc", "--paths", str(tmp_path / "warc.paths"),
               "--base-url", url, "-o", str(out), "--workers", "1"]
        kill_half_way(cmd, Path(str(out) + ".state.json"), 6)
        run(RunOptions([f"{url}/crawl/{w.name}" for w in warcs], str(tmp_path / "full.jsonl"), workers=1))
    finally:
        server.kill()
        server.wait()
    resumed, full = _items(out), _items(tmp_path / "full.jsonl")
    assert len(resumed) == 6 * 9 and stable(resumed) == stable(full)


def test_page_types_keep_some_and_items_carry_page_type(tmp_path, monkeypatch):
    import dataclasses

    import mcecrawl.algorithms as algorithms

    real = algorithms.extract

    def judged(page, **kw):  # the page-type judgement's stand-in: listings are the pages with "1" in the URL
        r = real(page, **kw)
        return dataclasses.replace(r, page_type="listing" if "/1" in (kw.get("url") or "") else "article",
                                   page_type_reason="test")

    warcs = make_warcs(tmp_path, n_files=1)
    out = tmp_path / "all.jsonl"
    run(RunOptions([str(warcs[0])], str(out), workers=1))
    from mcecrawl.algorithms.result import PAGE_TYPES

    assert {i["page_type"] for i in _items(out)} <= set(PAGE_TYPES)  # every page judged (read as a type)
    monkeypatch.setattr(algorithms, "extract", judged)
    run(RunOptions([str(warcs[0])], str(tmp_path / "typed.jsonl"), workers=1))
    assert {i["url"]: i["page_type"] for i in _items(tmp_path / "typed.jsonl")}["http://site0.ir/1"] == "listing"
    s = run(RunOptions([str(warcs[0])], str(tmp_path / "art.jsonl"), workers=1,
                       config=PageConfig(page_types=("article",))))
    kept = _items(tmp_path / "art.jsonl")
    assert s.reasons["page_type"] == 1 and len(kept) == 6 and {i["page_type"] for i in kept} == {"article"}
    s = run(RunOptions([str(warcs[0])], str(tmp_path / "un.jsonl"), workers=1,
                       config=PageConfig(page_types=("unjudged",))))
    assert s.kept == 0 and s.reasons["page_type"] == 7


def test_page_types_option(tmp_path, capsys):
    from mcecrawl.cli import main

    warcs = make_warcs(tmp_path, n_files=1)
    assert main(["from-warc", str(warcs[0]), "-o", str(tmp_path / "a.jsonl"), "--page-types", "nope"]) == 2
    assert "page types are" in capsys.readouterr().err
    assert main(["from-warc", str(warcs[0]), "-o", str(tmp_path / "a.jsonl"), "--workers", "1",
                 "--page-types", "article,unjudged", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["kept"] == 7


@pytest.mark.parametrize("ignore_range", [False, True])
def test_fetch_range_resumes_a_cut_body(tmp_path, ignore_range):
    from mcecrawl.archives.remote import RemoteError, fetch_range

    warcs = make_warcs(tmp_path, n_files=1)
    data = warcs[0].read_bytes()
    with Server(tmp_path) as srv:
        srv.state.faults.ignore_range, srv.state.faults.cut_after = ignore_range, 300
        got, received = fetch_range(f"{srv.url}/crawl/w0.warc.gz", 700, 900, Retry(base=0.01))
        assert got == data[700:1600] and srv.state.requests["/crawl/w0.warc.gz"] == 2
        assert received == (300 + 1600 if ignore_range else 900)  # with Range: each byte once
        if not ignore_range:
            with pytest.raises(RemoteError, match="range_not_satisfiable"):
                fetch_range(f"{srv.url}/crawl/w0.warc.gz", len(data) + 10, 5, Retry(base=0.01))


def test_bad_records_over_http_counted_as_on_disk(tmp_path):
    """Every bad record the reader's tests make (cut gzip members, a cut file, a lying Content-Length,
    garbage between records) and warcio's own test archives: the same records and reasons over HTTP."""


    from test_reader import GOOD, WARCIO_TEST_DATA_ENV

    from mcecrawl.archives.reader import Record, iter_records
    from mcecrawl.archives.remote import RemoteFile

    root = tmp_path / "bad"
    root.mkdir()
    offsets = write_warc(root / "cut-member.warc.gz", [(f"http://x.ir/{i}", GOOD) for i in range(4)])
    data = (root / "cut-member.warc.gz").read_bytes()
    (root / "cut-member.warc.gz").write_bytes(data[:offsets[1] + (offsets[2] - offsets[1]) // 2] + data[offsets[2]:])
    (root / "cut-end.warc.gz").write_bytes(data[:-200])
    write_warc(root / "lying.warc", [(f"http://x.ir/{i}", GOOD) for i in range(4)], gzip_records=False)
    plain = (root / "lying.warc").read_bytes()
    i = plain.index(b"Content-Length: ", plain.index(b"http://x.ir/1")) + len(b"Content-Length: ")
    j = plain.index(b"\r\n", i)
    (root / "lying.warc").write_bytes(plain[:i] + str(int(plain[i:j]) + 300).encode() + plain[j:])
    (root / "garbage.warc").write_bytes(plain[:offsets[0] + 10] + b"\x00\xffgarbage\r\n\r\n" * 3 + plain)
    warcio = Path(os.environ.get(WARCIO_TEST_DATA_ENV) or "/nonexistent")  # third-party files, when named
    if warcio.is_dir():
        for path in warcio.iterdir():
            if path.is_file():
                (root / path.name).write_bytes(path.read_bytes())

    def seen(items):
        return [(i.url, i.body) if isinstance(i, Record) else (i.reason, i.offset) for i in items]

    files = sorted(p for p in root.iterdir())
    with Server(root) as srv:
        for path in files:
            local = seen(iter_records(str(path)))
            remote = seen(iter_records(str(path), fileobj=RemoteFile(f"{srv.url}/{path.name}")))
            assert remote == local, path.name
        s_local = run(RunOptions([str(p) for p in files], str(tmp_path / "l.jsonl"), workers=1,
                                 config=PageConfig(langs=None, keep_failed=True)))
        s_http = run(RunOptions([f"{srv.url}/{p.name}" for p in files], str(tmp_path / "h.jsonl"), workers=1,
                                config=PageConfig(langs=None, keep_failed=True), fetch=FAST))
    assert s_http.reasons == s_local.reasons and s_http.kept == s_local.kept and s_http.records == s_local.records
    assert {"bad_record", "truncated_record" if warcio.is_dir() else "bad_record"} <= set(s_http.reasons)


def test_retry_after_forms_and_the_shared_pause():
    from email.utils import formatdate

    from mcecrawl.archives.remote import HostGate, _retry_after

    assert _retry_after("3") == 3.0 and _retry_after(None) is None and _retry_after("soon") is None
    assert 25 < _retry_after(formatdate(time.time() + 30, usegmt=True)) <= 30  # an HTTP date
    r = Retry(base=1.0, cap=8.0, max_retry_after=100.0)
    assert r.delay(1, 5.0) == 5.0 and r.delay(1, 1e6) == 100.0  # honoured, up to the bound
    assert 1.0 <= r.delay(1, None) <= 1.25 and 8.0 <= r.delay(10, None) <= 10.0  # doubling, capped, jitter
    gate = HostGate(2)
    gate.pause("h", 0.3)  # one thread's 503: every thread of the host waits
    t0 = time.monotonic()
    gate.wait("h")
    gate.wait("other")
    assert 0.25 <= time.monotonic() - t0 < 1.0
