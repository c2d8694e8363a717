"""Sphinx configuration: the Markdown pages of docs/ through MyST, the API page through autodoc.

Built in CI with warnings as errors (``.ci/run``): a broken link between pages, a heading anchor that
does not exist or a docstring that names a removed function fails the build.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

project = "mcecrawl"
author = "the mcecrawl developers"
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
# Links to "#a-heading" inside and across pages resolve to headings down to this level.
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
# The optional extras (datatrove, matplotlib) need not be installed to document the package.
autodoc_mock_imports = ["datatrove", "matplotlib"]
html_theme = "alabaster"
html_title = "mcecrawl"


def _rewrite_root_links(app, relative_path, parent_docname, content) -> None:
    """README.md and BENCHMARKS.md live at the repository root and link each other by file name; in
    the site they are the pages ``readme`` and ``benchmarks`` (their ``docs/`` links are made relative
    by the include's ``relative-docs``)."""
    for name in ("README", "BENCHMARKS"):
        content[0] = content[0].replace(f"]({name}.md", f"]({name.lower()}.md")


def setup(app):
    app.connect("include-read", _rewrite_root_links)
