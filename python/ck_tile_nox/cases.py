"""Find and validate the ``cases.toml`` files that sit beside each tutorial and example.

A cases file names one CMake target, the archs it is valid on, its build-matrix axes, optional
device-code checks, and the cases to run (see :data:`CASE_KEYS` for every key a case accepts)::

    [target]
    name = "tile_tutorial_copy_kernel"
    archs = ["gfx942", "gfx950"]                 # optional, default: every configured arch
    [target.matrix]                               # optional: compile definitions and their values
    CK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION = [0, 1]
    [target.device_check]                         # optional
    require_instructions = ["v_mfma_f32_32x32x8_f16"]

    [[case]]
    name = "fp16_256x512"
    args = ["-m=256", "-n=512"]
    expect = ["valid:y"]

``require_instructions`` may also be a table from arch to list, for instructions that exist on
one arch only. A folder with several binaries may use ``[[target]]`` (an array of tables)
instead of ``[target]``; each case then says which one it belongs to with ``target = "name"``.

Validation is strict: an unknown key, a wrong type or a value out of range is an error that
names the file and the key, and every error of every file is reported at once.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CASES_FILENAME = "cases.toml"
SEARCH_DIRS = ("tutorial", "example", "client_example")
DEFAULT_TIMEOUT = 300.0

Scalar = int | str

TARGET_KEYS = {"name", "archs", "matrix", "device_check"}
DEVICE_CHECK_KEYS = {"require_instructions"}
CASE_KEYS = {
    "name",
    "target",
    "args",
    "emulator_args",
    "expect",
    "expect_regex",
    "reject",
    "returncode",
    "stderr_lines",
    "timeout",
    "archs",
    "matrix",
    "bench",
}
TOP_KEYS = {"target", "case"}

_TARGET_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+-]*$")
_CASE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+=-]*$")
_ARCH = re.compile(r"^gfx[0-9a-z]+$")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_AXIS_VALUE = re.compile(r"^[A-Za-z0-9_.+-]+$")


class CasesError(Exception):
    """One or more cases files are invalid; ``errors`` holds one message per problem."""

    def __init__(self, errors: list[str]) -> None:
        self.errors = errors
        super().__init__("\n".join(errors))


@dataclass(frozen=True)
class Case:
    """One invocation of a target's binary and what its output must look like."""

    name: str
    target: str
    source: Path
    args: tuple[str, ...] = ()
    emulator_args: tuple[str, ...] | None = None
    expect: tuple[str, ...] = ()
    expect_regex: tuple[str, ...] = ()
    reject: tuple[str, ...] = ()
    returncode: int | str = 0
    stderr_lines: int | None = None
    timeout: float = DEFAULT_TIMEOUT
    archs: tuple[str, ...] | None = None
    matrix: Mapping[str, tuple[Scalar, ...]] = field(default_factory=dict)
    bench: bool = False

    def args_for(self, backend: str) -> tuple[str, ...]:
        """The arguments for ``backend``: ``emulator_args`` on the emulator when given."""
        if backend == "emulator" and self.emulator_args is not None:
            return self.emulator_args
        return self.args

    def applies_to(self, arch: str, axes: Mapping[str, Scalar]) -> bool:
        """Whether the case runs for a matrix entry of arch ``arch`` with axis values ``axes``."""
        if self.archs is not None and arch not in self.archs:
            return False
        return all(axes.get(name) in allowed for name, allowed in self.matrix.items())


@dataclass(frozen=True)
class Target:
    """A CMake target (and binary) with its archs, its matrix axes and its cases."""

    name: str
    source: Path
    archs: tuple[str, ...] | None = None
    matrix: Mapping[str, tuple[Scalar, ...]] = field(default_factory=dict)
    require_instructions: Mapping[str | None, tuple[str, ...]] = field(default_factory=dict)
    cases: tuple[Case, ...] = ()

    def valid_on(self, arch: str) -> bool:
        return self.archs is None or arch in self.archs

    def instructions_for(self, arch: str) -> tuple[str, ...]:
        """Mnemonics the code object for ``arch`` must contain (common ones, then arch ones)."""
        return self.require_instructions.get(None, ()) + self.require_instructions.get(arch, ())


