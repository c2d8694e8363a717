"""The documentation stays true to the code: docs/architecture.md names only modules, classes, functions and
files that exist; every setting and item field the pages name exists; the site builds with warnings as
errors; the README's test command is the one CI runs; no tracker number stands in for a decision."""
from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "mcecrawl"
DOCS = ROOT / "docs"

# Dotted names in the architecture page that are not the package's: objects a reader meets in Scrapy.
OUTSIDE_NAMES = {"response", "spider"}
# Capitalised names that are not the package's classes: Scrapy's exceptions, named to say they stay Scrapy's,
# and HTTP headers.
OUTSIDE_CLASSES = {"DropItem", "IgnoreRequest", "NotConfigured", "Range"}
PATH_SUFFIXES = (".py", ".pyx", ".json", ".toml", ".cfg", ".md")


def _module_files() -> dict[str, Path]:
    """Dotted module name -> file, for every module and package of mcecrawl (compiled ones by their .pyx)."""
    out = {}
    for path in PACKAGE.rglob("*"):
        if path.suffix not in (".py", ".pyx") or "__pycache__" in path.parts:
            continue
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _body_names(body: list[ast.stmt]) -> set[str]:
    names: set[str] = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.ImportFrom, ast.Import)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.If, ast.Try)):
            names |= _body_names(node.body) | _body_names(getattr(node, "orelse", []))
            for handler in getattr(node, "handlers", []):
                names |= _body_names(handler.body)
    return names


def _class_members(cls: ast.ClassDef) -> set[str]:
    names = _body_names(cls.body)
    for node in ast.walk(cls):  # attributes set on self in methods
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
    return names


@cache
def _tree(path: Path) -> ast.Module | None:
    return ast.parse(path.read_text(encoding="utf-8")) if path.suffix == ".py" else None


def _pyx_names(path: Path) -> set[str]:
    return set(re.findall(r"^(?:c?p?def|class|cdef class)\s+(?:[\w*]+\s+)*?(\w+)\s*[(:]", path.read_text(), re.M))


def _has(path: Path, attrs: list[str]) -> bool:
    tree = _tree(path)
    if tree is None:
        return len(attrs) == 1 and attrs[0] in _pyx_names(path)
    body: list[ast.stmt] = tree.body
    for i, attr in enumerate(attrs):
        if i == 0:
            if attr not in _body_names(body):
                return False
        else:
            cls = next((n for n in body if isinstance(n, ast.ClassDef) and n.name == attrs[i - 1]), None)
            if cls is None or attr not in _class_members(cls):
                return False
            body = cls.body
    return True


@cache
def _all_definitions() -> dict[str, list[ast.ClassDef | None]]:
    """Every name defined anywhere in the package (functions, classes, assignments, class members)."""
    defs: dict[str, list[ast.ClassDef | None]] = {}
    for path in _module_files().values():
        tree = _tree(path)
        if tree is None:
            for name in _pyx_names(path):
                defs.setdefault(name, []).append(None)
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                defs.setdefault(node.name, []).append(node)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defs.setdefault(node.name, []).append(None)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                defs.setdefault(node.id, []).append(None)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                defs.setdefault(node.attr, []).append(None)
    return defs


def dotted_name_exists(name: str) -> bool | None:
    """True/False for a dotted name of the package (``parse.tree_paragraphs``, ``corpus.dedup.DedupSequence``,
    ``Extraction.region``); None when its first part is nothing of the package's."""
    parts = name.split(".")
    modules = _module_files()
    for cut in range(len(parts), 0, -1):
        prefix = ".".join(parts[:cut])
        found = [path for mod, path in modules.items() if mod == prefix or mod.endswith("." + prefix)]
        if found:
            return cut == len(parts) or any(_has(path, parts[cut:]) for path in found)
    classes = [c for c in _all_definitions().get(parts[0], []) if isinstance(c, ast.ClassDef)]
    if classes:
        return len(parts) == 2 and any(parts[1] in _class_members(c) for c in classes)
    return None


def path_exists(span: str) -> bool:
    if "<" in span:  # a pattern such as mcecrawl/profiles/<name>.json: its folder
        return path_exists(span[: span.index("<")])
    rel = span.rstrip("/")
    if (ROOT / rel).exists() or (PACKAGE / rel).exists():
        return True
    return "/" not in rel and any(p for p in ROOT.rglob(rel) if ".git" not in p.parts)


def architecture_problems(text: str) -> list[str]:
    from scrapy.settings import default_settings

    problems = []
    for span in sorted(set(re.findall(r"`([^`\n]+)`", text))):
        span = re.sub(r"\(.*\)$", "", span)
        if " " in span or not span:
            continue
        if re.fullmatch(r"[\w./<>-]+", span) and (span.endswith("/") or span.endswith(PATH_SUFFIXES)):
            if not path_exists(span):
                problems.append(f"file {span!r} does not exist")
        elif re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+", span):
            found = dotted_name_exists(span)
            if found is False or (found is None and span.split(".")[0] not in OUTSIDE_NAMES):
                problems.append(f"{span!r} names nothing in mcecrawl")
        elif re.fullmatch(r"[A-Z][a-z]\w*", span):
            if span not in _all_definitions() and span not in OUTSIDE_CLASSES:
                problems.append(f"class {span!r} is not defined in mcecrawl")
        elif re.fullmatch(r"[A-Za-z]\w*_\w*", span):
            if span not in _all_definitions() and not hasattr(default_settings, span):
                problems.append(f"{span!r} is defined nowhere in mcecrawl (nor a Scrapy setting)")
    return problems


