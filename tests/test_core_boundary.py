"""The compiled core at its boundary (the line profile; the page-type scan read up to a guard page):
offsets checked (ValueError, never a read or write
past a buffer), buffers freed on MemoryError, ``count_r2l`` on a cut UTF-8 sequence the same in both
cores whatever the chunking, and bounded runs of benchmarks/fuzz_hardened.py (guard pages, inputs
over 1 MiB, the compiled cleaning walk against the reference on odd trees; AddressSanitizer).
Calls that crashed the process before run in a subprocess."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mcecrawl.algorithms import lines, profile_impl

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"
both_cores = pytest.mark.skipif(profile_impl.COMPILED not in profile_impl.available(),
                                reason="the compiled extraction core is not built here")


def _python(code: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={**__import__("os").environ, "PYTHONPATH": f"{ROOT}:{BENCH}:{ROOT / 'tests'}"},
                          timeout=kwargs.pop("timeout", 600), **kwargs)


@both_cores
def test_bad_offsets_raise_value_error_instead_of_crashing():
    """segment() with spans past the page, count_lines()/count_r2l() with a start outside it,
    tag_keys(b"", [5]), short arrays: ValueError each, on guarded buffers (a read past them is SIGSEGV)."""
    proc = _python("import numpy as np\n"
                   "from fuzz_hardened import Guarded, bad_offsets\n"
                   "from mcecrawl.algorithms import _lineprofile as c\n"
                   "keep = []\n"
                   "def arr(a):\n"
                   "    keep.append(Guarded(a)); return keep[-1].view\n"
                   "for data in (b'', b'<p>x', b'<p>' * 5000):\n"
                   "    print(bad_offsets(c, Guarded(data).view, arr))\n"
                   "for call in (lambda: c.tag_keys(b'', np.array([5], dtype=np.int64)),\n"
                   "             lambda: c.count_lines(b'<p>', np.array([0, 9], dtype=np.int64),\n"
                   "                                   np.zeros(0, np.int64), np.zeros(0, np.int64), 0xC0)):\n"
                   "    try:\n"
                   "        call(); print('accepted')\n"
                   "    except ValueError as e:\n"
                   "        print('ValueError:', e)\n")
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout.splitlines()
    assert out[:3] == ["[]"] * 3, out
    assert out[3] == "ValueError: tag_starts[0] = 5 is outside [0, -1]"
    assert out[4] == "ValueError: starts[1] = 9 is outside [0, 3]"


PAGE_SCAN_CUTS = r"""
from fuzz_hardened import Guarded
from mcecrawl.algorithms import _pagescan as c, pagescan
page = (b'<html><body><h2><a href=/x class="card item">A headline of the river</a></h2>'
        b"<p class='post'>Now $ 19 or 25kr, 10 USD and \xe2\x82\xac5 " + b"x" * 90 + b"</p>"
        b'datePublished author <time>{"@type": "Product"}</time>og:type itemtype=')
bad = 0
for cut in range(len(page) + 1):
    data = page[:cut]
    g = Guarded(data)
    bad += tuple(c.scan(g.view)) != tuple(pagescan.scan(data))
    g.close()
