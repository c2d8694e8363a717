"""The ``mcecrawl`` subcommands, one module each (registered in :mod:`mcecrawl.cli`), and what they share."""
from __future__ import annotations

import argparse
import json
from typing import Any


def parse_params(items: list[str] | None) -> dict[str, Any]:
    """``--param``/``--set`` values: ``["P=8", "smooth=0.5", "mode=x"]`` -> ``{"P": 8, "smooth": 0.5,
    "mode": "x"}`` (JSON values, else the string; names and values stripped).  Raises
    ``argparse.ArgumentTypeError`` for an item that is not NAME=VALUE."""
    params: dict[str, Any] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key:
            raise argparse.ArgumentTypeError(f"--param wants NAME=VALUE, not {item!r}")
        try:
            params[key] = json.loads(value)
        except json.JSONDecodeError:
            params[key] = value
    return params
