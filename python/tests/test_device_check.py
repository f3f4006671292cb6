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


def test_hip_builds():
    from ck_tile_nox.device_check import hip_builds

    ts = [Target(name="tile_a"), Target(name="tile_b", archs=["gfx950"]), Target(name="other"),
          Target(name="tile_t", matrix={"CK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION": [0, 1]}),
          Target(name="tile_f8", fp8=True)]  # fmt: skip
    got = hip_builds(ts, ["gfx942", "gfx950"], ["tile_*"], Path("/b"))
    by_dir = {b.name: pairs for b, pairs in got.items()}
    # one dir serves both archs; a transposed-C target in both of its dirs; fp8 once per encoding
    assert by_dir == {
        "hip-cpu": [("tile_a", "gfx942"), ("tile_a", "gfx950"), ("tile_b", "gfx950")],
        "hip-cpu-transposed_c_distribution_0": [("tile_t", "gfx942"), ("tile_t", "gfx950")],
        "hip-cpu-transposed_c_distribution_1": [("tile_t", "gfx942"), ("tile_t", "gfx950")],
        "hip-cpu-gfx942": [("tile_f8", "gfx942")],
        "hip-cpu-gfx950": [("tile_f8", "gfx950")],
    }
    assert {b.variant for b in got} == {"", "transposed_c_distribution_0",
                                        "transposed_c_distribution_1"}  # fmt: skip


def test_code_objects_of_a_hip_build(tmp_path: Path, data_dir: Path, tools, capsys):
    """The code objects clang bundles into a hip build's object (one per arch), checked."""
    from ck_tile_nox.device_check import check_objects, elf_section, objects_in_build

    clang = need("clang++-22")
    repo = Path(__file__).resolve().parents[2]
    binary = tmp_path / "tiny"
    cmd = [clang, "-x", "hip", "--offload-arch=gfx942", "--offload-arch=gfx950", "-nogpuinc",
           "-nogpulib", f"-I{repo / 'library' / 'hip_cpu' / 'include'}", "-include",
           "hip/hip_runtime.h", "-O2", "-c", str(data_dir / "tiny_kernels.hip"), "-o", str(binary)]  # fmt: skip
    subprocess.run(cmd, check=True)
    assert elf_section(binary.read_bytes(), ".no_such_section") is None
    objects = [o for a in ("gfx942", "gfx950") for o in objects_in_build(binary, a, "", tmp_path)]
    assert [(o.target, o.arch, o.path.name) for o in objects] == [
        ("tiny", "gfx942", "tiny.gfx942.0.co"),
        ("tiny", "gfx950", "tiny.gfx950.0.co"),
    ]
    assert objects_in_build(binary, "gfx90a", "", tmp_path) == []
    ok = Target(name="tiny", device_check={"require_instructions": ["global_load_dword"]})
    assert check_objects(objects, [ok], ["gfx942", "gfx950"], [], tools) == 0
    assert "4 kernel(s) in 2 code object(s); 0 problem(s)" in capsys.readouterr().out
    # a kernel that two translation units compile is listed once
    assert check_objects([*objects, objects[0]], [ok], ["gfx942", "gfx950"], [], tools) == 0
    assert "4 kernel(s) in 3 code object(s); 0 problem(s)" in capsys.readouterr().out
    mfma = Target(name="tiny", device_check={"require_instructions": ["v_mfma_f32_32x32x8_f16"]})
    assert check_objects(objects, [mfma], ["gfx942", "gfx950"], [], tools) == 1
    assert "tiny gfx950: missing instruction v_mfma_f32_32x32x8_f16" in capsys.readouterr().out


