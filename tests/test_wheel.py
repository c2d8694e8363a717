"""The package works installed from its wheel, outside the checkout.

Builds the wheel from a copy of the project's files (so the checkout gets no ``build/`` or ``*.egg-info``),
installs it into a fresh venv that sees the system site-packages for the dependencies (no network; the wheel is
installed with ``--no-deps`` and its copy of ``mcecrawl`` comes first on the venv's ``sys.path``, ahead of an
editable install of the checkout) and runs the installed commands from a directory outside the checkout, with no
``PYTHONPATH``: ``mcecrawl demo``, ``extract``, ``check-site``, ``evaluate --gate`` and a crawl, both as
``mcecrawl crawl`` and as ``SCRAPY_SETTINGS_MODULE=mcecrawl.settings python -m scrapy crawl``.
"""
from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from mcecrawl.demo.server import FixtureServer, site_dir

ROOT = Path(__file__).resolve().parent.parent

# Files of the checkout a wheel is built from (pyproject.toml: readme, dynamic dependencies, packages).
BUILD_INPUTS = ("pyproject.toml", "setup.py", "README.md", "requirements.txt", "mcecrawl")
# Package data the installed commands read: without any of these, a step below fails.
PACKAGE_DATA = ("mcecrawl/evaluation/baseline.json", "mcecrawl/profiles/bbc_persian.json",
                "mcecrawl/schema/item.schema.json", "mcecrawl/demo/sites/bbc_persian/robots.txt",
                "mcecrawl/demo/sites/bbc_arabic/robots.txt", "mcecrawl/algorithms/pagetype.json")
# A fixture server on 127.0.0.1 needs no politeness delay.
LOCAL = ("-s", "DOWNLOAD_DELAY=0", "-s", "AUTOTHROTTLE_ENABLED=0", "-s", "TELNETCONSOLE_ENABLED=0")
TIMEOUT = 300


