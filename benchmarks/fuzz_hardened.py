"""Fuzz the compiled extraction core where a one-byte over-read shows: guard pages, AddressSanitizer,
inputs past the 1 MiB working chunk, and the compiled cleaning walk against the reference on whole trees.

    python benchmarks/fuzz_hardened.py                       # 100,000 inputs, guard pages (seed 1)
    python benchmarks/fuzz_hardened.py --asan                # the same under AddressSanitizer
    python benchmarks/fuzz_hardened.py --count 2000 --seed 7

Guard pages: every input (read by ``_lineprofile`` and ``_pagescan``), and every offset array handed
to ``_lineprofile``, is copied to the end of
an ``mmap`` whose next page is ``PROT_NONE``; the compiled functions read it through a memoryview, so
reading one byte past it is a SIGSEGV of this process, not a silent read of a neighbouring object.
Each guarded result must equal the same call on ordinary ``bytes`` (benchmarks/fuzz_core.py compares
those with the numpy reference).  Bad offsets must raise ValueError, never crash.

AddressSanitizer (``--asan``): the Cython-generated C of ``_lineprofile``, ``_cleaning``, ``_pagescan`` and
language ID's ``_langid`` (which reads every input too, guarded as well) is compiled again with
``gcc -fsanitize=address -fno-omit-frame-pointer`` into ``--asan-dir``, and the run repeats in a child
process started as

    LD_PRELOAD=$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0,abort_on_error=1 \\
    PYTHONMALLOC=malloc python benchmarks/fuzz_hardened.py --asan-child DIR ...

(``PYTHONMALLOC=malloc``: every Python buffer from ``malloc``, so ASan knows its bounds; leaks off:
the interpreter keeps its objects at exit).  The child loads the instrumented modules under the
package's names before anything imports them.  Any invalid read or write aborts it with a report.

Inputs: those of tests/fuzz_pages.py (random bytes, markup tokens, mutated pages), and every
``--big-every``-th one a page over 1 MiB built from them (so the reference's 1 MiB chunk boundary
and ``count_r2l``'s cut sequences are crossed).  Every ``--walk-every``-th input also parses into
trees of odd markup (comments, processing instructions, CDATA, namespaces, entity references,
through lxml's HTML parser and through a recovering XML parser that keeps them all), and the
compiled walk (``_cleaning.blocks``) must give what the reference walk gives, or decline (None: the
caller then runs the reference).  Once per run: a tree nested 100,000 deep (``--depth``).
Exit status 0 only when nothing crashed, differed or raised.
"""
from __future__ import annotations

import argparse
import ctypes
import mmap
import os
import random
import subprocess
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

PAGE = mmap.PAGESIZE
# One input in this many is a page over 1 MiB (the reference's working chunk, lines.CHUNK_BYTES).
BIG_EVERY = 500
BIG_BYTES = (1 << 20) + 4096
# One input in this many is also parsed into odd-markup trees for the walk comparison.
WALK_EVERY = 5
# Nesting depth of the deep tree, built from chains of CHAIN levels (see deep_tree).
DEPTH = 100_000
CHAIN = 1000
# Markup a parser keeps as nodes the reference walk reads differently from elements and text.
ODD = (b"<!-- c -->", b"<?pi x?>", b"<![CDATA[<b>cdata</b>]]>", b"&amp;", b"&e;", b"&undefined;",
       b'<x:tag xmlns:x="urn:x">', b"</x:tag>", b'<svg xmlns="http://www.w3.org/2000/svg"><g>', b"</g></svg>",
       b"<math><mi>x</mi></math>", b"<br/>", b"<p>", b"</p>", b"<div>", b"</div>", b"<a href='/a'>", b"</a>",
       b"<li>", b'<div class="related">', b"<figure><figcaption>", "متن خبر ".encode(), b"text ")

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mprotect.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)


