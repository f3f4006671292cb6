"""The ``cases.toml`` files beside each tutorial and example: a declared model, then expansion.

A file names its CMake target(s) and the cases to run::

    [target]                       # or [[target]] for several binaries (cases then name theirs)
    name = "tile_example_gemm_basic"
    archs = ["gfx942", "gfx950"]   # optional; names from include/ck_tile/core/arch/arch_table.def
    matrix = { CK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION = [0, 1] }   # optional build axes
    device_check = { require_instructions = ["v_mfma_f32_32x32x8_f16"] }  # or arch -> list
    fp8 = true                     # its binary computes with fp8_t/bf8_t (one build per encoding)
    # device_check.min_waves_per_simd = 2: every kernel's registers leave room for 2 waves

    [defaults]                     # any case key: the value of every case that does not set it
    expect = ["valid:y"]
    reject = ["valid:n"]

    [[case]]
    name = "one_block"
    args = ["-m=256"]

    [[product]]                    # one case per combination of the vary values
    name = "{prec}_{m}"            # {param} is replaced in the name and in every string
    args = ["-prec={prec}", "-m={m}", "{more}"]   # an element that is just "{p}" with a list
    vary.prec = ["fp16", "bf16"]                  # value splices that list in
    vary.size = [{ m = 1, more = [] }, { m = 64, more = ["-n=3"] }]  # a table sets several

Case keys: see :class:`CaseFields`. A bench case may name a ``bench_reference``
(:class:`ck_tile_nox.reference.BenchReference`): the bench prints its figure as a ratio of it.
``instances = "full"`` marks a case that needs the full
instance profile (skipped under ``CK_TILE_INSTANCES=ci``). An unknown key, a wrong type or a
value out of range is an error naming the file and line; all errors of all files are reported.
"""

from __future__ import annotations

import itertools
import json
import re
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ck_tile_nox.archs import ARCH_NAMES
from ck_tile_nox.reference import BenchReference

SEARCH_DIRS = ("tutorial", "example", "client_example")
Scalar = int | str
_NAME = r"^[A-Za-z0-9_][A-Za-z0-9_.+=-]*$"
_PARAM = re.compile(r"\{(\w+)\}")


class CasesError(Exception):
    """Invalid cases files; ``errors`` holds one ``file:line: problem`` per problem."""

    def __init__(self, errors: list[str]) -> None:
        self.errors = errors
        super().__init__("\n".join(errors))


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def _known_archs(archs: list[str] | None) -> list[str] | None:
    bad = [a for a in archs or () if a not in ARCH_NAMES]
    if bad:
        raise ValueError(f"unknown arch(s) {bad} (the arch table has {list(ARCH_NAMES)})")
    if archs is not None and len(set(archs)) != len(archs):
        raise ValueError("lists an arch twice")
    return archs


class CaseFields(_Strict):
    """What a case may say; ``[defaults]`` and ``[[product]]`` take the same keys."""

    target: str | None = None
    args: list[str] = []
    emulator_args: list[str] | None = None  # the arguments on the emulator, when given
    expect: list[str] = []  # substrings of stdout+stderr
    expect_regex: list[str] = []  # re.search, MULTILINE
    reject: list[str] = []  # substrings that must not occur
    returncode: int | Literal["nonzero"] = 0
    env: dict[Annotated[str, Field(pattern=r"^[A-Za-z_]\w*$")], str] = {}  # added to the env
    stderr_lines: Annotated[int, Field(ge=0)] | None = None  # non-empty stderr lines
    timeout: Annotated[float, Field(gt=0)] = 300.0
    archs: list[str] | None = None
    matrix: dict[str, Scalar | list[Scalar]] = {}
    bench: bool = False
    bench_reference: BenchReference | None = None  # one core's figure on the same work
    instances: Literal["ci", "full"] = "ci"  # the instance profile the case needs

    _archs = field_validator("archs")(_known_archs)


class Case(CaseFields):
    name: Annotated[str, Field(pattern=_NAME)]
    source: Path = Path()

    def args_for(self, emulated: bool) -> list[str]:
        """The arguments on a CPU (the emulator or hip-cpu: emulator_args) or on a GPU."""
        if emulated and self.emulator_args is not None:
            return self.emulator_args
        return self.args

    def applies_to(self, arch: str, axes: dict[str, Scalar]) -> bool:
        if self.archs is not None and arch not in self.archs:
            return False
        return all(
            axes.get(k) in (v if isinstance(v, list) else (v,)) for k, v in self.matrix.items()
        )


