from __future__ import annotations

import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from ck_tile_nox import device_check as dc
from ck_tile_nox.cases import Target
from ck_tile_nox.commands import check_device_dir
from ck_tile_nox.console import UI
from ck_tile_nox.discovery import find_versioned_tool


def kernels(data_dir: Path) -> dict[str, dc.Kernel]:
    text = (data_dir / "readelf_notes_gfx942.txt").read_text()
    return {k.name: k for k in dc.parse_kernels(text)}


def test_parse_sample(data_dir: Path):
    ks = kernels(data_dir)
    assert list(ks) == ["add_one", "_Z11tmpl_kernelILi256EEvPf", "spills_and_scratch", "big_lds"]
    tmpl = ks["_Z11tmpl_kernelILi256EEvPf"]
    assert (tmpl.vgpr, tmpl.agpr, tmpl.sgpr, tmpl.lds, tmpl.scratch) == (36, 4, 20, 1024, 0)
    bad = ks["spills_and_scratch"]
    assert bad.agpr is None  # absent in the metadata
    assert (bad.scratch, bad.vgpr_spill, bad.sgpr_spill) == (272, 5, 2)
    text = (data_dir / "readelf_notes_gfx942.txt").read_text()
    assert dc.metadata_target(text) == "gfx942"


def test_limits(data_dir: Path):
    ks = kernels(data_dir)
    assert dc.kernel_problems(ks["add_one"], "gfx942") == []
    assert dc.kernel_problems(ks["spills_and_scratch"], "gfx942") == [
        "scratch 272 B",
        "5 VGPR spill(s)",
        "2 SGPR spill(s)",
    ]
    assert dc.kernel_problems(ks["big_lds"], "gfx942") == ["LDS 70000 B > 65536 B"]
    assert dc.kernel_problems(ks["big_lds"], "gfx950") == []
    assert dc.kernel_problems(dc.Kernel("k", lds=163841), "gfx950") == ["LDS 163841 B > 163840 B"]


def test_no_metadata():
    with pytest.raises(dc.MetadataError):
        dc.parse_metadata("Displaying notes found in: .note.gnu.build-id\n")
    assert dc.parse_metadata("amdhsa.kernels:  []\n") == []


def test_mnemonics(data_dir: Path):
    found = dc.mnemonics((data_dir / "objdump_gfx942.txt").read_text())
    assert "v_mfma_f32_32x32x8_f16" in found and "s_endpgm" in found
    assert "file" not in found and "Disassembly" not in found
    assert dc.has_instruction(found, "v_lshlrev_b32")  # printed as v_lshlrev_b32_e32
    assert not dc.has_instruction(found, "v_mfma_f32_32x32x16_f16")


def test_shorten_and_names():
    wrapped = (
        "void ck_tile::kentry<256, 1, ck_tile::TileCopyKernel<ck_tile::CopyShape<_Float16, 256, 2>,"
        " true>, _Float16 const*, _Float16*, int, int>(_Float16 const*, _Float16*, int, int)"
    )
    assert dc.shorten(wrapped) == "TileCopyKernel<CopyShape<_Float16, 256, 2>, true>"
    deep = "void ck_tile::G<ck_tile::P<ck_tile::Q<" + "x" * 80 + ">>, ck_tile::E<int>>(int)"
    assert dc.shorten(deep) == "G<P<Q<...>>, E<int>>"
    assert dc.shorten("void (anonymous namespace)::k<1>(int*)") == "k<1>"
    assert len(dc.shorten("k" * 200)) == 80
    assert dc.split_name(Path("device/tile_example_gemm_basic.gfx950.co")) == (
        "tile_example_gemm_basic",
        "gfx950",
    )
    assert dc.split_name(Path("device/readme.txt")) is None


