"""Resource budgets of the device code: registers, spills, scratch and LDS of every kernel.

The code objects checked are the hip build's own: those clang bundled into each binary of the
hip-cpu build dirs (``nox -s build -- --backend hip``; the section ``.hip_fatbin`` holds one clang
offload bundle per translation unit, each with a code object per arch), so each kernel is compiled
once per arch for both the binaries and this check. A binary is checked in every build dir it has
(the transposed-C variants, the per-arch fp8 builds), each for the arch(s) that dir is run on. For
each code object, the YAML of the ``NT_AMDGPU_METADATA`` note (``llvm-readelf --notes``) gives each
kernel's VGPRs, AGPRs, SGPRs, spills, scratch (``.private_segment_fixed_size``) and static LDS
(``.group_segment_fixed_size``).

A kernel fails when it uses scratch, spills, or needs more LDS than its arch has (the arch
table), or when its registers and LDS leave fewer blocks per CU than its entry point asks for: the
``MinBlockPerCu`` of ``ck_tile::kentry<MaxThreadPerBlock, MinBlockPerCu, ...>`` (``make_kernel``'s
launch bounds), read from the mangled name (:attr:`Kernel.blocks_per_cu`). A target's
``device_check.require_instructions`` lists mnemonics its code objects must contain (in
``llvm-objdump -d``), and ``device_check.min_waves_per_simd`` the occupancy its kernels' registers
must allow (:attr:`Kernel.waves_per_simd`). :func:`check_dir` checks a folder of
``<target>.<arch>.co`` files instead (a device-only compile's, the tests').
"""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from rich.console import Console
from rich.table import Table

from ck_tile_nox import archs, build, cases, discovery
from ck_tile_nox.matrix import BuildDir, entries, globs, matches

BUNDLE_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
_FIELDS = ("vgpr", "agpr", "sgpr", "vgpr_spill", "sgpr_spill", "scratch", "lds")
# ck_tile::kentry<MaxThreadPerBlock, MinBlockPerCu, ...> in the Itanium mangling
_KENTRY = re.compile(r"7ck_tile6kentryILi(\d+)ELi(\d+)E")
SIMDS_PER_CU = 4  # CDNA3/CDNA4: a block's waves are spread over the CU's 4 SIMDs
WAVE = 64
_SUFFIXES = ("", "_e32", "_e64", "_sdwa", "_dpp", "_e64_dpp")


def _lds_bytes(arch: str) -> int:
    """The arch's LDS per workgroup, which is also its LDS per CU (the arch table; 64 KiB else)."""
    return archs.BY_NAME[arch].lds_bytes if arch in archs.BY_NAME else 65536


