"""Leases, heartbeats and reaping: the Lua scripts of mcecrawl.distributed.scheduler on a real Redis."""
from __future__ import annotations

import time

import redis

from mcecrawl.distributed import Keys
from mcecrawl.distributed.scheduler import BUSY, DEAD, HEARTBEAT, POP, REAP


def scripts(client):
    return {name: client.register_script(src) for name, src in
            (("pop", POP), ("beat", HEARTBEAT), ("dead", DEAD), ("reap", REAP), ("busy", BUSY))}


def reap(s, k, wid, found=(), force=False):
    return s["reap"](keys=[k.workers, k.queue, k.leases(wid), k.pending, k.pending_of(wid), k.written],
                     args=[wid, "1" if force else "0", *found])


def test_a_dead_workers_leases_go_back_with_their_priority(redis_url):
    client = redis.Redis.from_url(redis_url)
    s, k = scripts(client), Keys("t")
    client.zadd(k.queue, {b"req-a": -30, b"req-b": -20, b"req-c": 0})
    s["beat"](keys=[k.workers], args=["w1", 200, "1"])  # a 0.2 s lease
    s["beat"](keys=[k.workers], args=["w2", 60_000, "1"])
    assert s["pop"](keys=[k.queue, k.leases("w1")]) == b"req-a"  # lowest score = highest priority
    assert s["pop"](keys=[k.queue, k.leases("w1")]) == b"req-b"
    assert client.zrange(k.queue, 0, -1) == [b"req-c"]
    assert client.hgetall(k.leases("w1")) == {b"req-a": b"-30", b"req-b": b"-20"}
    assert s["busy"](keys=[k.workers, k.queue], args=[k.prefix]) == 3  # queued + leased
    assert reap(s, k, "w1") == -1  # still alive: not reaped
    # w1 claimed two articles; its feed holds the line of one of them
    client.hset(k.pending, mapping={"u1": "w1", "u2": "w1"})
    client.sadd(k.pending_of("w1"), "u1", "u2")
    time.sleep(0.3)
    now, dead = s["dead"](keys=[k.workers])
    assert dead[0::2] == [b"w1"]
    assert reap(s, k, "w1", found=["u1"]) == 2
    assert client.zrange(k.queue, 0, -1, withscores=True) == [(b"req-a", -30.0), (b"req-b", -20.0), (b"req-c", 0.0)]
    assert not client.exists(k.leases("w1"), k.pending_of("w1"))
    assert client.hgetall(k.written) == {b"u1": b"w1"}  # its line is there: written
    assert client.hgetall(k.pending) == {}  # u2 is free to be written again
    assert reap(s, k, "w1") == -1  # reaped once only
    # a reaped worker's next heartbeat tells it so
    assert s["beat"](keys=[k.workers], args=["w1", 200, "0"]) == -1
    assert s["beat"](keys=[k.workers], args=["w2", 60_000, "0"]) > 0


def test_a_closing_worker_returns_its_leases(redis_url):
    client = redis.Redis.from_url(redis_url)
    s, k = scripts(client), Keys("t")
    client.zadd(k.queue, {b"req-a": 0})
    s["beat"](keys=[k.workers], args=["w1", 60_000, "1"])
    s["pop"](keys=[k.queue, k.leases("w1")])
    assert reap(s, k, "w1", force=True) == 1
    assert client.zrange(k.queue, 0, -1) == [b"req-a"]
    assert client.zcard(k.workers) == 0
