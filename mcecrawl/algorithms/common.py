"""Parameter handling and result building shared by the line-based algorithms."""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from mcecrawl.algorithms.parse import find_title
from mcecrawl.algorithms.result import Extraction, LineCounts, Region
from mcecrawl.exceptions import MceError


class ParamError(MceError, ValueError):
    """An unknown parameter name or a value of the wrong type/choice (a usage error)."""


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _coerce(name: str, value: Any, default: Any) -> Any:
    """Convert ``value`` (possibly a CLI string) to the type of ``default``."""
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in _TRUE | _FALSE:
            return value.lower() in _TRUE
        raise ParamError(f"{name} must be a boolean, not {value!r}")
    if isinstance(default, int):
        try:
            if isinstance(value, float) and not value.is_integer():
                raise ValueError
            return int(value)
        except (TypeError, ValueError):
            raise ParamError(f"{name} must be an integer, not {value!r}") from None
    if isinstance(default, float):
        try:
            return float(value)
        except (TypeError, ValueError):
            raise ParamError(f"{name} must be a number, not {value!r}") from None
    return str(value)


def resolve_params(algorithm: str, defaults: Mapping[str, Any], choices: Mapping[str, tuple[Any, ...]],
                   given: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults overridden by ``given``; unknown names, bad types and bad choices raise ParamError."""
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        raise ParamError(f"{algorithm}: unknown parameter(s) {', '.join(unknown)}; "
                         f"known: {', '.join(sorted(defaults))}")
    params = dict(defaults)
    for name, value in given.items():
        params[name] = _coerce(name, value, defaults[name])
        if name in choices and params[name] not in choices[name]:
            raise ParamError(f"{algorithm}: {name} must be one of {choices[name]}, not {params[name]!r}")
        if isinstance(params[name], int) and not isinstance(params[name], bool) and params[name] < 0:
            raise ParamError(f"{algorithm}: {name} must be >= 0, not {params[name]}")
    return params


def chosen_region(first: int, last: int, content: np.ndarray, code: np.ndarray, smoothed: np.ndarray) -> Region:
    """The chosen lines and the line profile behind the choice (plot-ready sequences of numbers,
    converted from copies of the arrays when first read)."""
    return Region(first, last, LineCounts(content.copy()), LineCounts(code.copy()), LineCounts(smoothed.copy()))


def result(algorithm: str, params: Mapping[str, Any], text: str | bytes, paragraphs: list[str],
           region: Region | None, *, empty_reason: str = "", title: str | None = None) -> Extraction:
    """An ``ok`` Extraction, or ``empty`` with ``empty_reason`` when no paragraph was found;
    ``title`` when the algorithm found it already, else :func:`find_title` of the page."""
    title = title or find_title(text)
    if not paragraphs:
        return Extraction("", (), algorithm, params, status="empty",
                          reason=empty_reason or "the selected region holds no text", title=title, region=region)
    return Extraction("\n".join(paragraphs), tuple(paragraphs), algorithm, params, title=title, region=region)


def empty(algorithm: str, params: Mapping[str, Any], reason: str, text: str | bytes = "",
          region: Region | None = None) -> Extraction:
    return Extraction("", (), algorithm, params, status="empty", reason=reason,
                      title=find_title(text) if text else None, region=region)