class Guarded:
    """``data`` copied to the end of an mmap followed by a PROT_NONE page; ``.view`` reads it."""

    def __init__(self, data: bytes | np.ndarray):
        raw = data.tobytes() if isinstance(data, np.ndarray) else bytes(data)
        body = -(-len(raw) // PAGE) * PAGE or PAGE
        self.map = mmap.mmap(-1, body + PAGE, prot=mmap.PROT_READ | mmap.PROT_WRITE)
        start = body - len(raw)
        self.map[start:body] = raw
        address = ctypes.addressof(ctypes.c_char.from_buffer(self.map))
        if _libc.mprotect(address + body, PAGE, 0) != 0:  # PROT_NONE
            raise OSError(ctypes.get_errno(), "mprotect failed")
        self.view = memoryview(self.map)[start:body]
        if isinstance(data, np.ndarray):
            self.view = np.frombuffer(self.map, dtype=data.dtype, count=len(data), offset=start)

    def close(self) -> None:
        self.view = None  # type: ignore[assignment]
        try:
            self.map.close()
        except BufferError:  # a numpy view still alive: the map goes with it
            pass


def _i64(buf: bytearray) -> np.ndarray:
    return np.frombuffer(buf, dtype=np.int64)


def profile_calls(c: Any, data: Any, arr: Callable[[np.ndarray], Any]) -> dict[str, bytes]:
    """Every ``_lineprofile`` function on ``data`` as profile_impl calls it; ``arr`` places each offset
    array (identity for the ordinary run, a guarded copy for the guarded one).  Raw outputs."""
    from mcecrawl.algorithms import lines as ref
    from mcecrawl.algorithms import profile_impl

    out: dict[str, bytes] = {}
    spans_b = c.protected_spans(data)
    out["spans"] = bytes(spans_b)
    spans = arr(_i64(spans_b))
    for block in (False, True):
        for merge in (False, True):
            got = c.segment(data, spans, block, arr(ref._BLOCK_KEYS), merge)
            out.update({f"segment/{block}/{merge}/{k}": bytes(v) for k, v in enumerate(got)})
    starts_b, tag_starts_b, tag_ends_b = c.segment(data, spans, False, arr(ref._BLOCK_KEYS), True)
    starts, tag_starts, tag_ends = arr(_i64(starts_b)), arr(_i64(tag_starts_b)), arr(_i64(tag_ends_b))
    out["inside"] = bytes(c.inside(starts, spans))
    for lead in (0xC0, 0x80):
        out.update({f"count/{lead}/{k}": bytes(v) for k, v in enumerate(c.count_lines(data, starts, tag_starts,
                                                                                        tag_ends, lead))})
        for hebrew in (False, True):
            out[f"r2l/{lead}/{hebrew}"] = bytes(c.count_r2l(data, starts, hebrew, lead == 0x80))
    keys_b, closing_b = c.tag_keys(data, tag_starts)
    out["keys"], out["closing"] = bytes(keys_b), bytes(closing_b)
    content = np.frombuffer(c.count_lines(data, starts, tag_starts, tag_ends, 0xC0)[0], dtype=np.int32)
    got = c.links_and_depth(starts, tag_starts, arr(np.frombuffer(keys_b, dtype=np.uint64)),
                            arr(np.frombuffer(closing_b, dtype=np.uint8)), arr(content.copy()), ref.A_KEY,
                            arr(ref.LINK_END_KEYS), arr(ref.CONTAINER_KEYS))
    out.update({f"links/{k}": bytes(v) for k, v in enumerate(got)})
    n = len(data)
    ends = np.minimum(_i64(starts_b) + 40, n).astype(np.int64)
    out["punct"] = bytes(c.count_punctuation(data, starts, arr(ends)))
    out["pagescan"] = repr(profile_impl.pagescan.scan(data)).encode()  # the page-type scan reads the page too
    out["utf8_error_at"] = str(c.utf8_error_at(data)).encode()  # the decoding's validity check
    out["title_meta_at"] = str(c.title_meta_at(data)).encode()  # where the title search starts
    return out


def bad_offsets(c: Any, data: Any, arr: Callable[[np.ndarray], Any]) -> list[str]:
    """Offsets outside the page, odd span lists and short arrays: each call must raise ValueError."""
    n = len(data)
    far = arr(np.array([0, n + 1], dtype=np.int64))
    neg = arr(np.array([-1], dtype=np.int64))
    empty64, empty8 = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.uint64)
    calls = {
        "segment/far": lambda: c.segment(data, far, False, empty8, True),
        "segment/odd": lambda: c.segment(data, arr(np.array([0], dtype=np.int64)), False, empty8, True),
        "count_lines/far": lambda: c.count_lines(data, far, empty64, empty64, 0xC0),
        "count_lines/tags": lambda: c.count_lines(data, empty64, arr(np.array([0], dtype=np.int64)), empty64, 0xC0),
        "count_r2l/neg": lambda: c.count_r2l(data, neg, False, True),
        "tag_keys/end": lambda: c.tag_keys(data, arr(np.array([n], dtype=np.int64))),
        "links/short": lambda: c.links_and_depth(arr(np.array([0], dtype=np.int64)), empty64, empty8,
                                                 np.zeros(0, dtype=np.uint8), np.zeros(0, dtype=np.int32), 0, empty8,
                                                 empty8),
        "punct/far": lambda: c.count_punctuation(data, arr(np.array([0], dtype=np.int64)), far[1:]),
    }
    missed = []
    for name, call in calls.items():
        try:
            call()
        except ValueError:
            continue
        missed.append(f"bad offsets accepted: {name}")
    return missed