def test_blocks_per_cu_against_the_launch_bounds():
    from ck_tile_nox.device_check import Kernel

    # ck_tile::kentry<256, 2, K>: 2 blocks of 4 waves per CU asked for
    name = "_ZN7ck_tile6kentryILi256ELi2EN12_GLOBAL__N_11KEJEEEvDpT2_"
    fits = Kernel(name, vgpr=128, agpr=128, max_threads=256, lds=32768)
    assert fits.requested_blocks_per_cu == 2
    assert (
        fits.blocks_per_cu("gfx942") == 2
    )  # 2 waves per SIMD x 4 SIMDs / 4 waves; 2 x 32 KiB of LDS
    assert fits.check("gfx942").problems == []
    # one register more: 1 wave per SIMD, 1 block
    regs = Kernel(name, vgpr=129, agpr=128, max_threads=256).check("gfx942")
    assert regs.blocks_per_cu("gfx942") == 1
    assert regs.problems == [
        "1 block(s) of 256 threads per CU < the 2 it is built for (264 registers, LDS 0 B)"
    ]
    # LDS: 40 KiB leaves one block on gfx942's 64 KiB, four on gfx950's 160 KiB
    lds = Kernel(name, vgpr=64, max_threads=256, lds=40960)
    assert lds.blocks_per_cu("gfx942") == 1 and lds.check("gfx942").problems != []
    assert lds.blocks_per_cu("gfx950") == 4 and lds.check("gfx950").problems == []
    # a 64-thread block: one wave, so 2 blocks need 1 wave per SIMD only
    small = Kernel("_ZN7ck_tile6kentryILi64ELi2EN1KEJEEEvDpT2_", vgpr=512, max_threads=64)
    assert small.blocks_per_cu("gfx942") == 4 and small.check("gfx942").problems == []
    # not a kentry: nothing asked, nothing checked
    plain = Kernel("add_one", vgpr=512, max_threads=1024)
    assert plain.requested_blocks_per_cu is None and plain.check("gfx942").problems == []


def test_launch_bounds_reach_the_compiler_and_the_check(
    tmp_path: Path, data_dir: Path, tools, capsys
):
    """kentry<256, 2, ...> makes clang keep a kernel within 2 waves per SIMD (256 registers); the
    check fails a kernel whose LDS leaves fewer blocks per CU than it asks for."""
    from ck_tile_nox.device_check import parse_notes

    clang = need("clang++-22")
    repo = Path(__file__).resolve().parents[2]
    found = {}
    for blocks in (1, 2):
        out = tmp_path / f"b{blocks}" / "bounds.gfx942.co"
        out.parent.mkdir()
        cmd = [clang, "-x", "hip", "-std=c++20", "--offload-arch=gfx942", "--offload-device-only",
               "--no-gpu-bundle-output", "-nogpuinc", "-nogpulib", "-O3", "-c", "-DCK_TILE_BACKEND_HIP=1",
               "-DCK_TILE_DEVICE_CODE_ONLY=1", f"-DMIN_BLOCKS={blocks}", f"-I{repo / 'include'}",
               str(data_dir / "kentry_bounds.hip"), "-o", str(out)]  # fmt: skip
        subprocess.run(cmd, capture_output=True, check=True)
        notes = subprocess.run([tools["readelf"] or "", "--notes", str(out)], capture_output=True,
                               text=True, check=True).stdout  # fmt: skip
        found[blocks] = {
            ("Live" if "LiveValues" in k.name else "Lds"): k for k in parse_notes(notes)[0]
        }
    assert found[1]["Live"].registers > 256  # unbounded
    assert found[2]["Live"].registers <= 256  # kept within 2 waves per SIMD
    assert found[2]["Live"].requested_blocks_per_cu == 2
    assert check_dir(tmp_path / "b2", [], ["gfx942"], ["bounds"], tools) == 1
    fails = [ln for ln in capsys.readouterr().out.splitlines() if "per CU" in ln and "FAIL" in ln]
    assert len(fails) == 1 and "LdsHalf" in fails[0]
    assert "1 block(s) of 256 threads per CU < the 2 it is built for" in fails[0]


def test_hip_cpu_coverage_line():
    from ck_tile_nox.device_check import coverage_line, engine_mnemonic

    assert (
        engine_mnemonic("v_add_u32_e32") == "v_add_u32"
        and engine_mnemonic("v_or_b32_sdwa") == "v_or_b32"
    )
    seen = {"v_add_u32_e32", "v_add_u32_e64", "s_endpgm", "v_cos_f32_e32", "v_mov_b32_dpp"}
    line, missing = coverage_line(
        seen, {"v_add_u32", "s_endpgm", "v_mov_b32"}, 3, ["gfx942", "gfx950"]
    )
    assert missing == ["v_cos_f32"]
    assert line == (
        "hip-cpu coverage: 4 distinct instructions in 3 code object(s) (gfx942, gfx950); "
        "hip-cpu implements 3; missing (1): v_cos_f32"
    )
    assert (
        coverage_line(
            seen - {"v_cos_f32_e32"}, {"v_add_u32", "s_endpgm", "v_mov_b32"}, 1, ["gfx942"]
        )[1]
        == []
    )
