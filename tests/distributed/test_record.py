"""The record of written articles (claim before the feed line, record after) on a real Redis."""
from __future__ import annotations

import json

import redis

from mcecrawl.distributed import Keys
from mcecrawl.distributed.record import CLAIM, RECORD, claims_in_feeds


def test_claim_then_record_lets_one_worker_write_an_article(redis_url):
    client = redis.Redis.from_url(redis_url)
    k = Keys("t")
    claim, record = client.register_script(CLAIM), client.register_script(RECORD)

    def keys(w):
        return [k.written, k.pending, k.pending_of(w)]

    assert claim(keys=keys("w1"), args=["u", "w1"]) == b"ok"
    assert claim(keys=keys("w2"), args=["u", "w2"]) == b"w1"  # being written by w1
    assert claim(keys=keys("w1"), args=["u", "w1"]) == b"w1"  # a second copy in flight in w1
    assert record(keys=keys("w1"), args=["u", "w1", "w1"]) == 1
    assert claim(keys=keys("w2"), args=["u", "w2"]) == b"written"
    assert client.hgetall(k.pending) == {} and not client.exists(k.pending_of("w1"))
    # a record whose claim was settled meanwhile (its worker was presumed dead) is reported
    assert claim(keys=keys("w3"), args=["v", "w3"]) == b"ok"
    client.hdel(k.pending, "v")
    assert record(keys=keys("w3"), args=["v", "w3", "w3"]) == 0


def test_claims_in_feeds_reads_finished_lines_and_cuts_a_half_written_one(tmp_path):
    feed = tmp_path / "f.jsonl"
    lines = [json.dumps({"canonical_url": u}) for u in ("a", "b", "c")]
    feed.write_bytes(("\n".join(lines[:2]) + "\n" + lines[2][:7]).encode())
    assert claims_in_feeds([str(feed), str(tmp_path / "absent.jsonl")], {"b", "c", "z"}) == {"b"}
    assert feed.read_text().endswith(lines[1] + "\n")  # the cut line is gone: every line is JSON