@dataclass
class Kernel:
    name: str
    vgpr: int = 0
    agpr: int | None = None
    sgpr: int = 0
    vgpr_spill: int = 0
    sgpr_spill: int = 0
    scratch: int = 0
    lds: int = 0
    max_threads: int = 0  # .max_flat_workgroup_size: the largest block the kernel was built for
    problems: list[str] = field(default_factory=list)

    @property
    def requested_blocks_per_cu(self) -> int | None:
        """The ``MinBlockPerCu`` of a ``ck_tile::kentry`` entry point, else None."""
        m = _KENTRY.search(self.name)
        return int(m.group(2)) if m else None

    @property
    def registers(self) -> int:
        """VGPRs + AGPRs a wave allocates on CDNA3/CDNA4: the AGPRs start at the VGPR count
        rounded up to 4, and the total is allocated in granules of 8."""
        total = -(-self.vgpr // 4) * 4 + (self.agpr or 0)
        return -(-total // 8) * 8

    @property
    def waves_per_simd(self) -> int:
        """Waves of this kernel one SIMD holds as far as registers go (512 per lane; at most 8)."""
        return min(8, 512 // self.registers) if self.registers else 8

    def blocks_per_cu(self, arch: str) -> int:
        """Blocks of the largest size that one CU holds at once as far as registers (4 SIMDs of
        :attr:`waves_per_simd` waves) and LDS (the arch's, per CU) go."""
        waves = max(1, -(-self.max_threads // WAVE))
        by_registers = SIMDS_PER_CU * self.waves_per_simd // waves
        lds_per_cu = _lds_bytes(arch)
        return min(by_registers, lds_per_cu // self.lds) if self.lds else by_registers

    def check(self, arch: str, min_waves: int | None = None) -> Kernel:
        limit = _lds_bytes(arch)
        asked, blocks = self.requested_blocks_per_cu, self.blocks_per_cu(arch)
        occupancy_low = asked is not None and blocks < asked
        blocks_note = (
            f"{blocks} block(s) of {self.max_threads} threads per CU < the {asked} it is built for "
            f"({self.registers} registers, LDS {self.lds} B)"
        )
        low = min_waves is not None and self.waves_per_simd < min_waves
        waves, regs = self.waves_per_simd, self.registers
        occupancy = f"{waves} wave(s) per SIMD < {min_waves} ({regs} registers)"
        self.problems = [
            *([f"scratch {self.scratch} B"] if self.scratch else []),
            *([f"{self.vgpr_spill} VGPR spill(s)"] if self.vgpr_spill else []),
            *([f"{self.sgpr_spill} SGPR spill(s)"] if self.sgpr_spill else []),
            *([f"LDS {self.lds} B > {limit} B"] if self.lds > limit else []),
            *([occupancy] if low else []),
            *([blocks_note] if occupancy_low else []),
        ]
        return self


def parse_notes(text: str) -> tuple[list[Kernel], str | None]:
    """The kernels and the arch (``amdhsa.target``) of ``llvm-readelf --notes`` output."""
    lines = text.splitlines()
    start = next((i for i, ln in enumerate(lines) if ln.strip() == "---"), None)
    if start is None:
        raise ValueError("no AMDGPU metadata in the notes")
    end = next((i for i in range(start, len(lines)) if lines[i].strip() == "..."), len(lines))
    doc: dict[str, Any] = yaml.safe_load("\n".join(lines[start + 1 : end])) or {}
    if "amdhsa.kernels" not in doc:
        raise ValueError("no amdhsa.kernels in the AMDGPU metadata")
    keys = {f: f".{f}_count" for f in _FIELDS[:5]}
    keys |= {"scratch": ".private_segment_fixed_size", "lds": ".group_segment_fixed_size"}
    keys |= {"max_threads": ".max_flat_workgroup_size"}
    kernels = [
        Kernel(k.get(".name", "?"), **{f: k[key] for f, key in keys.items() if key in k})
        for k in doc["amdhsa.kernels"] or []
    ]
    target = str(doc.get("amdhsa.target", "")).rsplit("-", 1)[-1].split(":")[0] or None
    return kernels, target


def mnemonics(disassembly: str) -> set[str]:
    """The instruction mnemonics in ``llvm-objdump -d`` output."""
    return set(re.findall(r"^\s+([a-z][a-z0-9_.]*)(?=\s|$)", disassembly, re.MULTILINE))


def unbundle(data: bytes) -> list[tuple[str, bytes]]:
    """The ``(triple, bytes)`` AMDGPU entries of an uncompressed clang offload bundle."""
    if not data.startswith(BUNDLE_MAGIC):
        return []
    pos = len(BUNDLE_MAGIC)
    (count,) = struct.unpack_from("<Q", data, pos)
    pos, out = pos + 8, []
    for _ in range(count):
        offset, size, tlen = struct.unpack_from("<QQQ", data, pos)
        triple = data[pos + 24 : pos + 24 + tlen].decode("ascii", "replace")
        pos += 24 + tlen
        if "amdgcn" in triple and size:
            out.append((triple, data[offset : offset + size]))
    return out


def _collapse(name: str, keep: int) -> str:
    """``name`` with template arguments nested deeper than ``keep`` levels as ``<...>``."""
    out, depth = [], 0
    for ch in name:
        if ch == "<":
            depth += 1
            out += [ch] if depth <= keep else ["<..."] if depth == keep + 1 else []
        elif ch == ">" and depth:
            out += [ch] if depth <= keep + 1 else []
            depth -= 1
        elif depth <= keep:
            out.append(ch)
    return "".join(out)


def _split(name: str) -> tuple[str, list[str]]:
    """``f<a, b<c>>(int)`` -> (``f<a, b<c>>``, [``a``, ``b<c>``])."""
    depth, cur = 0, ""
    args: list[str] = []
    for i, ch in enumerate(name):
        if ch == "(" and depth == 0 and i:
            return name[:i], args
        depth += (ch in "<(") - (ch in ">)")
        if (ch == "," and depth == 1) or (ch == ">" and depth == 0):
            args, cur = [*args, cur.strip()], ""
        elif depth >= 1 and not (ch == "<" and depth == 1):
            cur += ch
    return name, args


def shorten(name: str, limit: int = 80) -> str:
    """A readable demangled kernel name: no ``void``, ``ck_tile::`` or parameter list, the
    kernel class instead of the ``kentry<...>`` wrapper, deep template arguments as ``<...>``."""
    name = (
        name.removeprefix("void ").replace("ck_tile::", "").replace("(anonymous namespace)::", "")
    )
    name, args = _split(name)
    if name.split("<")[0].endswith("kentry") and len(args) >= 3:
        name = args[2]
    keep = name.count("<")
    while len(name) > limit and keep > 0:
        keep -= 1
        name = _collapse(name, keep)
    return name if len(name) <= limit else name[: limit - 3] + "..."


def _out(cmd: list[str], stdin: str | None = None) -> str:
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=False).stdout


def inspect(
    path: Path,
    arch: str,
    readelf: str,
    objdump: str | None,
    min_waves: int | None = None,
    seen: set[str] | None = None,
):
    """``(kernels, problems)`` of one code object; its instructions' mnemonics are added to
    ``seen`` when given (required instructions and kernels are a target's, checked over all its
    code objects by :func:`check_objects`)."""
    data = path.read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        if data.startswith(BUNDLE_MAGIC):
            entries = [e for e in unbundle(data) if arch in e[0]] or unbundle(data)
            if not entries:
                return [], ["offload bundle without an AMDGPU code object"]
            path = Path(tmp) / "device.co"
            path.write_bytes(entries[0][1])
        elif not data.startswith(b"\x7fELF"):
            return [], ["neither an ELF file nor an uncompressed offload bundle"]
        try:
            kernels, meta_arch = parse_notes(_out([readelf, "--notes", str(path)]))
        except ValueError as exc:
            return [], [str(exc)]
        problems = []
        if meta_arch and meta_arch != arch:
            problems.append(f"metadata says {meta_arch}, file name says {arch}")
        if seen is not None:
            seen |= mnemonics(_out([objdump or "llvm-objdump", "-d", f"--mcpu={arch}", str(path)]))
    return [k.check(arch, min_waves) for k in kernels], problems


def _blocks_column(k: Kernel, arch: str) -> str:
    """Blocks per CU the kernel allows, and in parentheses the number it is built for."""
    asked = k.requested_blocks_per_cu
    return f"{k.blocks_per_cu(arch)}" + (f" ({asked})" if asked is not None else "")


def demangle(names: list[str], cxxfilt: str | None) -> dict[str, str]:
    out = _out([cxxfilt or "c++filt"], "\n".join(names)).splitlines() if names else []
    return dict(zip(names, out, strict=True)) if len(out) == len(names) else {n: n for n in names}


def engine_mnemonic(mnemonic: str) -> str:
    """A mnemonic as hip-cpu's instruction table names it: without _e32, _e64, _sdwa, _dpp."""
    for suffix in ("_e32", "_e64", "_sdwa", "_dpp"):
        mnemonic = mnemonic.removesuffix(suffix)
    return mnemonic


def coverage_line(seen: set[str], implemented: set[str], objects: int, arch_list: Sequence[str]):
    """hip-cpu's coverage of the code objects' instructions, and the missing ones."""
    distinct = {engine_mnemonic(m) for m in seen}
    missing = sorted(distinct - implemented)
    line = (
        f"hip-cpu coverage: {len(distinct)} distinct instructions in {objects} code object(s) "
        f"({', '.join(arch_list)}); hip-cpu implements {len(distinct) - len(missing)}"
    )
    return line + (f"; missing ({len(missing)}): {', '.join(missing)}" if missing else ""), missing


@dataclass
class CodeObject:
    """One code object to check: the target it belongs to, its arch, the build variant (a hip
    build dir's axes, e.g. ``transposed_c_distribution_1``; empty for a plain build) and its
    path. A target compiled from several translation units has one per unit and arch."""

    target: str
    arch: str
    path: Path
    variant: str = ""


def objects_in_dir(device: Path) -> list[CodeObject]:
    """The ``<target>.<arch>.co`` files of ``device``."""
    out = []
    for path in sorted(device.glob("*.co")):
        tname, _, arch = path.stem.rpartition(".")
        out.append(CodeObject(tname, arch, path))
    return out


def elf_section(data: bytes, name: str) -> bytes | None:
    """The contents of the section ``name`` of a 64-bit little-endian ELF file, or None."""
    if not data.startswith(b"\x7fELF") or data[4] != 2 or data[5] != 1:
        return None
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)

    def header(k: int) -> tuple[int, int, int]:  # sh_name, sh_offset, sh_size
        base = shoff + k * shentsize
        return (
            struct.unpack_from("<I", data, base)[0],
            *struct.unpack_from("<QQ", data, base + 24),
        )

    _, str_off, _ = header(shstrndx)
    for k in range(shnum):
        name_off, off, size = header(k)
        end = data.index(b"\0", str_off + name_off)
        if data[str_off + name_off : end].decode("ascii", "replace") == name:
            return data[off : off + size]
    return None


def fatbin_code_objects(binary: Path, arch: str) -> list[bytes]:
    """The ``arch`` code objects of a hip build's binary: one per clang offload bundle (one per
    translation unit with device code) in its ``.hip_fatbin`` section."""
    fatbin = elf_section(binary.read_bytes(), ".hip_fatbin") or b""
    out, pos = [], fatbin.find(BUNDLE_MAGIC)
    while pos >= 0:
        out += [co for triple, co in unbundle(fatbin[pos:]) if triple.endswith(f"--{arch}")]
        pos = fatbin.find(BUNDLE_MAGIC, pos + len(BUNDLE_MAGIC))
    return out


def objects_in_build(binary: Path, arch: str, variant: str, into: Path) -> list[CodeObject]:
    """The ``arch`` code objects of ``binary``, written to ``into`` as
    ``<target>[-<variant>].<arch>.<n>.co``."""
    stem = binary.name + (f"-{variant}" if variant else "")
    into.mkdir(parents=True, exist_ok=True)
    out = []
    for k, data in enumerate(fatbin_code_objects(binary, arch)):
        path = into / f"{stem}.{arch}.{k}.co"
        path.write_bytes(data)
        out.append(CodeObject(binary.name, arch, path, variant))
    return out


def check_dir(
    device: Path,
    targets: list[cases.Target],
    arch_list: Sequence[str],
    wanted: list[str],
    tools: dict[str, str | None],
    report: Path | None = None,
    implemented: set[str] | None = None,
) -> int:
    """Check every ``<target>.<arch>.co`` in ``device`` (:func:`check_objects`)."""
    objects = [
        o for o in objects_in_dir(device) if o.arch in arch_list and matches(o.target, wanted)
    ]
    code = check_objects(objects, targets, arch_list, wanted, tools, report, implemented)
    if not objects:
        print(f"FAIL  no code objects in {device}")
        return 1
    return code


def check_objects(
    objects: list[CodeObject],
    targets: list[cases.Target],
    arch_list: Sequence[str],
    wanted: list[str],
    tools: dict[str, str | None],
    report: Path | None = None,
    implemented: set[str] | None = None,
) -> int:
    """Check the code objects; print the table (and, given hip-cpu's ``implemented``
    instructions, its coverage line); return the exit status. A target's required instructions
    are looked for across all its code objects of an arch and variant, and a kernel that
    several translation units compile is listed once."""
    by_name = {t.name: t for t in targets}
    rows, problems, data = [], [], []
    seen: set[str] | None = set() if implemented is not None else None
    groups: dict[tuple[str, str, str], list[CodeObject]] = {}
    for o in objects:
        groups.setdefault((o.target, o.variant, o.arch), []).append(o)
    for (tname, variant, arch), members in sorted(groups.items()):
        target = by_name.get(tname)
        required = target.instructions_for(arch) if target else []
        min_waves = target.device_check.min_waves_per_simd if target else None
        label = f"{tname} {arch}" + (f" {variant}" if variant else "")
        kernels: dict[str, Kernel] = {}
        found_all: set[str] = set()
        for o in members:
            found: set[str] = set()
            listed = found if required or seen is not None else None  # objdump only when needed
            ks, fails = inspect(
                o.path, arch, tools["readelf"] or "", tools["objdump"], min_waves, listed
            )
            problems += [f"{label}: {p}" for p in fails]
            found_all |= found
            for k in ks:
                kernels.setdefault(k.name, k)
            data.append({"path": str(o.path), "target": tname, "arch": arch, "variant": variant,
                         "problems": fails, "kernels": [vars(k) for k in ks]})  # fmt: skip
        if seen is not None:
            seen |= found_all
        missing = [m for m in required if not any(m + s in found_all for s in _SUFFIXES)]
        problems += [f"{label}: missing instruction {m}" for m in missing]
        names = demangle(list(kernels), tools["cxxfilt"])
        if not kernels:
            problems.append(f"{label}: no kernels")
        for k in kernels.values():
            rows.append(
                (
                    tname + (f" ({variant})" if variant else ""),
                    arch,
                    shorten(names[k.name]),
                    k.vgpr,
                    k.agpr,
                    k.sgpr,
                    k.scratch,
                    f"{k.vgpr_spill}/{k.sgpr_spill}",
                    k.lds,
                    k.waves_per_simd,
                    _blocks_column(k, arch),
                    "; ".join(k.problems) or "ok",
                )
            )
            problems += [f"{label} {shorten(names[k.name])}: {p}" for p in k.problems]
    for t in targets:
        for arch in arch_list:
            have = any(d["target"] == t.name and d["arch"] == arch for d in data)
            if (
                matches(t.name, wanted)
                and t.valid_on(arch)
                and t.instructions_for(arch)
                and not have
            ):
                problems.append(f"{t.name} {arch}: no code object (it has required instructions)")
    table = Table(title="device code", title_justify="left")
    for col in (
        "target",
        "arch",
        "kernel",
        "VGPRs",
        "AGPRs",
        "SGPRs",
        "scratch B",
        "spills v/s",
        "LDS B",
        "waves/SIMD",
        "blocks/CU",
        "status",
    ):
        table.add_column(col)
    for row in rows:
        table.add_row(*map(str, row), style="bold red" if row[-1] != "ok" else None)
    Console(highlight=False, width=200).print(table)
    for p in problems:
        print(f"FAIL  {p}")
    coverage: dict[str, Any] = {}
    if implemented is not None and seen is not None:
        line, missing = coverage_line(seen, implemented, len(data), arch_list)
        print(line)
        coverage = {"seen": sorted({engine_mnemonic(m) for m in seen}), "missing": missing}
    if report:
        report.parent.mkdir(parents=True, exist_ok=True)
        report.write_text(
            json.dumps(
                {"code_objects": data, "problems": problems, "hip_cpu_coverage": coverage},
                indent=1,
            )
        )
    print(
        f"device check: {len(rows)} kernel(s) in {len(data)} code object(s); "
        f"{len(problems)} problem(s)"
    )
    return 1 if problems else 0


def hip_builds(
    targets: list[cases.Target], arch_list: Sequence[str], wanted: list[str], root: Path
) -> dict[BuildDir, list[tuple[str, str]]]:
    """The hip-cpu build dirs of the wanted targets (the dirs ``nox -s build -- --backend hip``
    builds), each with its ``(target, arch)`` pairs: a shared dir serves each of its archs."""
    out: dict[BuildDir, list[tuple[str, str]]] = {}
    for t in targets:
        if not matches(t.name, wanted):
            continue
        for bdir in entries(t, arch_list, "hip", root, runtime="cpu"):
            out.setdefault(bdir, []).append((t.name, bdir.arch))
    return out


def main(opts: Any) -> int:
    """Build the wanted targets' hip-cpu build dirs for ``opts.archs`` (default: the arch
    table; a no-op after ``nox -s build -- --backend hip``) and check their code objects."""
    arch_list = discovery.parse_archs(opts.archs) if opts.archs else archs.ARCH_NAMES
    try:
        targets = cases.load_targets(Path.cwd())
        found = build.require("llvm-readelf-22|llvm-readelf", "llvm-objdump-22|llvm-objdump")
    except (build.ToolError, cases.CasesError) as exc:
        print(f"error: {exc}")
        return 2
    compiler = discovery.find_compiler("hip", runtime="cpu")
    if compiler is None:
        print(f"error: no clang++-22 for the hip build; to install it: {build.INSTALL}")
        return 2
    tools = {
        "readelf": found["llvm-readelf-22"],
        "objdump": found["llvm-objdump-22"],
        "cxxfilt": discovery.find_versioned_tool("llvm-cxxfilt"),
    }
    root = opts.build_root.resolve()
    out = root / "device-check"
    shutil.rmtree(out, ignore_errors=True)
    objects, failed, implemented = [], [], None
    for bdir, pairs in hip_builds(targets, arch_list, globs(opts.targets), root).items():
        names = list(dict.fromkeys(t for t, _ in pairs))
        res = build.build(Path.cwd(), bdir, names, compiler=compiler.path, jobs=int(opts.jobs or 2))
        failed += [f"{bdir.name}: {t}" for t in res.failed]
        if implemented is None and bdir.runtime_from:  # informational: no tool, no coverage
            implemented = hip_cpu_instructions(bdir.runtime_from.path)
        for tname, arch in pairs:
            binary = bdir.path / "bin" / tname
            if res.ok(tname) and binary.is_file():
                objects += objects_in_build(binary, arch, bdir.variant, out / bdir.name)
    if failed:
        print(f"FAILED building: {', '.join(failed)}")
        return 1
    report = root / "reports" / "device_check.json"
    return check_objects(
        objects, targets, arch_list, globs(opts.targets), tools, report, implemented
    )


def hip_cpu_instructions(build_dir: Path) -> set[str] | None:
    """The instructions hip-cpu implements (its tool's list), or None when it was not built."""
    tool = build_dir / "bin" / "hip_cpu_instructions"
    if not tool.is_file():
        return None
    return set(_out([str(tool)]).split())