# --- The cleaning walks, compiled and reference: re-point these two here if the walks move -------

def cleaning_walks(root: Any) -> list[tuple[str, Any, Any]]:
    """(name, compiled result or None, reference result) for each walk profile_impl exposes: the compiled
    ``_cleaning.blocks`` against ``cleaning.blocks`` (the cleaning walk) and ``cleaning.paragraphs`` (plain),
    ``_cleaning.text_words`` against ``cleaning.words`` and ``_cleaning.chrome_walk`` against
    ``chrome.chrome_walk`` (the typed readings' chrome)."""
    import math

    from mcecrawl.algorithms import chrome, cleaning, profile_impl
    from mcecrawl.algorithms.cleaning_words import (
        BLOCK_TAGS,
        CLUTTER_ATTRIBUTES,
        LINK_BOX_TAGS,
        SKIPPED_TAGS,
    )

    walk = profile_impl.cleaning.blocks
    compiled_blocks = walk(root, profile_impl.compiled_is_clutter, CLUTTER_ATTRIBUTES, BLOCK_TAGS, SKIPPED_TAGS,
                           LINK_BOX_TAGS, cleaning.TEXT_BLOCK_MAX_LINK_SHARE, decide=True)
    compiled_paragraphs = walk(root, None, (), BLOCK_TAGS, frozenset(), frozenset(), math.inf)
    limit = chrome.CHROME_MAX_SHARE * max(cleaning.words(root), 1)

    def judge(el: Any, in_content: bool) -> bool:
        return chrome.is_chrome(el, None, in_content=in_content)

    walks = [("blocks", compiled_blocks, cleaning.blocks(root)), ("paragraphs", compiled_paragraphs,
                                                                    cleaning.paragraphs(root)),
             ("words", profile_impl.cleaning.text_words(root), cleaning.words(root)),
             ("chrome walk", profile_impl.cleaning.chrome_walk(root, judge, limit, True),
              chrome.chrome_walk(root, judge, limit, True))]
    from fuzz_pages import layout_counts_at

    with layout_counts_at(1):  # every element's words counted from the first layout wrapper on
        walks.append(("chrome walk, words table", profile_impl.cleaning.chrome_walk(root, judge, limit, True),
                      chrome.chrome_walk(root, judge, limit, True)))
    return walks


def odd_trees(data: bytes, rng: random.Random) -> list[Any]:
    """Trees of ``data`` with odd markup spliced in: lxml's HTML parser (the algorithms' parser, comments
    and PIs removed) and a recovering XML parser keeping comments, PIs, CDATA, entities, namespaces."""
    from lxml import etree

    from mcecrawl.algorithms.parse import parse_tree

    pieces = [data[i:i + 64] for i in range(0, min(len(data), 4096), 64)]
    odd = b"".join(p + rng.choice(ODD) for p in pieces) or rng.choice(ODD)
    doc = b'<?xml version="1.0"?><!DOCTYPE html [<!ENTITY e "entity">]><html><body>' + odd + b"</body></html>"
    trees = []
    html = parse_tree(odd)
    if html is not None:
        trees.append(html)
    xml = etree.fromstring(doc, etree.XMLParser(recover=True, resolve_entities=False, strip_cdata=False,
                                                remove_comments=False, remove_pis=False, huge_tree=True))
    if xml is not None:
        trees.append(xml)
    return trees