# ---- discovery ------------------------------------------------------------------------------


def find_cases_files(root: Path) -> list[Path]:
    """Every ``cases.toml`` under ``tutorial/``, ``example/`` and ``client_example/``, sorted."""
    found: list[Path] = []
    for sub in SEARCH_DIRS:
        base = root / sub
        if base.is_dir():
            found.extend(p for p in base.rglob(CASES_FILENAME) if p.is_file())
    return sorted(found)


def load_targets(root: Path, files: Iterable[Path] | None = None) -> list[Target]:
    """Parse and validate the cases files under ``root``; raise :class:`CasesError` if any fail.

    Target names must be unique across all files.
    """
    errors: list[str] = []
    targets: list[Target] = []
    seen: dict[str, Path] = {}
    for path in find_cases_files(root) if files is None else files:
        shown = _display_path(path, root)
        try:
            parsed = parse_cases_file(path, display=shown)
        except CasesError as exc:
            errors.extend(exc.errors)
            continue
        for target in parsed:
            if target.name in seen:
                errors.append(
                    f"{shown}: target '{target.name}' is already declared in "
                    f"{_display_path(seen[target.name], root)}"
                )
                continue
            seen[target.name] = path
            targets.append(target)
    if errors:
        raise CasesError(errors)
    return targets


def _display_path(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


# ---- parsing --------------------------------------------------------------------------------


def parse_cases_file(path: Path, display: str | None = None) -> list[Target]:
    """Parse one cases file; raise :class:`CasesError` listing every problem found."""
    shown = display or str(path)
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise CasesError([f"{shown}: not valid TOML: {exc}"]) from exc
    except OSError as exc:
        raise CasesError([f"{shown}: cannot read: {exc}"]) from exc
    return parse_cases_data(data, path, display=shown)


def parse_cases_data(
    data: Mapping[str, Any], path: Path, display: str | None = None
) -> list[Target]:
    """Validate already-loaded TOML ``data`` of the cases file at ``path``."""
    v = _Validator(display or str(path))
    for key in data:
        if key not in TOP_KEYS:
            v.error(key, f"unknown top-level key (expected one of {_names(TOP_KEYS)})")

    raw_targets = data.get("target")
    if raw_targets is None:
        v.error("target", "missing: a cases file must declare [target]")
        raw_targets = []
    elif isinstance(raw_targets, dict):
        raw_targets = [raw_targets]
    elif not (isinstance(raw_targets, list) and all(isinstance(t, dict) for t in raw_targets)):
        v.error("target", "must be a table [target] or an array of tables [[target]]")
        raw_targets = []
    multi = len(raw_targets) > 1
    targets = [
        t
        for i, raw in enumerate(raw_targets)
        if (t := _parse_target(v, raw, f"target[{i}]" if multi else "target", path)) is not None
    ]
    by_name = {t.name: t for t in targets}
    if len(by_name) != len(targets):
        v.error("target", "the same target name is declared twice")

    raw_cases = data.get("case", [])
    if not (isinstance(raw_cases, list) and all(isinstance(c, dict) for c in raw_cases)):
        v.error("case", "must be an array of tables [[case]]")
        raw_cases = []
    cases: dict[str, list[Case]] = {t.name: [] for t in targets}
    for i, raw in enumerate(raw_cases):
        label = f"case[{i}]" + (f" '{raw['name']}'" if isinstance(raw.get("name"), str) else "")
        case = _parse_case(v, raw, label, path, by_name, multi)
        if case is None:
            continue
        if any(c.name == case.name for c in cases[case.target]):
            v.error(f"{label}.name", f"duplicate case name '{case.name}'")
            continue
        cases[case.target].append(case)

    if v.errors:
        raise CasesError(v.errors)
    return [_with_cases(t, tuple(cases[t.name])) for t in targets]


def _with_cases(target: Target, cases: tuple[Case, ...]) -> Target:
    return Target(
        name=target.name,
        source=target.source,
        archs=target.archs,
        matrix=target.matrix,
        require_instructions=target.require_instructions,
        cases=cases,
    )


def _names(keys: Iterable[str]) -> str:
    return ", ".join(sorted(keys))


class _Validator:
    """Collects error messages of the form ``<file>: <key>: <problem>``."""

    def __init__(self, display: str) -> None:
        self.display = display
        self.errors: list[str] = []

    def error(self, key: str, message: str) -> None:
        self.errors.append(f"{self.display}: {key}: {message}")

    def unknown_keys(self, table: Mapping[str, Any], allowed: set[str], where: str) -> None:
        for key in table:
            if key not in allowed:
                self.error(f"{where}.{key}", f"unknown key (allowed: {_names(allowed)})")

    def string(self, value: Any, key: str, pattern: re.Pattern[str] | None = None) -> str | None:
        if not isinstance(value, str) or not value:
            self.error(key, f"must be a non-empty string, got {_show(value)}")
            return None
        if pattern is not None and not pattern.match(value):
            self.error(key, f"invalid value {value!r} (must match {pattern.pattern})")
            return None
        return value

    def string_list(
        self, value: Any, key: str, pattern: re.Pattern[str] | None = None, non_empty: bool = False
    ) -> tuple[str, ...] | None:
        if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
            self.error(key, f"must be a list of strings, got {_show(value)}")
            return None
        if non_empty and not value:
            self.error(key, "must not be empty")
            return None
        if pattern is not None:
            bad = [s for s in value if not pattern.match(s)]
            if bad:
                self.error(key, f"invalid value(s) {bad} (must match {pattern.pattern})")
                return None
        return tuple(value)

    def archs(self, value: Any, key: str) -> tuple[str, ...] | None:
        archs = self.string_list(value, key, _ARCH, non_empty=True)
        if archs is not None and len(set(archs)) != len(archs):
            self.error(key, f"lists an arch twice: {list(archs)}")
            return None
        return archs


def _show(value: Any) -> str:
    return f"{type(value).__name__} {value!r}"


def _is_scalar(value: Any) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, str) and bool(_AXIS_VALUE.match(value))
    )


