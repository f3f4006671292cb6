"""The bench reference: its schema, the ratio it adds to a benchmark, and the program itself."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from pydantic import ValidationError

from ck_tile_nox import reference
from ck_tile_nox.reference import BenchReference, References, ratio_text


def test_sizes_must_fit_the_kind():
    assert BenchReference(kind="memcpy", bytes=64).argv() == ["memcpy", "64"]
    assert BenchReference(kind="gemm", m=2, n=3, k=4).label() == "gemm 2 3 4"
    for bad in (dict(kind="memcpy"), dict(kind="memcpy", bytes=8, m=2),
                dict(kind="gemm", m=2, n=3), dict(kind="gemm", m=0, n=1, k=1),
                dict(kind="copy", bytes=8)):  # fmt: skip
        with pytest.raises(ValidationError):
            BenchReference(**bad)


def test_annotate_compares_the_kind_s_figure(monkeypatch):
    refs = References("c++", Path("unused"))
    monkeypatch.setattr(refs, "figures", lambda ref: {"ms": 1.0, "gbs": 40.0, "tflops": 0.02})
    info: dict = {"kernel_gbs_median": 10.0, "kernel_tflops_median": 0.004}
    bench = SimpleNamespace(disabled=False, extra_info=info)
    refs.annotate(bench, BenchReference(kind="memcpy", bytes=8, target=0.3))
    assert info["reference_ratio"] == pytest.approx(0.25)
    assert ratio_text(info) == "0.25 of memcpy 8 (target 0.30, below)"
    refs.annotate(bench, BenchReference(kind="gemm", m=1, n=1, k=1))
    assert info["reference_ratio"] == pytest.approx(0.2)
    assert ratio_text(info) == "0.20 of gemm 1 1 1"
    assert ratio_text({}) == "-"
    for off in (
        SimpleNamespace(disabled=False, extra_info={}),
        SimpleNamespace(disabled=True, extra_info={}),
    ):
        refs.annotate(off, None if not off.disabled else BenchReference(kind="memcpy", bytes=8))
        assert off.extra_info == {}


@pytest.mark.skipif(
    not shutil.which("clang++-22") and not shutil.which("g++"), reason="no compiler"
)
def test_the_program_measures_and_refuses_bad_sizes(tmp_path: Path):
    exe = reference.compile_reference(shutil.which("clang++-22") or "g++", tmp_path)
    figures = reference.run_reference(exe, BenchReference(kind="gemm", m=8, n=8, k=8))
    assert figures["tflops"] is not None and figures["tflops"] > 0
    figures = reference.run_reference(exe, BenchReference(kind="memcpy", bytes=4096))
    assert figures["gbs"] is not None and figures["gbs"] > 0
    with pytest.raises(RuntimeError, match="usage"):
        reference.run_reference(exe, BenchReference.model_construct(kind="gemm", m=0, n=1, k=1))
