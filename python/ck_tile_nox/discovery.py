"""Pick the backend, the GPU archs and the compiler.

Order of precedence, highest first:

1. options (the session's posargs): ``--backend hip|emulator``, ``--archs gfx942,gfx950``
2. environment: ``CK_TILE_BACKEND`` (``hip`` or ``emulator``), ``CK_TILE_ARCHS`` (comma list),
   ``CK_TILE_HIP_RUNTIME`` (``rocm`` or ``cpu``: which runtime a hip build runs on)
3. detection: ``from hip import hip`` (hip-python); each device's ``gcnArchName`` with its
   feature suffix removed (``gfx942:sramecc+:xnack-`` -> ``gfx942``) gives the archs and the
   backend is ``hip``. Without hip-python, without a HIP runtime (hip-python imports, but
   ``libamdhip64.so`` cannot be loaded on the first call) or without a device, one line says so
   and the emulator is used for every arch of the arch table.

``--backend hip`` on a machine without a GPU runs the hip build on hip-cpu (the HIP runtime of
``library/hip_cpu``: the same gfx942/gfx950 code objects executed on the CPU): one build dir serves
every arch, and each case runs once per arch (``CK_TILE_HIP_CPU_ARCH``).

Compilers: for ``hip`` on hip-cpu the emulator's (clang-22); for ``hip`` on ROCm the ROCm clang
(``amdclang++``, then ``llvm/bin/clang++``, then ``hipcc`` under ``$ROCM_PATH``, ``$HIP_PATH`` or
``/opt/rocm``, then on ``PATH``); for the emulator
``$CXX`` when set, else ``clang++-22``, ``clang++`` on ``PATH`` (the emulator is built with clang;
CMake refuses another compiler with one line).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ck_tile_nox.archs import ARCH_NAMES

BACKENDS = ("hip", "emulator")
RUNTIMES = ("rocm", "cpu")
EMULATOR_COMPILERS = ("clang++-22", "clang++")
ROCM_COMPILERS = ("llvm/bin/amdclang++", "bin/amdclang++", "llvm/bin/clang++", "bin/hipcc")
_ARCH = re.compile(r"^gfx[0-9a-z]+$")


class DiscoveryError(Exception):
    """A forced setting cannot be honoured (unknown backend, bad arch, no GPU to detect)."""


@dataclass(frozen=True)
class Platform:
    """The backend and archs to build and run for, and where they came from."""

    backend: str
    archs: tuple[str, ...]
    reason: str
    runtime: str = ""  # hip: "rocm" (a GPU) or "cpu" (hip-cpu); the emulator: ""

    @property
    def emulated(self) -> bool:
        """Whether the kernels run on the CPU (the emulator or hip-cpu): smaller case sizes."""
        return self.backend == "emulator" or self.runtime == "cpu"

    @property
    def name(self) -> str:
        """``emulator``, ``hip`` or ``hip-cpu``."""
        return "hip-cpu" if self.runtime == "cpu" else self.backend


@dataclass(frozen=True)
class Compiler:
    path: str
    kind: str  # "clang", "gcc", "rocm-clang", "hipcc" or "other"
    version: str

    @property
    def major(self) -> int | None:
        m = re.search(r"version (\d+)", self.version)
        return int(m.group(1)) if m else None


# ---- GPUs -----------------------------------------------------------------------------------


def strip_features(arch: str | bytes) -> str:
    """``gfx942:sramecc+:xnack-`` -> ``gfx942``."""
    if isinstance(arch, bytes):
        arch = arch.split(b"\0", 1)[0].decode("ascii", "replace")
    return arch.strip().split(":", 1)[0]


def _ok(result: object) -> tuple[bool, object]:
    """Split a hip-python result ``(hipError_t, value...)`` into (success, value)."""
    if isinstance(result, tuple):
        err, *rest = result
        value = rest[0] if len(rest) == 1 else (tuple(rest) if rest else None)
    else:
        err, value = 0, result
    code = getattr(err, "value", err)
    return code == 0, value


def _why(what: str, exc: BaseException) -> str:
    """One line: ``what (exc)``, or a plain one when hip-python cannot load the HIP runtime."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    if "libamdhip64" in text or "dlopen" in text:
        return "no HIP runtime found (hip-python could not load libamdhip64.so)"
    return f"{what} ({text if len(text) <= 160 else text[:157] + '...'})"