class Product(CaseFields):
    name: str
    vary: dict[str, list[Scalar | dict[str, Scalar | list[str]]]]


class DeviceCheck(_Strict):
    require_instructions: list[str] | dict[str, list[str]] = []
    # every kernel of the target keeps at least this many waves per SIMD (registers allowing)
    min_waves_per_simd: Annotated[int, Field(ge=1, le=8)] | None = None


class Target(_Strict):
    name: Annotated[str, Field(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.+-]*$")]
    archs: list[str] | None = None
    matrix: dict[Annotated[str, Field(pattern=r"^[A-Za-z_]\w*$")], list[Scalar]] = {}
    device_check: DeviceCheck = DeviceCheck()
    # the binary computes with fp8_t / bf8_t, whose encoding a build fixes: hip-cpu then builds once
    # per encoding of the archs (see ck_tile_nox.matrix)
    fp8: bool = False
    source: Path = Path()
    cases: list[Case] = []

    _archs = field_validator("archs")(_known_archs)

    def valid_on(self, arch: str) -> bool:
        return self.archs is None or arch in self.archs

    def instructions_for(self, arch: str) -> list[str]:
        req = self.device_check.require_instructions
        return req.get(arch, []) if isinstance(req, dict) else req


class CasesFile(_Strict):
    target: Target | list[Target]
    defaults: CaseFields = CaseFields()
    case: list[dict[str, Any]] = []  # validated as Case after defaults are merged
    product: list[Product] = []


SCHEMA_FILE = Path(__file__).with_name("cases.schema.json")


def json_schema() -> dict[str, Any]:
    """The JSON schema of a ``cases.toml`` file, from the models above, for editors: taplo and Even
    Better TOML read it from the file's first line, ``#:schema <relative path of SCHEMA_FILE>``.
    What the loader adds (``source``, a target's ``cases``) is left out, and a ``[[case]]`` is a
    case's keys (the loader validates it as a :class:`Case` once the defaults are merged)."""
    schema = CasesFile.model_json_schema()
    case = Case.model_json_schema()
    defs = {**schema.pop("$defs"), **case.pop("$defs", {})}
    case["properties"].pop("source")
    defs["Case"] = case
    for loaded in ("source", "cases"):
        defs["Target"]["properties"].pop(loaded)
    schema["properties"]["case"]["items"] = {"$ref": "#/$defs/Case"}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema, "$defs": defs}


def schema_text() -> str:
    """SCHEMA_FILE's contents (``python -m ck_tile_nox schema > <SCHEMA_FILE>`` writes it)."""
    return json.dumps(json_schema(), indent=2, sort_keys=True) + "\n"


# ---- expansion --------------------------------------------------------------------------------


def _fill(value: Any, params: dict[str, Any]) -> Any:
    """``value`` with ``{param}`` replaced; a list element that is just ``{p}`` splices a list."""
    if isinstance(value, str):
        return _PARAM.sub(lambda m: str(params.get(m[1], m[0])), value)
    if isinstance(value, list | tuple):
        out: list[Any] = []
        for v in value:
            whole = _PARAM.fullmatch(v) if isinstance(v, str) else None
            if whole and isinstance(params.get(whole[1]), list | tuple):
                out.extend(params[whole[1]])
            else:
                out.append(_fill(v, params))
        return out
    if isinstance(value, dict):
        return {k: _fill(v, params) for k, v in value.items()}
    return value


def expand_product(product: Product) -> list[dict[str, Any]]:
    """The raw cases of a product, in ``itertools.product`` order of its vary keys."""
    raw = product.model_dump(exclude_unset=True, exclude={"vary"})
    names = list(product.vary)
    cases = []
    for combo in itertools.product(*(product.vary[n] for n in names)):
        params: dict[str, Any] = {}
        for name, value in zip(names, combo, strict=True):
            params.update(value if isinstance(value, dict) else {name: value})
        cases.append(_fill(raw, params))
    return cases


# ---- loading ----------------------------------------------------------------------------------


def _line(text: str, loc: Sequence[Any]) -> int:
    """The line of ``text`` that the pydantic error location ``loc`` points at (best effort)."""
    lines = text.splitlines()
    line, start = 1, 0
    if loc and isinstance(loc[0], str):
        header = re.compile(rf"^\s*(\[\[?{re.escape(loc[0])}(\]|\.)|{re.escape(loc[0])}\s*[=.])")
        hits = [i for i, ln in enumerate(lines) if header.match(ln)]
        nth = loc[1] if len(loc) > 1 and isinstance(loc[1], int) else 0
        if hits:
            start = hits[min(nth, len(hits) - 1)]
            line = start + 1
    for key in (k for k in loc[1:] if isinstance(k, str)):
        for i in range(start + 1, len(lines)):
            if lines[i].lstrip().startswith("["):
                break
            if re.match(rf"^\s*{re.escape(key)}\s*[=.]", lines[i]):
                return i + 1
    return line


