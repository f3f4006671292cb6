"""``profile <target> [args...]``: one binary under the access profile.

Builds ``<target>`` in the emulator build dir of one arch, ``<build root>/emulator-<arch>`` (the
dir ``nox -s build`` uses for a target without matrix axes), runs it with
``CK_TILE_EMU_PROFILE=1`` and lets its output through: after each kernel launch the emulator
prints the launch's profile on stderr (README.md, "Access profile"). The arch is the first that
discovery gives for the emulator (``CK_TILE_ARCHS``, else the arch table's first), or the first of
``--archs``. With ``--backend hip`` it builds the target's hip-cpu build dir (the one
``nox -s build -- --backend hip`` builds for that arch) and hip-cpu prints the profile from the
instructions the waves executed (library/hip_cpu/README.md, "Profile").

Options of this command (anywhere; ``--`` ends them, everything after it goes to the binary):
``--archs A[,B]``, ``--backend emulator|hip``, ``--build-root DIR`` (default ``build``),
``--jobs N`` (default 2). Every other argument after the target is the binary's, e.g.
``-m=1024``.

Exit status: the binary's (128 + N when signal N ended it); 2 when there is no target, no
compiler, or the build failed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ck_tile_nox import build, cases, discovery
from ck_tile_nox.archs import ARCH_NAMES
from ck_tile_nox.matrix import BuildDir, entries

ENV = "CK_TILE_EMU_PROFILE"
_VALUED = ("--archs", "--backend", "--build-root", "--jobs")


@dataclass
class Request:
    target: str
    args: list[str] = field(default_factory=list)
    archs: str | None = None
    build_root: Path = Path("build")
    jobs: int = 2
    backend: str = "emulator"


def parse(argv: Sequence[str]) -> Request:
    """The target, its arguments and this command's options; ValueError when unusable."""
    opts: dict[str, str] = {}
    rest: list[str] = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            rest += argv[i + 1 :]
            break
        name, eq, value = a.partition("=")
        if name in _VALUED:
            if not eq:
                if i + 1 >= len(argv):
                    raise ValueError(f"{name} needs a value")
                i += 1
                value = argv[i]
            opts[name] = value
        else:
            rest.append(a)
        i += 1
    if not rest or rest[0].startswith("-"):
        raise ValueError("usage: profile <target> [args...]")
    try:
        jobs = int(opts.get("--jobs", "2"))
    except ValueError:
        raise ValueError(f"--jobs needs a number, not {opts['--jobs']!r}") from None
    root = Path(opts.get("--build-root", "build"))
    backend = opts.get("--backend", "emulator")
    if backend not in ("emulator", "hip"):
        raise ValueError(f"--backend must be emulator or hip, not {backend!r}")
    return Request(rest[0], rest[1:], opts.get("--archs"), root, jobs, backend)


def exit_status(rc: int) -> int:
    """A subprocess return code as a shell reports it (a signal N: 128 + N)."""
    return 128 - rc if rc < 0 else rc


def run(
    req: Request,
    *,
    builder: Callable[..., build.Result] = build.build,
    runner: Callable[..., subprocess.CompletedProcess] = subprocess.run,
) -> int:
    """Build and run ``req`` under the profile; the binary's exit status (2: nothing ran)."""
    hip = req.backend == "hip"
    try:
        if hip:  # hip-cpu: every arch of the arch table runs on this machine
            arch = discovery.parse_archs(req.archs)[0] if req.archs else ARCH_NAMES[0]
        else:
            plat = discovery.discover(backend="emulator", archs=req.archs, log=lambda _: None)
            arch = plat.archs[0]
    except discovery.DiscoveryError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    runtime = "cpu" if hip else ""
    compiler = discovery.find_compiler(req.backend, runtime=runtime)
    if compiler is None:
        names = " or ".join(discovery.compiler_candidates(req.backend, runtime=runtime))
        print(f"error: no compiler ({names}); to install it: {build.INSTALL}", file=sys.stderr)
        return 2
    if hip:
        found = hip_build_dir(req.target, arch, req.build_root.resolve())
        if isinstance(found, str):
            print(f"error: {found}", file=sys.stderr)
            return 2
        bdir = found
    else:
        bdir = BuildDir((req.build_root / f"emulator-{arch}").resolve(), "emulator", arch)
    try:
        res = builder(Path.cwd(), bdir, [req.target], compiler=compiler.path, jobs=req.jobs)
    except build.ToolError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not res.ok():
        why = res.failed.get(req.target, "build failed")
        print(f"FAILED building {req.target} for {arch}: {why} (log: {bdir.path / build.LOG})")
        print(res.tail)
        return 2
    binary = bdir.path / "bin" / req.target
    extra = {ENV: "1", **({"CK_TILE_HIP_CPU_ARCH": arch} if hip else {})}
    shown = " ".join(f"{k}={v}" for k, v in extra.items())
    print(f"$ {shown} {binary} {' '.join(req.args)}".rstrip(), flush=True)
    env = {**os.environ, **extra}
    return exit_status(runner([str(binary), *req.args], env=env, check=False).returncode)


def hip_build_dir(target: str, arch: str, root: Path) -> BuildDir | str:
    """The hip-cpu build dir ``nox -s build -- --backend hip`` builds ``target`` in for ``arch``
    (its cases file says whether it needs one of its own), or why there is none."""
    try:
        found = [t for t in cases.load_targets(Path.cwd()) if t.name == target]
    except cases.CasesError as exc:
        return str(exc)
    if not found:
        return f"no target {target!r} in any cases.toml"
    for bdir in entries(found[0], ARCH_NAMES, "hip", root, runtime="cpu"):
        if bdir.arch == arch:  # with matrix axes: their first values
            return bdir
    return f"{target} is not built for {arch}"


def main(argv: Sequence[str]) -> int:
    try:
        req = parse(argv)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return run(req)
