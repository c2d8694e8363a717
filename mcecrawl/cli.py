"""The one ``mcecrawl`` command (also ``python -m mcecrawl``).

Each subcommand lives in ``mcecrawl/commands/<name>.py`` with ``HELP`` (one line),
``add_arguments(parser)`` and ``run(args) -> int``; heavy imports stay inside ``run`` so that
``mcecrawl --help`` is instant.  A subcommand is added by listing its module here.
"""
from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = (
    "crawl",
    "extract",
    "evaluate",
    "tune",
    "plot",
    "index",
    "search",
    "export-bulk",
    "push",
    "from-warc",
    "from-cc-index",
    "reextract",
    "stats",
    "demo",
    "check-site",
    "new-site",
    "decode",
    "merge",
)


class _Version(argparse.Action):
    """``--version``: the package's version and which extraction core runs (compiled or reference),
    worked out only when asked (it imports numpy and the compiled modules)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="show the version and the extraction core in use, then exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        from importlib.metadata import PackageNotFoundError, version

        from mcecrawl.algorithms import profile_impl
        from mcecrawl.corpus import langid

        try:
            release = version("mcecrawl")
        except PackageNotFoundError:  # a source checkout that was never installed
            release = "(not installed)"
        # on stdout, as argparse's own version action
        print(f"mcecrawl {release}\n{profile_impl.describe()}\n{langid.describe()}")
        parser.exit()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="mcecrawl", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"mcecrawl.commands.{name.replace('-', '_')}")
        # argparse %-formats help strings (not descriptions): a literal "95%" would crash --help.
        p = sub.add_parser(name, help=module.HELP.replace("%", "%%"), description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    return args._run(args)
