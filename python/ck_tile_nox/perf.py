"""The ``Perf:`` line every kernel binary prints, which the bench reads::

Perf: 0.0421 ms, 99.6 GB/s                     (a copy kernel)
Perf: 1.2e+01 ms, 0.0223 TFlops, 0.131 GB/s    (a GEMM)
"""

from __future__ import annotations

import re

FIGURES = ("ms", "tflops", "gbs")
_NUM = r"[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?|inf|nan)"
_PERF = re.compile(
    rf"Perf:\s*(?P<ms>{_NUM})\s*ms\b(?:\s*,\s*(?P<tflops>{_NUM})\s*TFlop(?:s|/s)\b)?"
    rf"(?:\s*,\s*(?P<gbs>{_NUM})\s*GB/s)?",
    re.IGNORECASE,
)


def parse_perf(text: str) -> dict[str, float | None]:
    """The figures of the last ``Perf:`` line (None where absent); ValueError without one."""
    found = list(_PERF.finditer(text))
    if not found:
        raise ValueError("no 'Perf: X ms[, Y TFlops][, Z GB/s]' line in the output")
    m = found[-1]
    return {k: float(m[k]) if m[k] is not None else None for k in FIGURES}
