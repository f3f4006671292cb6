"""Resource budgets of the device code: registers, spills, scratch and LDS of every kernel.

The device-code build (``-DCK_TILE_DEVICE_CODE_ONLY=ON``, target ``device_code_objects``) writes
``device/<target>.<arch>.co`` for every GPU target and arch. For each code object this module
reads the ``NT_AMDGPU_METADATA`` note (``llvm-readelf --notes`` prints it as YAML) and takes from
each ``amdhsa.kernels`` entry ``.name``, ``.vgpr_count``, ``.agpr_count``, ``.sgpr_count``,
``.vgpr_spill_count``, ``.sgpr_spill_count``, ``.private_segment_fixed_size`` (scratch bytes) and
``.group_segment_fixed_size`` (static LDS bytes).

A kernel fails when it uses scratch, spills any register, or needs more LDS than its arch has
(:data:`LDS_LIMITS`). A target's ``[target.device_check] require_instructions`` lists mnemonics
that its code object must contain (checked on the ``llvm-objdump -d`` disassembly, per arch).
A file that is a clang offload bundle instead of a bare ELF is unbundled first.
"""

from __future__ import annotations

import re
import struct
import subprocess
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

LDS_LIMITS = {"gfx908": 65536, "gfx90a": 65536, "gfx942": 65536, "gfx950": 163840}
DEFAULT_LDS_LIMIT = 65536
BUNDLE_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
_MNEMONIC = re.compile(r"^\s+([a-z][a-z0-9_.]*)(?:\s|$)")
_MNEMONIC_SUFFIXES = ("", "_e32", "_e64", "_sdwa", "_dpp", "_e64_dpp")


class MetadataError(Exception):
    """A code object without readable AMDGPU metadata."""


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
    # filled in by the checker
    target: str = ""
    arch: str = ""
    display: str = ""
    problems: list[str] = field(default_factory=list)

    @classmethod
    def from_fields(cls, f: Mapping[str, str]) -> Kernel:
        def num(key: str) -> int | None:
            value = f.get(key)
            try:
                return int(value, 0) if value is not None else None
            except ValueError:
                return None

        return cls(
            name=f.get(".name", "?"),
            vgpr=num(".vgpr_count") or 0,
            agpr=num(".agpr_count"),
            sgpr=num(".sgpr_count") or 0,
            vgpr_spill=num(".vgpr_spill_count") or 0,
            sgpr_spill=num(".sgpr_spill_count") or 0,
            scratch=num(".private_segment_fixed_size") or 0,
            lds=num(".group_segment_fixed_size") or 0,
        )


# ---- parsing --------------------------------------------------------------------------------


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1].encode().decode("unicode_escape")
    return value


def _put(fields: dict[str, str], text: str) -> None:
    key, sep, value = text.partition(":")
    if sep and key and value.strip():
        fields[key.strip()] = _unquote(value.strip())


def parse_metadata(text: str) -> list[dict[str, str]]:
    """The scalar fields of each ``amdhsa.kernels`` entry in ``llvm-readelf --notes`` output.

    Only the YAML this note uses is understood: a block list of mappings whose scalar values
    sit on one line; nested lists (``.args``) are skipped. Raises :class:`MetadataError` when
    the output has no ``amdhsa.kernels`` key.
    """
    lines = text.splitlines()
    start = next((i for i, ln in enumerate(lines) if ln.strip() == "amdhsa.kernels:"), None)
    if start is None:
        if re.search(r"^\s*amdhsa\.kernels:\s*\[\]\s*$", text, re.MULTILINE):
            return []
        raise MetadataError("no AMDGPU metadata (amdhsa.kernels) in the notes")
    base = _indent(lines[start])
    kernels: list[dict[str, str]] = []
    current: dict[str, str] | None = None
    dash: int | None = None
    key_indent = -1
    for line in lines[start + 1 :]:
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        ind = _indent(line)
        item = s == "-" or s.startswith("- ")
        if dash is None:
            if not (item and ind >= base):
                break
            dash = ind
        if item and ind == dash:
            current = {}
            kernels.append(current)
            rest = s[1:].lstrip()
            key_indent = ind + len(s) - len(rest)
            if rest:
                _put(current, rest)
            continue
        if ind <= dash:
            break
        if ind == key_indent and current is not None:
            _put(current, s)
    return kernels