def _parse_target(v: _Validator, raw: Mapping[str, Any], where: str, path: Path) -> Target | None:
    v.unknown_keys(raw, TARGET_KEYS, where)
    ok = True
    name = v.string(raw.get("name"), f"{where}.name", _TARGET_NAME)
    ok &= name is not None

    archs = None
    if "archs" in raw:
        archs = v.archs(raw["archs"], f"{where}.archs")
        ok &= archs is not None

    matrix: dict[str, tuple[Scalar, ...]] = {}
    raw_matrix = raw.get("matrix", {})
    if not isinstance(raw_matrix, dict):
        v.error(f"{where}.matrix", f"must be a table of axis = [values], got {_show(raw_matrix)}")
        ok = False
        raw_matrix = {}
    for axis, values in raw_matrix.items():
        key = f"{where}.matrix.{axis}"
        if not _IDENT.match(axis):
            v.error(key, "axis name must be a C identifier (it becomes -DNAME=VALUE)")
            ok = False
        elif not isinstance(values, list) or not values:
            v.error(key, f"must be a non-empty list of values, got {_show(values)}")
            ok = False
        elif not all(_is_scalar(x) for x in values):
            v.error(key, f"values must be integers or simple strings, got {values!r}")
            ok = False
        elif len(set(values)) != len(values):
            v.error(key, f"lists a value twice: {values!r}")
            ok = False
        else:
            matrix[axis] = tuple(values)

    instructions: dict[str | None, tuple[str, ...]] = {}
    raw_check = raw.get("device_check", {})
    if not isinstance(raw_check, dict):
        v.error(f"{where}.device_check", f"must be a table, got {_show(raw_check)}")
        ok = False
        raw_check = {}
    v.unknown_keys(raw_check, DEVICE_CHECK_KEYS, f"{where}.device_check")
    req = raw_check.get("require_instructions")
    key = f"{where}.device_check.require_instructions"
    if isinstance(req, dict):
        for arch, mnemonics in req.items():
            if not _ARCH.match(arch):
                v.error(f"{key}.{arch}", "key must be an arch such as gfx942")
                ok = False
            elif (got := v.string_list(mnemonics, f"{key}.{arch}")) is None:
                ok = False
            else:
                instructions[arch] = got
    elif req is not None:
        got = v.string_list(req, key)
        if got is None:
            ok = False
        else:
            instructions[None] = got

    if not ok or name is None:
        return None
    return Target(
        name=name, source=path, archs=archs, matrix=matrix, require_instructions=instructions
    )