def test_unbundle():
    elf = b"\x7fELF-amdgpu"
    host = b""
    triples = [b"host-x86_64-unknown-linux-gnu", b"hipv4-amdgcn-amd-amdhsa--gfx942"]
    header = len(dc.BUNDLE_MAGIC) + 8 + sum(24 + len(t) for t in triples)
    blob = dc.BUNDLE_MAGIC + struct.pack("<Q", 2)
    blob += struct.pack("<QQQ", header, len(host), len(triples[0])) + triples[0]
    blob += struct.pack("<QQQ", header, len(elf), len(triples[1])) + triples[1]
    blob += elf
    assert dc.unbundle(blob) == [(triples[1].decode(), elf)]


def test_missing_code_objects():
    assert dc.missing_code_objects([("a", "gfx942")], {"a": ["gfx942", "gfx950"]}) == [
        ("a", "gfx950")
    ]


# ---- with a real code object, when clang can make one ----------------------------------------

CLANG = shutil.which("clang++-22") or find_versioned_tool("clang++")


def _compile(src: Path, out: Path, arch: str, *defines: str) -> bool:
    cmd = [
        str(CLANG), "-x", "hip", f"--offload-arch={arch}", "--offload-device-only",
        "--no-gpu-bundle-output", "-nogpuinc", "-nogpulib", "-O2", "-c", str(src), "-o", str(out),
        *defines,
    ]  # fmt: skip
    return subprocess.run(cmd, capture_output=True, check=False).returncode == 0


@pytest.fixture
def device_dir(tmp_path: Path, data_dir: Path) -> Path:
    if CLANG is None:
        pytest.skip("no clang++ to compile an AMDGPU code object")
    out = tmp_path / "device"
    out.mkdir()
    if not _compile(data_dir / "tiny_kernels.hip", out / "tiny.gfx942.co", "gfx942"):
        pytest.skip(f"{CLANG} cannot compile for amdgcn (no AMDGPU target in this LLVM)")
    return out


def _tools() -> tuple[str, str | None, str | None]:
    readelf = find_versioned_tool("llvm-readelf")
    if readelf is None:
        pytest.skip("no llvm-readelf")
    return readelf, find_versioned_tool("llvm-objdump"), find_versioned_tool("llvm-cxxfilt")


def test_real_code_object_passes(device_dir: Path, capsys):
    readelf, objdump, cxxfilt = _tools()
    target = Target(
        name="tiny", source=Path("x"), require_instructions={None: ("global_load_dword",)}
    )
    rc = check_device_dir(
        UI(plain=True), device_dir, targets=[target], archs=["gfx942"], target_globs=[],
        readelf=readelf, objdump=objdump, cxxfilt=cxxfilt, report=device_dir / "r.json",
    )  # fmt: skip
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "rotate_through_lds<256> " in out  # demangled, without the parameter list
    assert "2 kernel(s) in 1 code object(s)" in out


def test_real_code_object_missing_instruction(device_dir: Path, capsys):
    readelf, objdump, cxxfilt = _tools()
    if objdump is None:
        pytest.skip("no llvm-objdump")
    target = Target(
        name="tiny", source=Path("x"), require_instructions={None: ("v_mfma_f32_32x32x8_f16",)}
    )
    rc = check_device_dir(
        UI(plain=True), device_dir, targets=[target], archs=["gfx942"], target_globs=[],
        readelf=readelf, objdump=objdump, cxxfilt=cxxfilt,
    )  # fmt: skip
    assert rc == 1
    assert "missing instruction v_mfma_f32_32x32x8_f16" in capsys.readouterr().out


def test_real_code_object_with_scratch_fails(device_dir: Path, data_dir: Path, capsys):
    readelf, objdump, cxxfilt = _tools()
    co = device_dir / "scratchy.gfx942.co"
    assert _compile(data_dir / "tiny_kernels.hip", co, "gfx942", "-DWITH_SCRATCH")
    rc = check_device_dir(
        UI(plain=True), device_dir, targets=[], archs=["gfx942"], target_globs=["scratchy"],
        readelf=readelf, objdump=objdump, cxxfilt=cxxfilt,
    )  # fmt: skip
    out = capsys.readouterr().out
    assert rc == 1
    assert "uses_scratch" in out and "scratch" in out and "1 kernel(s) over budget" in out
