from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import need

from ck_tile_nox.cases import Target
from ck_tile_nox.device_check import check_dir, mnemonics, parse_notes, shorten, unbundle


def test_parse_notes_and_budgets(data_dir: Path):
    kernels, arch = parse_notes((data_dir / "readelf_notes_gfx942.txt").read_text())
    assert arch == "gfx942"
    by_name = {k.name: k.check(arch) for k in kernels}
    assert by_name["add_one"].problems == []
    assert by_name["spills_and_scratch"].problems == [
        "scratch 272 B",
        "5 VGPR spill(s)",
        "2 SGPR spill(s)",
    ]
    assert by_name["big_lds"].problems == ["LDS 70000 B > 65536 B"]
    assert by_name["big_lds"].check("gfx950").problems == []  # 160 KiB there (the arch table)


def test_no_metadata():
    with pytest.raises(ValueError, match="no AMDGPU metadata"):
        parse_notes("Displaying notes found in: .note\n")


def test_mnemonics(data_dir: Path):
    found = mnemonics((data_dir / "objdump_gfx942.txt").read_text())
    assert "s_endpgm" in found


def test_shorten():
    name = "void ck_tile::kentry<256, 1, ck_tile::Gemm<ck_tile::A<int, ck_tile::B<3>>>>(int)"
    assert shorten(name) == "Gemm<A<int, B<3>>>"
    assert shorten(name, limit=10) == "Gemm<...>"


def test_unbundle():
    triple = b"hipv4-amdgcn-amd-amdhsa--gfx942"
    header = b"__CLANG_OFFLOAD_BUNDLE__" + (1).to_bytes(8, "little")
    offset = len(header) + 24 + len(triple)
    entry = b"".join(v.to_bytes(8, "little") for v in (offset, 4, len(triple))) + triple
    assert unbundle(header + entry + b"\x7fELF") == [(triple.decode(), b"\x7fELF")]


def _compile(data_dir: Path, out: Path, *defines: str) -> None:
    clang = need("clang++-22")
    cmd = [clang, "-x", "hip", "--offload-arch=gfx942", "--offload-device-only",
           "--no-gpu-bundle-output", "-nogpuinc", "-nogpulib", "-O2", "-c",
           str(data_dir / "tiny_kernels.hip"), "-o", str(out), *defines]  # fmt: skip
    subprocess.run(cmd, check=True)


@pytest.fixture
def tools() -> dict[str, str | None]:
    return {"readelf": need("llvm-readelf-22", "llvm-readelf"),
            "objdump": need("llvm-objdump-22", "llvm-objdump"), "cxxfilt": None}  # fmt: skip


def test_real_code_objects(tmp_path: Path, data_dir: Path, tools, capsys):
    _compile(data_dir, tmp_path / "tiny.gfx942.co")
    ok = Target(name="tiny", device_check={"require_instructions": ["global_load_dword"]})
    assert check_dir(tmp_path, [ok], ["gfx942"], [], tools) == 0
    mfma = Target(name="tiny", device_check={"require_instructions": ["v_mfma_f32_32x32x8_f16"]})
    assert check_dir(tmp_path, [mfma], ["gfx942"], [], tools) == 1
    assert "missing instruction v_mfma_f32_32x32x8_f16" in capsys.readouterr().out
    _compile(data_dir, tmp_path / "scratchy.gfx942.co", "-DWITH_SCRATCH")
    assert check_dir(tmp_path, [], ["gfx942"], ["scratchy"], tools) == 1
    assert "scratch" in capsys.readouterr().out


def test_waves_per_simd():
    from ck_tile_nox.device_check import Kernel

    # AGPRs start at the VGPRs rounded up to 4; the total is allocated in granules of 8
    assert Kernel("k", vgpr=128, agpr=128).registers == 256
    assert Kernel("k", vgpr=128, agpr=128).waves_per_simd == 2
    assert Kernel("k", vgpr=129, agpr=128).registers == 264
    assert Kernel("k", vgpr=129, agpr=128).waves_per_simd == 1
    assert Kernel("k", vgpr=30).registers == 32
    assert Kernel("k", vgpr=30).waves_per_simd == 8  # at most 8 whatever the registers
    low = Kernel("k", vgpr=200, agpr=100).check("gfx942", min_waves=2)
    assert low.problems == ["1 wave(s) per SIMD < 2 (304 registers)"]
    assert Kernel("k", vgpr=200, agpr=56).check("gfx942", min_waves=2).problems == []