def parse_kernels(text: str) -> list[Kernel]:
    return [Kernel.from_fields(f) for f in parse_metadata(text)]


def metadata_target(text: str) -> str | None:
    """The arch named by ``amdhsa.target`` (``amdgcn-amd-amdhsa--gfx942`` -> ``gfx942``)."""
    m = re.search(r"^\s*amdhsa\.target:\s*'?([^'\s]+)'?", text, re.MULTILINE)
    return m.group(1).rsplit("-", 1)[-1].split(":", 1)[0] if m else None


def mnemonics(disassembly: str) -> set[str]:
    """The instruction mnemonics that occur in ``llvm-objdump -d`` output."""
    found: set[str] = set()
    for line in disassembly.splitlines():
        if line.startswith(("\t", " ")):
            m = _MNEMONIC.match(line)
            if m:
                found.add(m.group(1))
    return found


def has_instruction(found: set[str], wanted: str) -> bool:
    return any(wanted + suffix in found for suffix in _MNEMONIC_SUFFIXES)


def unbundle(data: bytes) -> list[tuple[str, bytes]]:
    """The ``(triple, bytes)`` AMDGPU entries of an uncompressed clang offload bundle."""
    if not data.startswith(BUNDLE_MAGIC):
        return []
    pos = len(BUNDLE_MAGIC)
    (count,) = struct.unpack_from("<Q", data, pos)
    pos += 8
    entries = []
    for _ in range(count):
        offset, size, tlen = struct.unpack_from("<QQQ", data, pos)
        pos += 24
        triple = data[pos : pos + tlen].decode("ascii", "replace")
        pos += tlen
        if "amdgcn" in triple and size:
            entries.append((triple, data[offset : offset + size]))
    return entries


# ---- checks ---------------------------------------------------------------------------------


def lds_limit(arch: str) -> int:
    return LDS_LIMITS.get(arch, DEFAULT_LDS_LIMIT)


def kernel_problems(kernel: Kernel, arch: str) -> list[str]:
    """Why ``kernel`` fails the budget on ``arch`` (empty when it passes)."""
    problems = []
    if kernel.scratch > 0:
        problems.append(f"scratch {kernel.scratch} B")
    if kernel.vgpr_spill > 0:
        problems.append(f"{kernel.vgpr_spill} VGPR spill(s)")
    if kernel.sgpr_spill > 0:
        problems.append(f"{kernel.sgpr_spill} SGPR spill(s)")
    limit = lds_limit(arch)
    if kernel.lds > limit:
        problems.append(f"LDS {kernel.lds} B > {limit} B")
    return problems


def _collapse(name: str, keep: int) -> str:
    """Replace template arguments nested deeper than ``keep`` levels with ``...``."""
    out: list[str] = []
    depth = 0
    for ch in name:
        if ch == "<":
            depth += 1
            if depth <= keep:
                out.append(ch)
            elif depth == keep + 1:
                out.append("<...")
        elif ch == ">" and depth > 0:
            if depth <= keep + 1:
                out.append(ch)
            depth -= 1
        elif depth <= keep:
            out.append(ch)
    return "".join(out)


def _template_args(name: str) -> tuple[str, list[str]]:
    """``f<a, b<c, d>>`` -> (``f``, [``a``, ``b<c, d>``]); no arguments -> (name, [])."""
    head, sep, rest = name.partition("<")
    if not sep:
        return name, []
    args: list[str] = []
    depth, current = 1, []
    for ch in rest:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
            if depth == 0:
                break
        if ch == "," and depth == 1:
            args.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    args.append("".join(current).strip())
    return head, args