class Installed:
    def __init__(self, venv: Path, wheel: Path, workdir: Path):
        self.venv, self.wheel, self.workdir = venv, wheel, workdir
        self.bin = venv / ("Scripts" if os.name == "nt" else "bin")
        self.python = self.bin / ("python.exe" if os.name == "nt" else "python")
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "PYTHONHOME", "SCRAPY_SETTINGS_MODULE", "SCRAPY_PROJECT", "VIRTUAL_ENV",
                            "MCE_DATA_ROOT")}
        env["PATH"] = os.pathsep.join([str(self.bin), env.get("PATH", "")])
        env["VIRTUAL_ENV"] = str(venv)
        env["PYTHONIOENCODING"] = "utf-8"
        env["PYTHONNOUSERSITE"] = "1"
        self.env = env

    def run(self, *argv: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        """Run ``argv`` (a venv executable's name first) in the work directory outside the checkout."""
        exe = argv[0] if Path(str(argv[0])).is_absolute() else self.bin / str(argv[0])
        return subprocess.run([str(exe), *map(str, argv[1:])], cwd=self.workdir, env={**self.env, **(env or {})},
                              capture_output=True, text=True, encoding="utf-8", errors="replace", timeout=TIMEOUT)

    def mcecrawl(self, *argv: str | Path) -> subprocess.CompletedProcess:
        return self.run("mcecrawl", *argv)


def _ok(proc: subprocess.CompletedProcess, code: int = 0) -> str:
    assert proc.returncode == code, f"exit {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


def _pip(*argv: str, python: str | Path = sys.executable) -> None:
    proc = subprocess.run([str(python), "-m", "pip", "--disable-pip-version-check", "--no-input", *argv],
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, f"pip {' '.join(argv)}: exit {proc.returncode}\n{proc.stdout[-2000:]}\n" \
                                 f"{proc.stderr[-2000:]}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    base = tmp_path_factory.mktemp("wheel")
    src, dist, venv, work = base / "src", base / "dist", base / "venv", base / "work"
    src.mkdir()
    work.mkdir()
    for name in BUILD_INPUTS:
        path = ROOT / name
        if path.is_dir():
            # generated C and built extensions stay behind: the wheel builds its own from the .pyx
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info",
                                                                            "*.c", "*.so", "*.pyd"))
        else:
            shutil.copy2(path, src / name)
    _pip("wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(dist), str(src))
    (wheel,) = dist.glob("mcecrawl-*.whl")
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)],
                   check=True, timeout=TIMEOUT)
    inst = Installed(venv, wheel, work)
    if sys.prefix != sys.base_prefix:
        # Tests running in a venv: --system-site-packages shows the base interpreter's packages, not this venv's
        # dependencies, so list this one's site-packages after the new venv's own (the wheel still comes first).
        purelib = subprocess.run([str(inst.python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                 capture_output=True, text=True, check=True, timeout=TIMEOUT).stdout.strip()
        (Path(purelib) / "_mce_test_parent_env.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    # The system's pip, run by the venv's interpreter, installs into the venv.
    _pip("install", "--no-deps", "--no-index", "--force-reinstall", str(wheel), python=inst.python)
    return inst


def test_wheel_holds_the_package_data_and_no_test_helpers(installed):
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    assert all(n.startswith(("mcecrawl/", "mcecrawl-")) for n in names), sorted(names)
    missing = [n for n in PACKAGE_DATA if n not in names]
    assert not missing, f"not in the wheel: {missing}"
    assert not [n for n in names if n.startswith(("tests/", "benchmarks/"))]
    assert not [n for n in names if Path(n).stem in ("synthetic_site", "synthetic", "evalsets", "redis_server")]
    assert any(n.endswith("entry_points.txt") for n in names)


def test_the_venv_imports_the_installed_wheel(installed):
    out = _ok(installed.run("python", "-c", "import mcecrawl, mcecrawl.settings; print(mcecrawl.__file__)"))
    path = Path(out.strip()).resolve()
    assert installed.venv.resolve() in path.parents, f"imported {path}, not the venv's copy"
    assert ROOT.resolve() not in path.parents


def test_version_says_which_extraction_core_runs(installed):
    """The wheel built the compiled core from its .pyx (where a compiler is there; required in CI)."""
    out = _ok(installed.mcecrawl("--version"))
    assert out.startswith("mcecrawl 0.") and "extraction core:" in out
    names = zipfile.ZipFile(installed.wheel).namelist()
    if os.environ.get("MCE_REQUIRE_COMPILED", "") not in ("", "0"):
        assert "extraction core: compiled" in out and "language ID walk: compiled" in out, out
        for module in ("_lineprofile", "_langid"):
            assert any(module in n and n.endswith((".so", ".pyd")) for n in names), names
    assert not [n for n in names if n.endswith(".c")]
    forced = _ok(installed.run("mcecrawl", "--version", env={"MCE_PURE_PYTHON": "1"}))
    assert "extraction core: reference" in forced and "language ID walk: reference" in forced


def test_demo(installed):
    out = _ok(installed.mcecrawl("demo", "-o", "demo.jsonl"))
    assert "Statuses: not_article 3, ok 6" in out
    records = [json.loads(line) for line in (installed.workdir / "demo.jsonl").read_text("utf-8").splitlines()]
    assert sum(r["status"] == "ok" for r in records) == 6


def test_extract(installed):
    page = ROOT / "tests" / "algorithms" / "data" / "fa_article.html"
    out = _ok(installed.mcecrawl("extract", "-f", "jsonl", page))
    record = json.loads(out.splitlines()[0])
    assert record["status"] == "ok" and record["title"] == "بارش برف سنگین در تهران و تعطیلی مدارس"
    assert "سازمان هواشناسی" in record["text"]


def test_check_site(installed):
    out = _ok(installed.mcecrawl("check-site", "bbc_arabic", "--fixture", "--limit", "3"))
    assert out.count("PASS") == 3 and "FAIL" not in out


def test_gate_reads_the_packaged_baseline(installed):
    """Offline: with an empty data folder every pinned dataset is reported missing (exit 1, not 2 = no baseline)."""
    empty = installed.workdir / "no-data"
    empty.mkdir(exist_ok=True)
    out = _ok(installed.mcecrawl("evaluate", "--gate", "--data-root", empty), code=1)
    assert "quality gate: FAILED" in out and f"missing: {empty / 'r2l'}" in out
    # the installed package's copy is never rewritten: --update-baseline wants an explicit --baseline
    proc = installed.mcecrawl("evaluate", "r2l", "--update-baseline", "-a", "scored_regions", "--data-root", empty)
    assert proc.returncode == 2 and "--baseline PATH" in proc.stderr


def test_gate_on_the_shared_data(installed, shared_data):
    """``--data-root ../shared/data`` (skipped, as every test reading it, when it is absent)."""
    out = _ok(installed.mcecrawl("evaluate", "r2l", "--gate", "-a", "scored_regions", "--data-root", shared_data))
    assert "quality gate: passed" in out and "r2l" in out


@pytest.fixture(scope="module")
def fixture_site():
    with FixtureServer(site_dir("bbc_persian")) as srv:
        yield srv.url


@pytest.mark.parametrize("form", ["mcecrawl crawl", "scrapy crawl"])
def test_crawl(installed, fixture_site, form):
    out = installed.workdir / f"crawl-{form.split()[0]}.jsonl"
    args = ("crawl", "bbc_persian", "-a", f"base_url={fixture_site}", "-O", out, *LOCAL)
    if form == "mcecrawl crawl":
        proc = installed.mcecrawl(*args)
    else:
        proc = installed.run("python", "-m", "scrapy", *args, env={"SCRAPY_SETTINGS_MODULE": "mcecrawl.settings"})
    _ok(proc)
    records = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    ok = [r for r in records if r["status"] == "ok"]
    assert len(ok) == 6 and all(r["text"] and r["site"] == "bbc_persian" for r in ok)
