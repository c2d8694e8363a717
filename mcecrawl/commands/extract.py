"""``mcecrawl extract PATH...``: main content of saved pages (files, directories, globs).

One record per input; a page that cannot be read or extracted becomes a record with status
``error`` and the batch goes on.  The exit code is non-zero only for usage errors (unknown
algorithm or parameter, malformed ``--param``, no input at all).
"""
from __future__ import annotations

HELP = "extract the main content of saved HTML pages (files, directories, globs) as text or JSON lines"

# File name endings taken from directories (explicitly named files are always taken).
PAGE_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml", ".php", ".asp", ".aspx")
# Inputs from which a progress bar is shown on stderr (tqdm hides it when stderr is not a TTY).
PROGRESS_MIN_FILES = 20
# Separators that str.splitlines() treats as line ends: escaped so one record stays one line.
_LINE_SEPARATORS = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"}


def add_arguments(parser) -> None:
    from mcecrawl.algorithms import ALGORITHM_NAMES, BASELINE_NAMES, DEFAULT_ALGORITHM

    parser.add_argument("paths", nargs="+", metavar="PATH", help="HTML file, directory (searched recursively) or glob")
    parser.add_argument("-a", "--algorithm", default=DEFAULT_ALGORITHM, choices=ALGORITHM_NAMES + BASELINE_NAMES,
                        help=f"extraction algorithm (default {DEFAULT_ALGORITHM}); the seed papers' baselines "
                             f"({', '.join(BASELINE_NAMES)}) run only when named")
    parser.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE",
                        help="algorithm parameter, e.g. --param P=8 (repeatable)")
    parser.add_argument("-f", "--format", default="text", choices=("text", "jsonl"),
                        help="text: the main content of each page; jsonl: one JSON record per page")
    parser.add_argument("-o", "--output", default="-", metavar="OUT", help="output file (default: stdout)")
    parser.add_argument("--content-type", default=None,
                        help='HTTP Content-Type to assume for every page, e.g. "text/html; charset=windows-1256"')


def expand_paths(patterns: list[str]) -> list[str]:
    """Files named by ``patterns`` (files, directories searched recursively, globs), in order, once.

    A pattern that matches nothing is kept as is, so that it becomes an error record.
    """
    import glob
    import os

    out: list[str] = []
    for pattern in patterns:
        if os.path.isdir(pattern):
            found: list[str] = []
            for root, dirs, files in os.walk(pattern):
                dirs.sort()
                found.extend(os.path.join(root, f) for f in sorted(files) if f.lower().endswith(PAGE_SUFFIXES))
            out.extend(found)
        elif glob.has_magic(pattern) and not os.path.exists(pattern):
            matches = sorted(glob.glob(pattern, recursive=True))
            out.extend(m for m in matches if os.path.isfile(m))
            if not matches:
                out.append(pattern)
        else:
            out.append(pattern)
    return list(dict.fromkeys(out))


def record(path: str, result) -> dict:
    """The JSON record of one extraction."""
    region = result.region
    return {
        "path": path, "status": result.status, "reason": result.reason, "title": result.title,
        "page_type": result.page_type, "page_type_reason": result.page_type_reason,
        "text": result.text, "algorithm": result.algorithm, "params": dict(result.params),
        "encoding": result.encoding, "encoding_source": result.encoding_source,
        "first_line": region.first_line if region else None, "last_line": region.last_line if region else None,
    }


def to_json_line(rec: dict) -> str:
    import json

    line = json.dumps(rec, ensure_ascii=False)
    for sep, escaped in _LINE_SEPARATORS.items():
        line = line.replace(sep, escaped)
    return line + "\n"


def extract_file(path: str, algorithm: str, params: dict, content_type: str | None):
    """Extraction of one file; unreadable files give an ``error`` Extraction."""
    import mcecrawl
    from mcecrawl.algorithms.result import Extraction

    try:
        with open(path, "rb") as f:
            body = f.read()
    except OSError as e:
        return Extraction("", (), algorithm, params, status="error", reason=f"cannot read: {e.strerror or e}")
    return mcecrawl.extract(body, algorithm=algorithm, content_type=content_type, **params)


def run(args) -> int:
    import argparse
    import sys

    import mcecrawl
    from mcecrawl.algorithms import ParamError
    from mcecrawl.commands import parse_params

    try:
        params = parse_params(args.param)
        # Validate the algorithm and its parameters once, before touching any page.
        mcecrawl.extract("<p>x</p>", algorithm=args.algorithm, **params)
    except (ParamError, ValueError, argparse.ArgumentTypeError) as e:
        print(f"mcecrawl extract: {e}", file=sys.stderr)
        return 2
    paths = expand_paths(args.paths)
    if not paths:
        print("mcecrawl extract: no input pages", file=sys.stderr)
        return 2

    from tqdm import tqdm

    out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8", newline="\n")
    counts: dict[str, int] = {}
    try:
        progress = tqdm(paths, unit="page", file=sys.stderr, disable=True if len(paths) < PROGRESS_MIN_FILES else None)
        for path in progress:
            result = extract_file(path, args.algorithm, params, args.content_type)
            counts[result.status] = counts.get(result.status, 0) + 1
            if args.format == "jsonl":
                out.write(to_json_line(record(path, result)))
            else:
                if len(paths) > 1:
                    out.write(f"==> {path} <==\n")
                if result.text:
                    out.write(result.text + "\n")
                if result.status != "ok":
                    print(f"{path}: {result.status}: {result.reason}", file=sys.stderr)
            out.flush()
    finally:
        if out is not sys.stdout:
            out.close()
    if len(paths) > 1:
        summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
        print(f"mcecrawl extract: {len(paths)} pages: {summary}", file=sys.stderr)
    return 0
