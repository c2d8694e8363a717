"""Feed configuration (-O replaces the default per-run feed) and the JSON-lines fast path."""
from __future__ import annotations

import json

import pytest
from scrapy.settings import Settings
from scrapy.utils.conf import feed_process_params_from_cli

from mcecrawl import settings as project
from mcecrawl.exporters import DEFAULT_FEED, RejectedItems, configure_feeds, dumps_line, sanitize


def _settings(output: list[str] | None = None, **extra) -> Settings:
    s = Settings()
    s.setmodule(project, priority="project")
    for k, v in extra.items():
        s.set(k, v, priority="cmdline")
    if output:  # what `scrapy crawl -O FILE` does
        s.set("FEEDS", feed_process_params_from_cli(s, [], overwrite_output=output), priority="cmdline")
    return s


def test_default_feed_without_output():
    s = _settings()
    configure_feeds(s)
    assert list(s.getdict("FEEDS")) == [DEFAULT_FEED]


def test_dash_O_replaces_the_default_feed():
    s = _settings(["out.jsonl"])
    assert DEFAULT_FEED in s.getdict("FEEDS")  # Scrapy adds -O to the project's FEEDS ...
    configure_feeds(s)
    assert list(s.getdict("FEEDS")) == ["out.jsonl"]  # ... each item would be written twice


def test_dash_O_with_rejects_feed():
    s = _settings(["out.jsonl"], MCE_REJECTS_FEED="rejects.jsonl")
    configure_feeds(s)
    feeds = s.getdict("FEEDS")
    assert sorted(feeds) == ["out.jsonl", "rejects.jsonl"]
    assert feeds["rejects.jsonl"]["item_filter"] is RejectedItems


@pytest.mark.parametrize("value", [
    "x\ud800y", "a\x01b\x0bc\x1fd", "tab\tnl\ncr\r", "bs\x08ff\x0c", "literal \\u0001 and \\b",
    ["p\u2028q", {"k\x02": "v\x00"}], "فارسی\u200cمتن", 3, None])
def test_dumps_line_equals_sanitised_serialisation(value):
    line = dumps_line({"v": value})
    assert line.endswith("\n") and line.count("\n") == 1
    slow = json.dumps(sanitize({"v": value}), ensure_ascii=False)
    assert json.loads(line) == json.loads(slow)
    line.encode("utf-8")  # no lone surrogate left