def detect_gpus() -> tuple[list[str], str]:
    """Archs of the ROCm GPUs present (one entry per device) and a line describing the probe.

    Tests hand in a stand-in ``hip`` module through ``sys.modules``.
    """
    try:
        from hip import hip  # type: ignore[import-not-found]  # noqa: PLC0415
    except ImportError:
        return [], "hip-python is not installed"
    except Exception as exc:  # a broken ROCm install must not stop the emulator
        return [], _why("hip-python failed to load", exc)
    try:
        ok, count = _ok(hip.hipGetDeviceCount())
        if not ok or not count:
            return [], "hip-python found no GPU"
        archs = []
        for i in range(int(count)):  # type: ignore[call-overload]
            if hasattr(hip, "hipDeviceProp_t"):
                props = hip.hipDeviceProp_t()
                ok, _ = _ok(hip.hipGetDeviceProperties(props, i))
            else:
                ok, props = _ok(hip.hipGetDeviceProperties(i))
            if ok:
                archs.append(strip_features(props.gcnArchName))
    except Exception as exc:
        return [], _why("hip-python failed to query the GPUs", exc)
    if not archs:
        return [], "hip-python found no usable GPU"
    return archs, f"hip-python found {len(archs)} GPU(s): {', '.join(archs)}"


def parse_archs(text: str | Sequence[str]) -> tuple[str, ...]:
    """``"gfx942, gfx950"`` (or a list of such strings) -> ``("gfx942", "gfx950")``, checked."""
    items = [text] if isinstance(text, str) else list(text)
    archs: list[str] = []
    for item in items:
        for part in item.replace(";", ",").split(","):
            arch = strip_features(part)
            if not arch:
                continue
            if not _ARCH.match(arch):
                raise DiscoveryError(f"not a GPU arch: {part.strip()!r} (expected e.g. gfx942)")
            if arch not in archs:
                archs.append(arch)
    if not archs:
        raise DiscoveryError("the arch list is empty")
    return tuple(archs)


def discover(
    *,
    backend: str | None = None,
    archs: str | Sequence[str] | None = None,
    env: Mapping[str, str] | None = None,
    probe: Callable[[], tuple[list[str], str]] = detect_gpus,
    log: Callable[[str], None] = print,
) -> Platform:
    """Decide backend and archs from options, then environment, then the GPUs present."""
    env = os.environ if env is None else env
    backend_src = "--backend"
    if not backend:
        backend, backend_src = env.get("CK_TILE_BACKEND") or None, "CK_TILE_BACKEND"
    archs_src = "--archs"
    if not archs:
        archs, archs_src = env.get("CK_TILE_ARCHS") or None, "CK_TILE_ARCHS"
    if backend is not None:
        backend = backend.strip().lower()
        if backend not in BACKENDS:
            raise DiscoveryError(f"{backend_src}: unknown backend {backend!r} (hip or emulator)")
    forced_archs = parse_archs(archs) if archs else None

    if backend == "emulator":
        chosen = forced_archs or ARCH_NAMES
        src = archs_src if forced_archs else "default"
        return Platform("emulator", chosen, f"emulator forced by {backend_src}; archs: {src}")

    runtime = (env.get("CK_TILE_HIP_RUNTIME") or "").strip().lower() or None
    if runtime is not None and runtime not in RUNTIMES:
        raise DiscoveryError(f"CK_TILE_HIP_RUNTIME: unknown runtime {runtime!r} (rocm or cpu)")
    if backend == "hip" and runtime == "cpu":
        chosen = forced_archs or ARCH_NAMES
        return Platform("hip", chosen, "hip-cpu forced by CK_TILE_HIP_RUNTIME", "cpu")
    if backend == "hip" and forced_archs and runtime == "rocm":
        why = f"hip forced by {backend_src}; archs from {archs_src}"
        return Platform("hip", forced_archs, why, "rocm")

    found, line = probe()
    if backend == "hip":
        if found:
            chosen = forced_archs or tuple(dict.fromkeys(found))
            return Platform("hip", chosen, f"hip forced by {backend_src}; {line}", "rocm")
        # no GPU: a machine with ROCm builds for ROCm (as CMake's default does), else hip-cpu
        if runtime == "rocm" or (runtime is None and rocm_installed(env)):
            if not forced_archs:
                raise DiscoveryError(f"hip on ROCm but {line}; give the archs too")
            return Platform(
                "hip", forced_archs, f"hip forced by {backend_src}; archs from {archs_src}", "rocm"
            )
        chosen = forced_archs or ARCH_NAMES
        return Platform("hip", chosen, f"hip forced by {backend_src}; {line}: hip-cpu", "cpu")
    if found:
        chosen = forced_archs or tuple(dict.fromkeys(found))
        how = f"; archs from {archs_src}" if forced_archs else ""
        return Platform("hip", chosen, line + how, "rocm")
    chosen = forced_archs or ARCH_NAMES
    log(f"{line}: using the emulator for {', '.join(chosen)}")
    return Platform("emulator", chosen, f"{line}; emulator")