def shorten(name: str, limit: int = 80) -> str:
    """A readable form of a demangled kernel name, at most ``limit`` characters.

    Drops ``void``, ``ck_tile::`` and the parameter list; shows the kernel class of a
    ``kentry<block size, min blocks, Kernel, args...>`` wrapper instead of the wrapper; then hides
    the deepest template arguments (``<...>``) level by level until the name fits.
    """
    name = name.removeprefix("void ").replace("(anonymous namespace)::", "")
    name = name.replace("ck_tile::", "")
    depth = 0
    for i, ch in enumerate(name):  # cut the parameter list
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0 and i > 0:
            name = name[:i]
            break
    head, args = _template_args(name)
    if head.rsplit("::", 1)[-1] == "kentry" and len(args) >= 3:
        name = args[2]
    keep = name.count("<")
    while len(name) > limit and keep > 0:
        keep -= 1
        name = _collapse(name, keep)
    return name if len(name) <= limit else name[: limit - 3] + "..."


def demangle(names: Sequence[str], cxxfilt: str | None) -> dict[str, str]:
    """Demangled forms of ``names`` (unchanged when no demangler is given or it fails)."""
    if not cxxfilt or not names:
        return {n: n for n in names}
    try:
        out = subprocess.run(
            [cxxfilt], input="\n".join(names) + "\n", capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return {n: n for n in names}
    lines = out.stdout.splitlines()
    if len(lines) != len(names):
        return {n: n for n in names}
    return dict(zip(names, lines, strict=True))


@dataclass
class CodeObject:
    path: Path
    target: str
    arch: str
    kernels: list[Kernel] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and not any(k.problems for k in self.kernels)


def split_name(path: Path) -> tuple[str, str] | None:
    """``device/<target>.<arch>.co`` -> ``(target, arch)``."""
    if path.suffix != ".co":
        return None
    target, dot, arch = path.stem.rpartition(".")
    return (target, arch) if dot and target and arch else None


Runner = Callable[[Sequence[str]], str]


def _run(cmd: Sequence[str]) -> str:
    out = subprocess.run(list(cmd), capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise MetadataError(out.stderr.strip() or f"{cmd[0]} failed ({out.returncode})")
    return out.stdout


def inspect(
    path: Path,
    target: str,
    arch: str,
    *,
    readelf: str,
    objdump: str | None,
    required: Sequence[str] = (),
    run: Runner = _run,
) -> CodeObject:
    """Read one code object: its kernels, their problems, the required instructions."""
    co = CodeObject(path, target, arch)
    data = path.read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        elf = path
        if data.startswith(BUNDLE_MAGIC):
            entries = [e for e in unbundle(data) if arch in e[0]] or unbundle(data)
            if not entries:
                co.problems.append("offload bundle without an AMDGPU code object")
                return co
            elf = Path(tmp) / "device.co"
            elf.write_bytes(entries[0][1])
        elif not data.startswith(b"\x7fELF"):
            co.problems.append("neither an ELF file nor an uncompressed offload bundle")
            return co
        try:
            notes = run([readelf, "--notes", str(elf)])
            co.kernels = parse_kernels(notes)
        except MetadataError as exc:
            co.problems.append(str(exc))
            return co
        meta_arch = metadata_target(notes)
        if meta_arch and meta_arch != arch:
            co.problems.append(f"metadata says {meta_arch}, file name says {arch}")
        if not co.kernels:
            co.problems.append("no kernels")
        if required:
            if objdump is None:
                co.problems.append("llvm-objdump not found: cannot check instructions")
            else:
                try:
                    found = mnemonics(run([objdump, "-d", f"--mcpu={arch}", str(elf)]))
                except MetadataError as exc:
                    co.problems.append(f"disassembly failed: {exc}")
                else:
                    co.problems += [
                        f"missing instruction {m}"
                        for m in required
                        if not has_instruction(found, m)
                    ]
    for k in co.kernels:
        k.target, k.arch = target, arch
        k.problems = kernel_problems(k, arch)
    return co


def find_code_objects(device_dir: Path) -> list[tuple[Path, str, str]]:
    found = []
    for path in sorted(device_dir.glob("*.co")) if device_dir.is_dir() else []:
        parts = split_name(path)
        if parts is not None:
            found.append((path, *parts))
    return found


def missing_code_objects(
    present: Iterable[tuple[str, str]], required: Mapping[str, Sequence[str]]
) -> list[tuple[str, str]]:
    """``(target, arch)`` pairs that must have a code object (from ``required``) but have none."""
    have = set(present)
    return [(t, a) for t, archs in required.items() for a in archs if (t, a) not in have]