def _errors(shown: str, text: str, exc: ValidationError, prefix: tuple[Any, ...] = ()) -> list[str]:
    out = []
    for err in exc.errors():
        loc = prefix + tuple(err["loc"])
        where = ".".join(str(p) for p in loc if not str(p).startswith(("function-", "str")))
        msg = "unknown key" if err["type"] == "extra_forbidden" else err["msg"]
        out.append(f"{shown}:{_line(text, loc)}: {where}: {msg}")
    return out


def parse_cases_file(path: Path, shown: str | None = None) -> list[Target]:
    """The targets of one file with their expanded cases; :class:`CasesError` if invalid."""
    shown = shown or str(path)
    text = path.read_text(encoding="utf-8")
    try:
        model = CasesFile.model_validate(tomllib.loads(text))
    except tomllib.TOMLDecodeError as exc:
        raise CasesError([f"{shown}: not valid TOML: {exc}"]) from None
    except ValidationError as exc:
        raise CasesError(_errors(shown, text, exc)) from None
    targets = model.target if isinstance(model.target, list) else [model.target]
    defaults = model.defaults.model_dump(exclude_unset=True)
    raws = [(("case", i), c) for i, c in enumerate(model.case)]
    raws += [(("product", i), c) for i, p in enumerate(model.product) for c in expand_product(p)]
    errors: list[str] = []
    cases: dict[str, list[Case]] = {t.name: [] for t in targets}
    for loc, raw in raws:
        at = f"{shown}:{_line(text, loc)}"
        try:
            case = Case.model_validate({**defaults, **raw, "source": path})
        except ValidationError as exc:
            errors += _errors(shown, text, exc, loc)
            continue
        tname = case.target or (targets[0].name if len(targets) == 1 else None)
        target = next((t for t in targets if t.name == tname), None)
        if target is None:
            errors.append(f"{at}: {case.name}: target must name one of this file's targets")
            continue
        errors += [f"{at}: {case.name}: {p}" for p in _problems(case, target)]
        if any(c.name == case.name for c in cases[target.name]):
            errors.append(f"{at}: duplicate case name {case.name!r}")
        cases[target.name].append(case)
    if errors:
        raise CasesError(errors)
    return [t.model_copy(update={"source": path, "cases": cases[t.name]}) for t in targets]


def _problems(case: Case, target: Target) -> list[str]:
    out = []
    if case.archs and target.archs and (extra := set(case.archs) - set(target.archs)):
        out.append(f"archs {sorted(extra)} not among the target's archs")
    for axis, value in case.matrix.items():
        values = value if isinstance(value, list) else (value,)
        if axis not in target.matrix:
            out.append(f"matrix: {axis} is not an axis of {target.name}")
        elif bad := [v for v in values if v not in target.matrix[axis]]:
            out.append(f"matrix.{axis}: {bad} not among {list(target.matrix[axis])}")
    for pattern in case.expect_regex:
        try:
            re.compile(pattern)
        except re.error as exc:
            out.append(f"expect_regex {pattern!r}: {exc}")
    out += [f"unfilled parameter in {s!r}" for s in (case.name, *case.args) if _PARAM.search(s)]
    return out


def find_cases_files(root: Path) -> list[Path]:
    return sorted(p for sub in SEARCH_DIRS for p in (root / sub).rglob("cases.toml"))


def load_targets(root: Path, files: list[Path] | None = None) -> list[Target]:
    """Every target under ``root`` (names unique across files); :class:`CasesError` if not."""
    errors: list[str] = []
    targets: list[Target] = []
    seen: dict[str, str] = {}
    for path in find_cases_files(root) if files is None else files:
        shown = str(path.relative_to(root)) if path.is_relative_to(root) else str(path)
        try:
            parsed = parse_cases_file(path, shown)
        except CasesError as exc:
            errors += exc.errors
            continue
        for t in parsed:
            if t.name in seen:
                errors.append(f"{shown}: target {t.name} is also declared in {seen[t.name]}")
            seen[t.name] = shown
            targets.append(t)
    if errors:
        raise CasesError(errors)
    return targets