print(len(page) + 1, bad)
"""


@both_cores
def test_page_scan_of_a_page_cut_anywhere_reads_no_byte_past_it():
    """The page-type scan on a page ending right before a guard page, cut inside every construct it
    reads (a tag name, attributes, a class value, a price, a mark, a run): the reference's counts, no
    crash (a read past the page is SIGSEGV here)."""
    proc = _python(PAGE_SCAN_CUTS)
    assert proc.returncode == 0, proc.stderr[-2000:]
    count, bad = map(int, proc.stdout.split())
    assert count > 250 and bad == 0


@both_cores
@pytest.mark.parametrize("chunk", [64, 4096, 1 << 20, 1 << 22])
def test_count_r2l_of_a_cut_sequence_agrees_whatever_the_chunk(monkeypatch, chunk):
    """A lead byte cut at a line's end counts alone; the next line's "<" is no continuation byte of it,
    in both cores and with any working chunk of the reference (the cut at the 1 MiB chunk boundary)."""
    page = b"<p>" + b"a" * (2**20 - 4) + b"\xd8" + b"<p>tail" + b"<p>\xd8\xa7\xd8<p>\xe2\x80<p>x"
    monkeypatch.setattr(lines, "CHUNK_BYTES", chunk)
    got = {}
    for impl in profile_impl.IMPLEMENTATIONS:
        profile_impl.use(impl)
        try:
            segmented = profile_impl.segment_lines(page)
            got[impl] = [profile_impl.count_r2l(segmented, weight=w).tolist() for w in ("bytes", "chars")]
        finally:
            profile_impl.use(profile_impl.COMPILED)
    assert got[profile_impl.COMPILED] == got[profile_impl.REFERENCE] == [[1, 0, 3, 0, 0], [1, 0, 2, 0, 0]]


@both_cores
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallinfo2 and /proc")
def test_buffers_are_freed_when_an_allocation_fails():
    """Under an address-space limit the growing offset buffers cannot grow: MemoryError, and the
    buffers grown so far are freed (glibc's bytes in use, mallinfo2, back where they were), in each
    function that grows them."""
    proc = _python(
        "import ctypes, resource\n"
        "from mcecrawl.algorithms import _lineprofile as c\n"
        "import numpy as np\n"
        "class Info(ctypes.Structure):\n"
        "    _fields_ = [(n, ctypes.c_size_t) for n in ('arena', 'ordblks', 'smblks', 'hblks', 'hblkhd', 'usmblks',\n"
        "                                                 'fsmblks', 'uordblks', 'fordblks', 'keepcost')]\n"
        "libc = ctypes.CDLL(None)\n"
        "libc.mallinfo2.restype = Info\n"
        "def in_use():\n"
        "    i = libc.mallinfo2()\n"
        "    return i.uordblks + i.hblkhd\n"
        "def status(field):\n"
        "    return next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith(field + ':'))\n"
        "spans_page = b'<!---->' * (12 * 2**20 // 7)\n"
        "tags_page = b'<a>' * (12 * 2**20 // 3)\n"
        "no_spans = np.zeros(0, dtype=np.int64)\n"
        "keys = np.zeros(0, dtype=np.uint64)\n"
        "limit = status('VmSize') * 1024 + 48 * 2**20\n"
        "resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))\n"
        "for name, call in (('protected_spans', lambda: c.protected_spans(spans_page)),\n"
        "                   ('segment', lambda: c.segment(tags_page, no_spans, False, keys, True))):\n"
        "    before = in_use()\n"
        "    raised = 0\n"
        "    for _ in range(3):\n"
        "        try:\n"
        "            call()\n"
        "        except MemoryError:\n"
        "            raised += 1\n"
        "    print(name, raised, (in_use() - before) // 2**20)\n", timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert len(proc.stdout.splitlines()) == 2, proc.stdout
    for line in proc.stdout.splitlines():
        name, raised, grown_mb = line.split()
        assert int(raised) == 3, line  # the limit is below what the call needs
        assert int(grown_mb) < 4, f"{name}: {grown_mb} MB still allocated after three failed calls"


def test_a_guard_page_catches_a_one_byte_over_read():
    """The harness's premise: the byte after a guarded input is unreadable (the process dies)."""
    proc = _python("import ctypes\n"
                   "from fuzz_hardened import Guarded\n"
                   "g = Guarded(b'<p>x')\n"
                   "start = ctypes.addressof(ctypes.c_char.from_buffer(g.map))\n"
                   "end = start + len(g.map) - __import__('mmap').PAGESIZE\n"
                   "print(ctypes.string_at(end - 4, 4))\n"
                   "print(ctypes.string_at(end, 1))\n")
    assert proc.stdout.splitlines()[:1] == ["b'<p>x'"]
    assert proc.returncode != 0 and len(proc.stdout.splitlines()) == 1  # SIGSEGV on the second read


@both_cores
def test_bounded_hardened_fuzz_run():
    """benchmarks/fuzz_hardened.py, bounded: guard pages on every input and offset array, 4 inputs over
    1 MiB, odd-markup trees through both walks, a tree nested 20,000 deep (the full run: 100,000)."""
    proc = subprocess.run([sys.executable, str(BENCH / "fuzz_hardened.py"), "--count", "1200", "--big-every", "300",
                           "--depth", "20000", "--seed", "3", "--last", "/dev/null"],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "1200 inputs" in proc.stdout and "4 over 1 MiB" in proc.stdout and "0 with errors" in proc.stdout
    assert "tree nested 20000 deep: same" in proc.stdout


@both_cores
def test_bounded_run_under_address_sanitizer(tmp_path):
    """The compiled modules built with -fsanitize=address, the fuzz run under libasan: no report."""
    if shutil.which("gcc") is None:
        pytest.skip("no gcc here: the AddressSanitizer build needs gcc with libasan")
    libasan = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True, text=True).stdout.strip()
    if not Path(libasan).is_file():
        pytest.skip("gcc has no libasan.so here (Debian: apt-get install libasan8)")
    sys.path.insert(0, str(BENCH))
    try:
        import fuzz_hardened
    finally:
        sys.path.remove(str(BENCH))
    if not all(fuzz_hardened.c_source(m).exists() for m in fuzz_hardened.MODULES):
        pytest.skip("the Cython-generated C is not in this checkout (an installed wheel): build it with setup.py")
    fuzz_hardened.build_asan(tmp_path)
    cmd, env = fuzz_hardened.asan_command(tmp_path, ["--count", "300", "--big-every", "150", "--depth", "2000",
                                                     "--last", "/dev/null"])
    proc = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "AddressSanitizer build" in proc.stdout and "0 with errors" in proc.stdout
    assert "ERROR: AddressSanitizer" not in proc.stderr
