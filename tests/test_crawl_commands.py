"""``mcecrawl demo`` and ``mcecrawl check-site`` run real crawls against the bundled fixtures."""
from __future__ import annotations

import argparse
import importlib
import json


def _run(command: str, argv: list[str]) -> int:
    module = importlib.import_module(f"mcecrawl.commands.{command.replace('-', '_')}")
    parser = argparse.ArgumentParser()
    module.add_arguments(parser)
    return module.run(parser.parse_args(argv))


def test_commands_are_registered():
    from mcecrawl.cli import COMMANDS

    assert "demo" in COMMANDS and "check-site" in COMMANDS


def test_demo_crawls_the_bundled_site_and_summarises(tmp_path, capsys):
    out = tmp_path / "demo.jsonl"
    assert _run("demo", ["-o", str(out)]) == 0
    printed = capsys.readouterr().out
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    ok = [r for r in records if r["status"] == "ok"]
    assert len(ok) == 6 and all(r["status"] in ("ok", "not_article") for r in records)
    assert f"Wrote {len(records)} items" in printed and "Statuses: not_article 3, ok 6" in printed
    assert any(r["title"] in printed for r in records)


def test_check_site_passes_on_the_fixture(capsys):
    assert _run("check-site", ["bbc_arabic", "--fixture", "--limit", "3"]) == 0
    printed = capsys.readouterr().out
    assert printed.count("PASS") == 3


def test_check_site_fails_plainly_on_the_wrong_site(capsys):
    from mcecrawl.demo.server import FixtureServer, site_dir

    with FixtureServer(site_dir("bbc_persian")) as srv:  # an Arabic profile against the Persian site
        assert _run("check-site", ["bbc_arabic", "--base-url", srv.url, "--limit", "2"]) == 1
    assert "FAIL  recognition" in capsys.readouterr().out


def test_check_site_refuses_the_live_host_without_permission(capsys):
    assert _run("check-site", ["bbc_pashto"]) == 3
    assert "MCE_PERMISSION_GRANTED" in capsys.readouterr().out


def test_unknown_spider_for_demo(capsys):
    assert _run("demo", ["--spider", "no_such_site"]) == 2
