"""Regenerate the fixture sites of the six non-BBC spiders (``mcecrawl/demo/sites/<spider>/``).

Run ``python tests/spiders/build_news_sites.py [site ...]`` after changing a page in ``site_<name>.py``;
``test_fixture_sites.py`` fails when the files on disk and the generators disagree.
"""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[2]))

from sitegen_common import write_site  # noqa: E402

SITES = ("hamshahri", "jamejam", "ahram", "reuters_arabic", "fawiki", "diplo_tehran")


def generate(name: str):
    """(pages, expected) of one fixture site."""
    return importlib.import_module(f"site_{name}").build()


def main(argv: list[str]) -> int:
    for name in argv or SITES:
        pages, expected = generate(name)
        path = write_site(name, pages, expected)
        print(f"{name}: {len(pages)} responses -> {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
