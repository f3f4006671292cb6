"""The test that the bench command runs through pytest-benchmark, once per bench case and matrix
entry (the parametrisation and the fixtures come from :mod:`ck_tile_nox.bench_plugin`)."""

from __future__ import annotations

from typing import Any

import pytest

from ck_tile_nox.bench import BenchFailure, run_benchmark


def test_kernel(benchmark: Any, bench_item: dict[str, Any], bench_meta: dict[str, Any]) -> None:
    try:
        run_benchmark(benchmark, bench_item, bench_meta)
    except BenchFailure as exc:
        reason = str(exc)
    else:
        return
    pytest.fail(reason, pytrace=False)  # outside the handler: no chained traceback
