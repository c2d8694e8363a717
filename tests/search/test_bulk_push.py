"""The push path against a local ``_bulk`` endpoint: batching, partial failures, 429 back-off."""
from __future__ import annotations

import pytest
from bulk_endpoint import BulkEndpoint

from mcecrawl.search.documents import doc_id
from mcecrawl.search.push import BulkPusher, PushError


def items(n: int) -> list[dict]:
    return [{"url": f"https://news.example/fa/{i}", "site": "example", "lang": "fa",
             "title": f"خبر {i}", "text": f"متن خبر شماره {i} می‌خواهم", "status": "ok"} for i in range(n)]


def pusher(endpoint, sleeps, **kw) -> BulkPusher:
    kw.setdefault("batch_docs", 10)
    return BulkPusher(endpoint.url, "news", sleep=sleeps.append, initial_backoff=0.5, **kw)


def test_batches_by_document_count_and_bytes():
    sleeps = []
    with BulkEndpoint() as es:
        report = pusher(es, sleeps).push(items(25))
        assert (report.batches, report.indexed, report.failed, report.retries) == (3, 25, 0, 0)
        assert [len(r["ids"]) for r in es.requests] == [10, 10, 5]
        assert all(r["path"] == "/news/_bulk" and r["content_type"] == "application/x-ndjson" for r in es.requests)
        assert len(es.documents) == 25 and sleeps == []
    with BulkEndpoint() as es:
        report = pusher(es, sleeps, batch_docs=1000, batch_bytes=600).push(items(12))
        assert report.indexed == 12 and all(1 <= len(r["ids"]) <= 3 for r in es.requests)


def test_re_pushing_updates_instead_of_duplicating():
    with BulkEndpoint() as es:
        pusher(es, []).push(items(5))
        pusher(es, []).push(items(5))
        assert len(es.documents) == 5 and set(es.documents) == {doc_id(i) for i in items(5)}


def test_per_item_errors_are_reported_not_retried():
    bad = doc_id(items(7)[3])
    sleeps = []
    with BulkEndpoint(reject={bad: "mapper_parsing_exception"}) as es:
        report = pusher(es, sleeps).push(items(7))
        assert (report.indexed, report.failed, report.retries) == (6, 1, 0)
        assert report.errors == [{"_id": bad, "status": 400, "reason": "mapper_parsing_exception: failed to parse"}]
        assert len(es.requests) == 1 and sleeps == []


def test_item_429s_are_retried_alone_after_a_back_off():
    throttled = {doc_id(i) for i in items(10)[2:4]}
    sleeps = []
    with BulkEndpoint(item_429_once=throttled) as es:
        report = pusher(es, sleeps).push(items(10))
        assert (report.indexed, report.failed, report.retries) == (10, 0, 1)
        assert set(es.requests[1]["ids"]) == throttled  # only the rejected items re-sent
        assert len(sleeps) == 1 and 0.25 <= sleeps[0] <= 0.5  # equal jitter of initial_backoff


def test_request_429_honours_retry_after_then_backs_off_exponentially():
    sleeps = []
    with BulkEndpoint(throttle_requests=2, retry_after="3") as es:
        report = pusher(es, sleeps).push(items(4))
        assert report.indexed == 4 and report.retries == 2 and sleeps == [3.0, 3.0]
    sleeps = []
    with BulkEndpoint(throttle_requests=3, retry_after=None) as es:
        report = pusher(es, sleeps).push(items(4))
        assert report.indexed == 4 and len(sleeps) == 3
        for attempt, delay in enumerate(sleeps):  # 0.5, 1, 2 with jitter in [d/2, d]
            assert 0.5 * 2 ** attempt / 2 <= delay <= 0.5 * 2 ** attempt


def test_gives_up_after_max_retries_and_reports_every_item():
    with BulkEndpoint(throttle_requests=100) as es:
        report = pusher(es, [], max_retries=2).push(items(3))
        assert (report.indexed, report.failed) == (0, 3) and len(es.requests) == 3
        assert all(e["status"] == 429 for e in report.errors)


def test_configuration_errors_stop_the_push():
    with BulkEndpoint(status=401) as es:
        with pytest.raises(PushError, match="HTTP 401: security_exception"):
            pusher(es, []).push(items(3))
        assert len(es.requests) == 1


def test_basic_auth_from_the_url_and_unreachable_cluster():
    with BulkEndpoint() as es:
        url = es.url.replace("http://", "http://elastic:s%40cret@")
        BulkPusher(url, "news", sleep=lambda s: None).push(items(1))
        assert es.requests[0]["auth"] == "Basic ZWxhc3RpYzpzQGNyZXQ="  # elastic:s@cret
        dead = es.url
    with pytest.raises(PushError, match="unreachable"):
        BulkPusher(dead, "news", max_retries=1, sleep=lambda s: None, timeout=2).push(items(1))
    with pytest.raises(PushError, match="http"):
        BulkPusher("localhost:9200", "news")
