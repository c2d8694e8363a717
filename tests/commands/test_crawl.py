"""``mcecrawl crawl SPIDER ...``: ``scrapy crawl`` with the project's settings from any directory."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mcecrawl import cli
from mcecrawl.commands import crawl
from mcecrawl.demo.server import FixtureServer, site_dir

ROOT = Path(__file__).resolve().parents[2]


def test_registered_and_everything_after_the_spider_goes_to_scrapy():
    args = cli.parse_args(["crawl", "bbc_persian", "-a", "base_url=http://127.0.0.1:1", "-O", "out.jsonl",
                           "-s", "DOWNLOAD_DELAY=0", "--help"])
    assert crawl.scrapy_argv(args) == ["scrapy", "crawl", "bbc_persian", "-a", "base_url=http://127.0.0.1:1",
                                       "-O", "out.jsonl", "-s", "DOWNLOAD_DELAY=0", "--help"]


@pytest.mark.parametrize("preset", [None, "my.settings"])
def test_settings_module_and_exit_code(monkeypatch, preset):
    import scrapy.cmdline

    seen = {}

    def execute(argv):
        seen["argv"], seen["settings"] = argv, os.environ.get("SCRAPY_SETTINGS_MODULE")
        raise SystemExit(3)

    monkeypatch.setattr(scrapy.cmdline, "execute", execute)
    if preset is None:
        monkeypatch.delenv("SCRAPY_SETTINGS_MODULE", raising=False)
    else:
        monkeypatch.setenv("SCRAPY_SETTINGS_MODULE", preset)
    assert cli.main(["crawl", "hamshahri", "-a", "limit=1"]) == 3
    assert seen == {"argv": ["scrapy", "crawl", "hamshahri", "-a", "limit=1"],
                    "settings": preset or "mcecrawl.settings"}


def test_crawls_from_outside_the_checkout(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "SCRAPY_SETTINGS_MODULE"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))
    out = tmp_path / "out.jsonl"
    with FixtureServer(site_dir("bbc_persian")) as srv:
        proc = subprocess.run([sys.executable, "-m", "mcecrawl", "crawl", "bbc_persian", "-a", f"base_url={srv.url}",
                               "-O", str(out), "-s", "DOWNLOAD_DELAY=0", "-s", "AUTOTHROTTLE_ENABLED=0",
                               "-s", "TELNETCONSOLE_ENABLED=0"],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    statuses = [json.loads(line)["status"] for line in out.read_text(encoding="utf-8").splitlines()]
    assert statuses.count("ok") == 6 and set(statuses) == {"ok", "not_article"}
