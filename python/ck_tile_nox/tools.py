"""Check the system tools a command needs, and install the missing ones when allowed.

Before building, the commands check for ``cmake``, ``ninja`` and the compiler (``device_check``
also for ``llvm-readelf``; ``lint`` for ``clang-format``). When one is missing:

- running as root: run ``bash script/install-deps.sh`` when the repository has it (with
  ``--rocm`` for the hip backend, whose compiler is ROCm's clang, not clang-22), else
  ``apt-get update`` and ``apt-get install -y <packages>`` (``clang-22 lld-22`` for the compiler,
  ``cmake``, ``ninja-build``, ``llvm-22`` for llvm-readelf/llvm-objdump, ``clang-format-22``),
  printing each command before it runs; then check again;
- otherwise: print which tool is missing and the command that installs it
  (``sudo apt-get install -y ...``), and stop with a non-zero exit status.

The ROCm compiler of the ``hip`` backend is never installed automatically: install ROCm or point
``ROCM_PATH`` at it. ``ccache`` is optional: CMake uses it when it is on ``PATH``; the summary says
whether it is (``apt-get install -y ccache`` adds it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

INSTALL_SCRIPT = Path("script") / "install-deps.sh"


class ToolError(Exception):
    """Required tools are missing and could not be installed."""


@dataclass(frozen=True)
class Requirement:
    name: str
    candidates: tuple[str, ...]
    apt: tuple[str, ...] = ()
    hint: str = ""

    def install_hint(self) -> str:
        if self.apt:
            return f"sudo apt-get install -y {' '.join(self.apt)}"
        return self.hint or f"install {self.name}"


CMAKE = Requirement("cmake", ("cmake",), ("cmake",))
NINJA = Requirement("ninja", ("ninja", "ninja-build"), ("ninja-build",))
CTEST = Requirement("ctest", ("ctest",), ("cmake",))
DEVICE_CLANG = Requirement("clang++-22", ("clang++-22",), ("clang-22", "lld-22"))
READELF = Requirement("llvm-readelf", ("llvm-readelf-22", "llvm-readelf"), ("llvm-22",))
CLANG_FORMAT = Requirement(
    "clang-format", ("clang-format-22", "clang-format"), ("clang-format-22",)
)


ROCM_COMPILER = "ROCm clang (amdclang++ or hipcc)"


def compiler_requirement(backend: str, candidates: Sequence[str]) -> Requirement:
    if backend == "hip":
        return Requirement(
            ROCM_COMPILER,
            tuple(candidates),
            hint="install ROCm, or set ROCM_PATH to its install directory",
        )
    return Requirement("C++ compiler", tuple(candidates), ("clang-22", "lld-22"))


def is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def ensure(
    requirements: Sequence[Requirement],
    *,
    repo: Path,
    log: Callable[[str], None] = print,
    which: Callable[[str], str | None] = shutil.which,
    run: Callable[..., object] = subprocess.run,
    root: bool | None = None,
) -> dict[str, str]:
    """Return ``{name: path}`` for every requirement, installing missing ones when root.

    Raises :class:`ToolError` naming the install command when something is still missing.
    """

    def lookup() -> tuple[dict[str, str], list[Requirement]]:
        found: dict[str, str] = {}
        missing: list[Requirement] = []
        for req in requirements:
            path = next((p for c in req.candidates if (p := which(c))), None)
            if path:
                found[req.name] = path
            else:
                missing.append(req)
        return found, missing

    found, missing = lookup()
    if not missing:
        return found
    root = is_root() if root is None else root
    installable = [r for r in missing if r.apt]
    if root and installable:
        names = ", ".join(r.name for r in missing)
        script = repo / INSTALL_SCRIPT
        if script.is_file():
            mode = ["--rocm"] if any(r.name == ROCM_COMPILER for r in requirements) else []
            log(f"missing {names}: running bash {' '.join([str(INSTALL_SCRIPT), *mode])}")
            run(["bash", str(script), *mode], check=False, cwd=repo)
            found, missing = lookup()
            installable = [r for r in missing if r.apt]
        if installable and which("apt-get"):
            packages = list(dict.fromkeys(p for r in installable for p in r.apt))
            log(f"missing {', '.join(r.name for r in installable)}: running apt-get update")
            run(["apt-get", "update"], check=False)
            log(f"running apt-get install -y {' '.join(packages)}")
            run(["apt-get", "install", "-y", *packages], check=False)
            found, missing = lookup()
    if missing:
        lines = [
            f"{r.name} not found (looked for {', '.join(r.candidates)}); "
            f"to install it: {r.install_hint()}"
            for r in missing
        ]
        if any(r.apt for r in missing):
            lines.append(f"or run, as root: bash {INSTALL_SCRIPT}")
        raise ToolError("\n".join(lines))
    return found
