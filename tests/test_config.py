"""One source for the MCE_* defaults: mcecrawl/settings.py, read through mcecrawl.config.Config."""
from __future__ import annotations

import re
from pathlib import Path

from scrapy.settings import Settings

from mcecrawl import settings as project_settings
from mcecrawl.config import Config, setting_names

PACKAGE = Path(__file__).resolve().parents[1] / "mcecrawl"


def test_every_project_setting_is_a_config_field():
    assert sorted(setting_names()) == sorted(n for n in dir(project_settings) if n.startswith("MCE_"))


def test_bare_settings_get_the_project_defaults():
    cfg = Config.from_settings(Settings())
    for name in setting_names():
        assert getattr(cfg, name[4:].lower()) == getattr(project_settings, name), name


def test_overrides_are_typed_like_the_defaults():
    cfg = Config.from_settings(Settings({"MCE_EXTRACTION_WORKERS": "3", "MCE_DEDUP_DROP": "1",
                                         "MCE_PERMISSION_GRANTED": "bbc.com,example.org",
                                         "MCE_RETRY_AFTER_MAX": "12.5"}))
    assert (cfg.extraction_workers, cfg.dedup_drop, cfg.permission_granted, cfg.retry_after_max) == (
        3, True, ["bbc.com", "example.org"], 12.5)


def test_no_default_is_written_twice_in_the_package():
    """No component reads an MCE_* setting with a default of its own (getbool("MCE_X", True) ...)."""
    pattern = re.compile(r"\.get(?:bool|int|float|list|dict)?\(\s*[\"']MCE_[A-Z_]+[\"']\s*,")
    found = [f"{p.relative_to(PACKAGE)}:{i}" for p in PACKAGE.rglob("*.py")
             for i, line in enumerate(p.read_text("utf-8").splitlines(), 1) if pattern.search(line)]
    assert not found