def deep_tree(depth: int) -> Any:
    """<html><body> then ``depth`` nested elements, text at every 1000th level and at the bottom.

    lxml checks on every append that the new child is no ancestor of its parent (a walk up the
    parent chain): nesting one element at a time costs O(depth^2).  So chains of :data:`CHAIN`
    levels are built apart and joined bottom-up (each join walks one chain and moves the subtree)."""
    from lxml import etree

    def chain(first: int, levels: int) -> tuple[Any, Any]:
        top = el = etree.Element(("div", "span", "p", "section")[first % 4])
        for i in range(first, first + levels):
            if i > first:
                el = etree.SubElement(el, ("div", "span", "p", "section")[i % 4])
            if i % 1000 == 0:
                el.text = f"سطح {i} "
                el.tail = "پس از آن"
        return top, el

    below = None
    for first in reversed(range(0, depth, CHAIN)):
        top, bottom = chain(first, min(CHAIN, depth - first))
        if below is None:
            bottom.text = (bottom.text or "") + "متن پایین درخت"
        else:
            bottom.append(below)
        below = top
    root = etree.Element("html")
    body = etree.SubElement(root, "body")
    if below is not None:
        body.append(below)
    return root


def walk_differences(trees: list[Any]) -> tuple[list[str], int]:
    """Walks that differ, and how many the compiled walk declined (None: the reference runs)."""
    diff, declined = [], 0
    for tree in trees:
        for name, compiled, reference in cleaning_walks(tree):
            if compiled is None:
                declined += 1
            elif compiled != reference:
                diff.append(f"walk {name}")
    return diff, declined


def run(count: int, seed: int, last: Path, big_every: int, walk_every: int, depth: int) -> int:
    from fuzz_pages import fuzz_inputs, seed_pages
    from mcecrawl.algorithms import profile_impl

    c = profile_impl.compiled
    if c is None or profile_impl.cleaning is None or profile_impl.pagescan is None:
        print(f"nothing to fuzz: {profile_impl.describe()}", file=sys.stderr)
        return 2
    from mcecrawl.corpus import langid

    # Language ID's compiled walk reads each input too (its model's tables are the shipped ones).
    walk_tables = langid._identifier(langid.LANGUAGES, langid.COMPILED).walk_tables if langid.compiled else None
    data_root = Path(os.environ.get("MCE_DATA_ROOT") or ROOT.parent / "shared" / "data")
    pages = seed_pages(data_root)
    rng = random.Random(seed)
    last.parent.mkdir(parents=True, exist_ok=True)
    bad = big = walked = declined = 0
    total, t0 = 0, time.perf_counter()
    if depth:
        last.write_bytes(f"deep tree {depth}".encode())
        diff, n = walk_differences([deep_tree(depth)])
        declined += n
        bad += bool(diff)
        print(f"tree nested {depth} deep: {'differs: ' + ', '.join(diff) if diff else 'same'}, "
              f"{time.perf_counter() - t0:.0f} s", flush=True)
    for i, data in enumerate(fuzz_inputs(seed, count, pages)):
        if big_every and i % big_every == big_every - 1:  # past the 1 MiB chunk: the input repeated
            data = (data or b"<p>\xd8") * (BIG_BYTES // max(len(data), 1) + 1)
            data = data[:BIG_BYTES + rng.randrange(4096)]
            big += 1
        last.write_bytes(data)
        total += len(data)
        guards: list[Guarded] = []

        def guarded(a: np.ndarray) -> Any:
            guards.append(Guarded(a))
            return guards[-1].view

        page = Guarded(data)
        try:
            plain = profile_calls(c, data, lambda a: a)
            fenced = profile_calls(c, page.view, guarded)
            diff = [k for k in plain if plain[k] != fenced[k]] + bad_offsets(c, page.view, guarded)
            if walk_tables is not None and langid.compiled.visit_counts(*walk_tables, page.view) != \
                    langid.compiled.visit_counts(*walk_tables, data):
                diff.append("langid/visit_counts")
        finally:
            for g in guards + [page]:
                g.close()
        if walk_every and i % walk_every == 0:
            d, n = walk_differences(odd_trees(data, rng))
            diff += d
            declined += n
            walked += 1
        if diff:
            bad += 1
            keep = last.with_name(f"fuzz_hardened_diff_{seed}_{i}.bin")
            keep.write_bytes(data)
            print(f"input {i}: {', '.join(diff)} (kept in {keep})", flush=True)
        if (i + 1) % 10_000 == 0:
            print(f"{i + 1} inputs, {bad} with errors, {time.perf_counter() - t0:.0f} s", flush=True)
    print(f"fuzz_hardened: {count} inputs ({total / 1e6:.1f} MB, {big} over 1 MiB, seed {seed}), "
          f"{walked} parsed into odd-markup trees (compiled walk declined {declined} times): "
          f"no crash, {bad} with errors, {time.perf_counter() - t0:.0f} s")
    return 1 if bad else 0


# --- AddressSanitizer ------------------------------------------------------------------------------

MODULES = ("algorithms._lineprofile", "algorithms._cleaning", "algorithms._pagescan", "corpus._langid")


def c_source(dotted: str) -> Path:
    """The Cython-generated C of one of :data:`MODULES` (``package.module`` under ``mcecrawl``)."""
    package, name = dotted.split(".")
    return ROOT / "mcecrawl" / package / f"{name}.c"


def build_asan(out: Path) -> list[Path]:
    """The compiled modules built again from their Cython C with AddressSanitizer, into ``out``."""
    import lxml

    out.mkdir(parents=True, exist_ok=True)
    includes = [sysconfig.get_paths()["include"], *lxml.get_include()]
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    built = []
    for dotted in MODULES:
        c_file = c_source(dotted)
        if not c_file.exists():
            subprocess.run([sys.executable, "-m", "cython", "-3", str(c_file.with_suffix(".pyx"))], check=True)
        target = out / f"{dotted.split('.')[1]}{suffix}"
        subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-g", "-fsanitize=address", "-fno-omit-frame-pointer",
                        *[f"-I{i}" for i in includes], str(c_file), "-o", str(target)], check=True)
        built.append(target)
    return built


