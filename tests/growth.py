"""Whether a call's time grows with its input, not with the input's square: for the tests of code
that once ran an XPath libxml2 evaluates in quadratic time (``.//a//text()``, a union of two large
node sets).  CPU time, best of two runs: the machine's load."""
from __future__ import annotations

import gc
import time
from typing import Any, Callable

# The larger input is SCALE times the smaller; a linear call takes about SCALE times as long, a
# quadratic one SCALE squared.  The bound sits between, far enough from both for a loaded machine
# (tests/algorithms/test_lines.py bounds the reference segmentation the same way).
SCALE = 8
MAX_GROWTH = 20
# For a cost libxml2's depth limit bounds to the square of the depth: between SCALE squared and cubed.
MAX_SQUARE_GROWTH = SCALE ** 2 * 2.5


def seconds(call: Callable[[Any], Any], arg: Any) -> float:
    """The CPU time of ``call(arg)``, best of two runs, the garbage collector held off (its passes
    over the other tests' objects are not the call's)."""
    times = []
    for _ in range(2):
        gc.collect()
        gc.disable()
        try:
            started = time.process_time()
            call(arg)
            times.append(time.process_time() - started)
        finally:
            gc.enable()
    return min(times)


def grows_within(call: Callable[[Any], Any], build: Callable[[int], Any], n: int,
                 max_growth: float = MAX_GROWTH) -> tuple[bool, float, float]:
    """(whether ``call`` on ``build(SCALE * n)`` took under ``max_growth`` times its time on ``build(n)``,
    the two times); ``build`` is not timed.  Linear by default; a caller bounding a square passes
    :data:`MAX_SQUARE_GROWTH`."""
    small, large = seconds(call, build(n)), seconds(call, build(SCALE * n))
    return large < max_growth * max(small, 1e-4), small, large
