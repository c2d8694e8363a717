"""One exception hierarchy: every exception class mcecrawl defines derives from MceError, and keeps
the builtin base its callers catch."""
from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

import mcecrawl
from mcecrawl.exceptions import MceError


def defined_exceptions() -> dict[str, type[BaseException]]:
    found = {}
    for info in pkgutil.walk_packages(mcecrawl.__path__, "mcecrawl."):
        if info.name.endswith("__main__"):  # runs the CLI on import
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if inspect.isclass(obj) and issubclass(obj, BaseException) and obj.__module__ == module.__name__:
                found[f"{module.__name__}.{name}"] = obj
    return found


EXCEPTIONS = defined_exceptions()


def test_the_walk_finds_the_package_exceptions():
    assert {"mcecrawl.algorithms.common.ParamError", "mcecrawl.search.push.PushError",
            "mcecrawl.extraction.pool.WorkerDied"} <= set(EXCEPTIONS)


@pytest.mark.parametrize("name", sorted(EXCEPTIONS))
def test_every_exception_derives_from_mce_error(name):
    assert issubclass(EXCEPTIONS[name], MceError)


@pytest.mark.parametrize("name, builtin", [
    ("mcecrawl.algorithms.common.ParamError", ValueError),
    ("mcecrawl.evaluation.plot.NoLineProfile", ValueError),
    ("mcecrawl.evaluation.runner.UnknownAlgorithm", LookupError),
    ("mcecrawl.extraction.pool.WorkerDied", RuntimeError),
])
def test_builtin_bases_kept_for_existing_except_clauses(name, builtin):
    assert issubclass(EXCEPTIONS[name], builtin)


@pytest.mark.parametrize("name", sorted(EXCEPTIONS))
def test_every_exception_is_raised_somewhere(name):
    """No dead exception classes: each one is raised by the package's own code."""
    cls = name.rsplit(".", 1)[1]
    if cls == "MceError":
        return  # the base is caught, not raised
    source = "\n".join(p.read_text("utf-8") for p in Path(mcecrawl.__file__).parent.rglob("*.py"))
    assert re.search(rf"\b(raise|set_exception\()\s*{cls}\(", source), f"{name} is never raised"