def _parse_case(
    v: _Validator,
    raw: Mapping[str, Any],
    where: str,
    path: Path,
    targets: Mapping[str, Target],
    multi: bool,
) -> Case | None:
    v.unknown_keys(raw, CASE_KEYS, where)
    n_errors = len(v.errors)
    kwargs: dict[str, Any] = {}

    name = v.string(raw.get("name"), f"{where}.name", _CASE_NAME)

    if "target" in raw:
        tname = v.string(raw["target"], f"{where}.target")
        if tname is not None and tname not in targets:
            v.error(f"{where}.target", f"no target named {tname!r} in this file")
    elif multi:
        v.error(f"{where}.target", "required when the file declares several [[target]]")
        tname = None
    else:
        tname = next(iter(targets), None)
    target = targets.get(tname) if tname else None

    for key in ("args", "emulator_args", "expect", "expect_regex", "reject"):
        if key in raw:
            kwargs[key] = v.string_list(raw[key], f"{where}.{key}")
    for i, pattern in enumerate(kwargs.get("expect_regex") or ()):
        try:
            re.compile(pattern, re.MULTILINE)
        except re.error as exc:
            v.error(f"{where}.expect_regex[{i}]", f"invalid regex {pattern!r}: {exc}")

    if "returncode" in raw:
        rc = raw["returncode"]
        if (isinstance(rc, int) and not isinstance(rc, bool)) or rc == "nonzero":
            kwargs["returncode"] = rc
        else:
            v.error(f"{where}.returncode", f'must be an integer or "nonzero", got {_show(rc)}')

    if "stderr_lines" in raw:
        n = raw["stderr_lines"]
        if isinstance(n, int) and not isinstance(n, bool) and n >= 0:
            kwargs["stderr_lines"] = n
        else:
            v.error(f"{where}.stderr_lines", f"must be an integer >= 0, got {_show(n)}")

    if "timeout" in raw:
        t = raw["timeout"]
        if isinstance(t, int | float) and not isinstance(t, bool) and t > 0:
            kwargs["timeout"] = float(t)
        else:
            v.error(f"{where}.timeout", f"must be a positive number of seconds, got {_show(t)}")

    if "bench" in raw:
        if isinstance(raw["bench"], bool):
            kwargs["bench"] = raw["bench"]
        else:
            v.error(f"{where}.bench", f"must be true or false, got {_show(raw['bench'])}")

    if "archs" in raw:
        archs = v.archs(raw["archs"], f"{where}.archs")
        if archs is not None and target is not None and target.archs is not None:
            outside = [a for a in archs if a not in target.archs]
            if outside:
                v.error(f"{where}.archs", f"{outside} not among the target's archs")
        kwargs["archs"] = archs

    if "matrix" in raw:
        kwargs["matrix"] = _parse_case_matrix(v, raw["matrix"], f"{where}.matrix", target)

    if len(v.errors) != n_errors or name is None or target is None:
        return None
    return Case(name=name, target=target.name, source=path, **kwargs)


def _parse_case_matrix(
    v: _Validator, raw: Any, where: str, target: Target | None
) -> dict[str, tuple[Scalar, ...]]:
    if not isinstance(raw, dict):
        v.error(where, f"must be a table of axis = value, got {_show(raw)}")
        return {}
    out: dict[str, tuple[Scalar, ...]] = {}
    for axis, value in raw.items():
        key = f"{where}.{axis}"
        values = value if isinstance(value, list) else [value]
        if target is not None and axis not in target.matrix:
            declared = _names(target.matrix) or "none"
            v.error(key, f"not an axis of target '{target.name}' (axes: {declared})")
        elif not values or not all(_is_scalar(x) for x in values):
            v.error(key, f"must be a value (or list of values) of the axis, got {_show(value)}")
        elif target is not None and (bad := [x for x in values if x not in target.matrix[axis]]):
            v.error(key, f"{bad} not among the axis values {list(target.matrix[axis])}")
        else:
            out[axis] = tuple(values)
    return out
