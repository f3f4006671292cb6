"""The pytest plugin of the bench command (``-p ck_tile_nox.bench_plugin``).

It reads the manifest that :func:`ck_tile_nox.bench.run_suite` writes (option
``--ck-bench-manifest=PATH``), parametrises :mod:`ck_tile_nox.bench_suite` with one benchmark
per manifest entry, records each one's outcome (written beside the manifest when the session
ends), keeps the host name out of pytest-benchmark's ``machine_info`` and adds the run's
description, with the failures, to the JSON as ``ck_tile``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ck_tile_nox.bench import MANIFEST_OPTION

_MANIFEST = pytest.StashKey[dict[str, Any]]()
_OUTCOMES = pytest.StashKey[dict[str, dict[str, str]]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("ck_tile bench").addoption(
        MANIFEST_OPTION,
        dest="ck_bench_manifest",
        metavar="PATH",
        default=None,
        help="the benchmarks to run (written by python -m ck_tile_nox bench)",
    )


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("ck_bench_manifest")
    manifest: dict[str, Any] = {"meta": {}, "benchmarks": []}
    if path:
        manifest = json.loads(Path(path).read_text(encoding="utf-8"))
    config.stash[_MANIFEST] = manifest
    config.stash[_OUTCOMES] = {}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "bench_id" in metafunc.fixturenames:
        ids = [item["id"] for item in metafunc.config.stash[_MANIFEST]["benchmarks"]]
        metafunc.parametrize("bench_id", ids, ids=ids)


@pytest.fixture
def bench_item(request: pytest.FixtureRequest, bench_id: str) -> dict[str, Any]:
    items = request.config.stash[_MANIFEST]["benchmarks"]
    return next(item for item in items if item["id"] == bench_id)


@pytest.fixture
def bench_meta(request: pytest.FixtureRequest) -> dict[str, Any]:
    return request.config.stash[_MANIFEST]["meta"]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    report = yield
    callspec = getattr(item, "callspec", None)
    bench_id = callspec.params.get("bench_id") if callspec is not None else None
    if bench_id is not None:
        outcomes = item.config.stash[_OUTCOMES]
        if report.failed:
            reason = str(call.excinfo.value) if call.excinfo is not None else report.longreprtext
            outcomes[bench_id] = {"outcome": "failed", "reason": reason.strip() or "failed"}
        elif bench_id not in outcomes and (report.when == "call" or report.skipped):
            outcomes[bench_id] = {"outcome": report.outcome, "reason": ""}
    return report


def pytest_sessionfinish(session: pytest.Session) -> None:
    manifest = session.config.stash.get(_MANIFEST, None)
    if manifest and manifest.get("outcomes"):
        path = Path(manifest["outcomes"])
        path.write_text(json.dumps(session.config.stash[_OUTCOMES], indent=2) + "\n")


@pytest.hookimpl(optionalhook=True)
def pytest_benchmark_update_machine_info(config: pytest.Config, machine_info: dict) -> None:
    machine_info.pop("node", None)
    meta = config.stash[_MANIFEST]["meta"]
    if "machine" in meta:
        machine_info["ck_tile"] = meta["machine"]


@pytest.hookimpl(optionalhook=True)
def pytest_benchmark_update_json(config: pytest.Config, benchmarks: list, output_json: dict):
    failures = {
        bench_id: o["reason"]
        for bench_id, o in config.stash[_OUTCOMES].items()
        if o["outcome"] == "failed"
    }
    output_json["ck_tile"] = {**config.stash[_MANIFEST]["meta"], "failures": failures}