def load_asan_modules(folder: Path) -> None:
    """Import the instrumented modules under the package's names, before profile_impl imports them."""
    import importlib.util

    import mcecrawl.algorithms  # noqa: F401  (the parent packages)
    import mcecrawl.corpus  # noqa: F401

    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for dotted in MODULES:
        full, name = f"mcecrawl.{dotted}", dotted.split(".")[1]
        spec = importlib.util.spec_from_file_location(full, folder / f"{name}{suffix}")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[full] = module
        spec.loader.exec_module(module)


def asan_command(folder: Path, argv: list[str]) -> tuple[list[str], dict[str, str]]:
    libasan = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True, text=True,
                             check=True).stdout.strip()
    env = {**os.environ, "LD_PRELOAD": libasan, "PYTHONMALLOC": "malloc",
           "ASAN_OPTIONS": "detect_leaks=0,abort_on_error=1,allocator_may_return_null=1"}
    return [sys.executable, __file__, "--asan-child", str(folder), *argv], env


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--big-every", type=int, default=BIG_EVERY)
    ap.add_argument("--walk-every", type=int, default=WALK_EVERY)
    ap.add_argument("--depth", type=int, default=DEPTH)
    ap.add_argument("--last", type=Path, default=ROOT / "benchmarks" / "results" / "fuzz_hardened_last_input.bin")
    ap.add_argument("--asan", action="store_true", help="build with AddressSanitizer and run the fuzz under it")
    ap.add_argument("--asan-dir", type=Path, default=ROOT / "build" / "asan")
    ap.add_argument("--asan-child", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    common = ["--count", str(args.count), "--seed", str(args.seed), "--big-every", str(args.big_every),
              "--walk-every", str(args.walk_every), "--depth", str(args.depth), "--last", str(args.last)]
    if args.asan:
        build_asan(args.asan_dir)
        cmd, env = asan_command(args.asan_dir, common)
        return subprocess.run(cmd, env=env).returncode
    if args.asan_child:
        load_asan_modules(args.asan_child)
        print(f"AddressSanitizer build from {args.asan_child}", flush=True)
    return run(args.count, args.seed, args.last, args.big_every, args.walk_every, args.depth)


if __name__ == "__main__":
    raise SystemExit(main())