def test_architecture_names_only_what_exists():
    assert architecture_problems((DOCS / "architecture.md").read_text(encoding="utf-8")) == []


def test_the_architecture_check_catches_removed_names():
    text = ("`parse._paragraphs` and `scored_regions._blocks`, `corpus.dedup.NoSuchStore`, `Extraction.nothing`, "
            "`mcecrawl/algorithms/gone.py`, `NoSuchPipeline`, `no_such_function`, `response.text`, `spider.state`, "
            "`parse.tree_paragraphs`, `Config.from_settings(crawler.settings)`, `_cleaning.pyx`, `JOBDIR_X`")
    assert architecture_problems(text) == [
        "'Extraction.nothing' names nothing in mcecrawl",
        "'JOBDIR_X' is defined nowhere in mcecrawl (nor a Scrapy setting)",
        "class 'NoSuchPipeline' is not defined in mcecrawl",
        "'corpus.dedup.NoSuchStore' names nothing in mcecrawl",
        "file 'mcecrawl/algorithms/gone.py' does not exist",
        "'no_such_function' is defined nowhere in mcecrawl (nor a Scrapy setting)",
        "'parse._paragraphs' names nothing in mcecrawl",
        "'scored_regions._blocks' names nothing in mcecrawl",  # the cleaning walk moved to cleaning.blocks
    ]


def _doc_texts() -> dict[str, str]:
    pages = {p.name: p.read_text(encoding="utf-8") for p in DOCS.glob("*.md")}
    pages["README.md"] = (ROOT / "README.md").read_text(encoding="utf-8")
    return pages


def test_every_setting_the_docs_name_exists():
    import mcecrawl.settings as settings

    named = {(page, m) for page, text in _doc_texts().items() for m in re.findall(r"\bMCE_[A-Z0-9_]*[A-Z0-9]\b", text)}
    # MCE_ENCODING_ENABLED/_FORCE: the suffixes written after a slash belong to the first name's prefix.
    for page, text in _doc_texts().items():
        for first, rest in re.findall(r"\b(MCE_[A-Z0-9_]+?)_[A-Z0-9]+((?:/_[A-Z0-9_]+)+)", text):
            named |= {(page, first + suffix) for suffix in rest.split("/") if suffix}
    # Environment variables (MCE_PURE_PYTHON, MCE_DATA_ROOT, MCE_REQUIRE_COMPILED) are quoted where they are read.
    sources = [*PACKAGE.rglob("*.py"), *(ROOT / "tests").rglob("*.py")]
    environment = {m for p in sources if p.name != "test_docs.py"
                   for m in re.findall(r"[\"'](MCE_\w+)[\"']", p.read_text(encoding="utf-8"))}
    missing = sorted((page, m) for page, m in named if not hasattr(settings, m) and m not in environment)
    assert missing == []


def test_every_item_field_is_documented():
    import json

    schema = json.loads((PACKAGE / "schema" / "item.schema.json").read_text(encoding="utf-8"))
    corpus = (DOCS / "corpus.md").read_text(encoding="utf-8")
    assert sorted(f for f in schema["properties"] if f"`{f}`" not in corpus) == []


def test_the_readme_test_command_is_the_one_ci_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = readme.split("\nTest:\n", 1)[1].strip().splitlines()[0].strip()
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert command == "python -m pytest -q" and command in ci


def test_the_docs_build_with_warnings_as_errors(tmp_path):
    for module in ("sphinx", "myst_parser"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (requirements-dev.txt installs it; .ci/run builds the docs)")
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                             str(DOCS), str(tmp_path / "html")], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-4000:]


# A tracker number (the word "issue" and a number) means nothing outside this repository: say the decision
# or the measurement.
TRACKER_NUMBER = re.compile("issue" + r" ?#?[0-9]+", re.I)
TEXT_SUFFIXES = {".py", ".pyx", ".pxd", ".md", ".json", ".txt", ".toml", ".cfg"}


def test_no_tracker_numbers_in_the_package_docs_or_test_names():
    files = [p for p in [*PACKAGE.rglob("*"), *DOCS.rglob("*"), ROOT / "README.md", ROOT / "BENCHMARKS.md"]
             if p.suffix in TEXT_SUFFIXES and p.is_file() and "_build" not in p.parts]
    found = [f"{p.relative_to(ROOT)}:{n}" for p in files
             for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
             if TRACKER_NUMBER.search(line)]
    tests = ROOT / "tests"
    names = [str(p.relative_to(ROOT)) for p in tests.rglob("*.py") if TRACKER_NUMBER.search(p.stem.replace("_", " "))]
    for path in tests.rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and \
                    TRACKER_NUMBER.search(node.name.replace("_", " ")):
                names.append(f"{path.relative_to(ROOT)}::{node.name}")
    assert found == [] and names == []