# ---- compilers ------------------------------------------------------------------------------


def compiler_version(path: str) -> str:
    try:
        out = subprocess.run(
            [path, "--version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return (out.stdout or out.stderr).strip().splitlines()[0] if (out.stdout or out.stderr) else ""


def _classify(path: str, version: str) -> str:
    name = Path(path).name
    if "hipcc" in name:
        return "hipcc"
    if "AMD clang" in version or "amdclang" in name or "/rocm" in path:
        return "rocm-clang"
    if "clang" in version or "clang" in name:
        return "clang"
    if "g++" in name or "GCC" in version or "Free Software Foundation" in version:
        return "gcc"
    return "other"


def rocm_roots(env: Mapping[str, str] | None = None) -> list[Path]:
    env = os.environ if env is None else env
    roots = [env.get("ROCM_PATH"), env.get("HIP_PATH"), "/opt/rocm"]
    return [Path(r) for r in dict.fromkeys(r for r in roots if r)]


def rocm_installed(env: Mapping[str, str] | None = None) -> bool:
    """Whether ROCm's HIP headers are installed (CMake's default runtime is then rocm)."""
    return any((root / "include/hip/hip_runtime.h").is_file() for root in rocm_roots(env))


def compiler_candidates(
    backend: str, env: Mapping[str, str] | None = None, runtime: str = ""
) -> list[str]:
    """The compilers tried for ``backend`` (on ``runtime``), best first (see the module doc)."""
    env = os.environ if env is None else env
    if backend == "hip" and runtime != "cpu":
        candidates = [str(root / rel) for root in rocm_roots(env) for rel in ROCM_COMPILERS]
        return [*candidates, "amdclang++", "hipcc"]
    return ([env["CXX"]] if env.get("CXX") else []) + list(EMULATOR_COMPILERS)


def find_compiler(
    backend: str,
    env: Mapping[str, str] | None = None,
    which: Callable[[str], str | None] = shutil.which,
    runtime: str = "",
) -> Compiler | None:
    """The compiler for ``backend`` (on ``runtime``), or None when there is none."""
    for cand in compiler_candidates(backend, env, runtime):
        path = which(cand)
        if path:
            version = compiler_version(path)
            return Compiler(path, _classify(path, version), version)
    return None


def find_versioned_tool(
    base: str, major: int | None = None, which: Callable[[str], str | None] = shutil.which
) -> str | None:
    """``base-<major>`` when present, else the newest ``base-NN`` on PATH, else ``base``."""
    if major is not None and (path := which(f"{base}-{major}")):
        return path
    best: tuple[int, str] | None = None
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        try:
            entries = list(Path(directory).iterdir())
        except OSError:
            continue
        for entry in entries:
            m = re.fullmatch(re.escape(base) + r"-(\d+)", entry.name)
            if m and os.access(entry, os.X_OK) and (best is None or int(m.group(1)) > best[0]):
                best = (int(m.group(1)), str(entry))
    if best:
        return best[1]
    return which(base)


def find_device_clang(which: Callable[[str], str | None] = shutil.which) -> str | None:
    """The clang for device-code checks: ``clang++-22``, else the newest ``clang++-NN``, else
    ``clang++``."""
    return which("clang++-22") or find_versioned_tool("clang++", None, which)
