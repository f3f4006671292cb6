"""Backend discovery with stand-in hip-python modules and the override order."""

from __future__ import annotations

import sys
import types

import pytest

from ck_tile_nox.discovery import (
    DiscoveryError,
    detect_gpus,
    discover,
    find_compiler,
    parse_archs,
    strip_features,
)


class _Err(int):
    """Stands in for hip-python's hipError_t enum (has a .value)."""

    @property
    def value(self) -> int:
        return int(self)


def fake_hip(archs: list[str], count_error: int = 0) -> types.ModuleType:
    """A module shaped like ``hip`` with a ``hip`` submodule, as hip-python has."""
    api = types.ModuleType("hip.hip")

    class hipDeviceProp_t:
        gcnArchName = b""

    def hipGetDeviceCount():
        return (_Err(count_error), 0 if count_error else len(archs))

    def hipGetDeviceProperties(props, device):
        props.gcnArchName = archs[device].encode() + b"\0\0"
        return (_Err(0),)

    api.hipDeviceProp_t = hipDeviceProp_t
    api.hipGetDeviceCount = hipGetDeviceCount
    api.hipGetDeviceProperties = hipGetDeviceProperties
    pkg = types.ModuleType("hip")
    pkg.hip = api
    return pkg


@pytest.fixture
def hip_module(monkeypatch):
    def install(module):
        monkeypatch.setitem(sys.modules, "hip", module)
        monkeypatch.delitem(sys.modules, "hip.hip", raising=False)

    return install


def test_gfx942_device(hip_module):
    hip_module(fake_hip(["gfx942:sramecc+:xnack-"]))
    archs, _ = detect_gpus()
    assert archs == ["gfx942"]
    plat = discover(env={})
    assert (plat.backend, plat.archs) == ("hip", ("gfx942",))


def test_gfx950_devices(hip_module):
    hip_module(fake_hip(["gfx950:sramecc+:xnack-", "gfx950:sramecc+:xnack-"]))
    plat = discover(env={})
    assert (plat.backend, plat.archs) == ("hip", ("gfx950",))
    assert "2 GPU(s)" in plat.reason


def test_no_devices_falls_back_to_emulator(hip_module):
    hip_module(fake_hip([], count_error=100))
    lines: list[str] = []
    plat = discover(env={}, log=lines.append)
    assert (plat.backend, plat.archs) == ("emulator", ("gfx942", "gfx950"))
    assert lines == ["hip-python found no GPU: using the emulator for gfx942, gfx950"]


def test_import_error_falls_back_to_emulator(hip_module):
    hip_module(None)  # makes `from hip import hip` raise ImportError
    lines: list[str] = []
    plat = discover(env={}, log=lines.append)
    assert plat.backend == "emulator"
    assert lines == ["hip-python is not installed: using the emulator for gfx942, gfx950"]


def test_env_overrides(hip_module):
    hip_module(fake_hip(["gfx942"]))
    plat = discover(env={"CK_TILE_BACKEND": "emulator", "CK_TILE_ARCHS": "gfx950"})
    assert (plat.backend, plat.archs) == ("emulator", ("gfx950",))
    plat = discover(env={"CK_TILE_ARCHS": "gfx950,gfx942"})
    assert (plat.backend, plat.archs) == ("hip", ("gfx950", "gfx942"))


def test_options_beat_env(hip_module):
    hip_module(None)
    env = {"CK_TILE_BACKEND": "emulator", "CK_TILE_ARCHS": "gfx942", "ROCM_PATH": "/nonexistent"}
    plat = discover(backend="hip", archs="gfx950", env=env)
    assert (plat.backend, plat.archs, plat.runtime) == ("hip", ("gfx950",), "cpu")


def test_forced_hip_without_gpu_runs_on_hip_cpu(hip_module):
    # no GPU and no ROCm: the hip build runs on hip-cpu, for every arch (one build serves them)
    hip_module(None)
    plat = discover(backend="hip", env={"ROCM_PATH": "/nonexistent"})
    assert (plat.backend, plat.archs, plat.runtime) == ("hip", ("gfx942", "gfx950"), "cpu")
    assert plat.emulated and plat.name == "hip-cpu" and "hip-cpu" in plat.reason


def test_forced_hip_with_rocm_but_no_gpu_needs_archs(hip_module, tmp_path):
    # ROCm installed without a GPU (a build machine): a ROCm build, as CMake's default is
    (tmp_path / "include/hip").mkdir(parents=True)
    (tmp_path / "include/hip/hip_runtime.h").write_text("")
    hip_module(None)
    with pytest.raises(DiscoveryError, match="give the archs"):
        discover(backend="hip", env={"ROCM_PATH": str(tmp_path)})
    plat = discover(backend="hip", archs="gfx942", env={"ROCM_PATH": str(tmp_path)})
    assert (plat.archs, plat.runtime, plat.emulated) == (("gfx942",), "rocm", False)


def test_hip_runtime_from_env(hip_module):
    hip_module(fake_hip(["gfx942"]))  # a GPU, but CK_TILE_HIP_RUNTIME=cpu asks for hip-cpu
    plat = discover(backend="hip", env={"CK_TILE_HIP_RUNTIME": "cpu"})
    assert (plat.archs, plat.runtime) == (("gfx942", "gfx950"), "cpu")
    with pytest.raises(DiscoveryError, match="unknown runtime"):
        discover(backend="hip", env={"CK_TILE_HIP_RUNTIME": "gpu"})


def test_bad_values():
    with pytest.raises(DiscoveryError, match="unknown backend"):
        discover(env={"CK_TILE_BACKEND": "cuda"}, probe=lambda: ([], ""))
    with pytest.raises(DiscoveryError, match="not a GPU arch"):
        parse_archs("gfx942,sm90")


def test_parse_and_strip():
    assert parse_archs(["gfx942;gfx950", " gfx942:xnack- "]) == ("gfx942", "gfx950")
    assert strip_features(b"gfx90a:sramecc+:xnack-\0junk") == "gfx90a"


def test_emulator_compiler_order():
    present = {"clang++": "/x/clang++", "g++": "/x/g++"}
    compiler = find_compiler("emulator", env={}, which=present.get)
    assert compiler is not None and compiler.path == "/x/clang++"
    compiler = find_compiler("emulator", env={"CXX": "g++"}, which=present.get)
    assert compiler is not None and compiler.path == "/x/g++"  # CMake then refuses it
    assert find_compiler("emulator", env={}, which={"g++": "/x/g++"}.get) is None
    assert find_compiler("emulator", env={}, which=lambda _: None) is None


def test_hip_cpu_compiler_is_clang():
    present = {"clang++-22": "/x/clang++-22", "/rocm/bin/hipcc": "/rocm/bin/hipcc"}
    compiler = find_compiler("hip", env={"ROCM_PATH": "/rocm"}, which=present.get, runtime="cpu")
    assert compiler is not None and compiler.path == "/x/clang++-22"


def test_rocm_compiler_from_rocm_path():
    env = {"ROCM_PATH": "/rocm"}
    present = {"/rocm/bin/hipcc": "/rocm/bin/hipcc"}
    compiler = find_compiler("hip", env=env, which=present.get)
    assert compiler is not None and compiler.path == "/rocm/bin/hipcc"
    assert compiler.kind == "hipcc"


def fake_hip_without_runtime() -> types.ModuleType:
    """hip-python installed but no ROCm: the import works, the first call cannot load the
    runtime (hip-python raises RuntimeError from its loader)."""
    api = types.ModuleType("hip.hip")

    def hipGetDeviceCount():
        raise RuntimeError(
            "failed to dlopen 'b'libamdhip64.so'': b'libamdhip64.so: cannot open shared "
            "object file: No such file or directory'"
        )

    api.hipGetDeviceCount = hipGetDeviceCount
    pkg = types.ModuleType("hip")
    pkg.hip = api
    return pkg


def test_no_hip_runtime_is_one_line_and_the_emulator(hip_module):
    hip_module(fake_hip_without_runtime())
    lines: list[str] = []
    plat = discover(env={}, log=lines.append)
    assert (plat.backend, plat.archs) == ("emulator", ("gfx942", "gfx950"))
    assert lines == [
        "no HIP runtime found (hip-python could not load libamdhip64.so): "
        "using the emulator for gfx942, gfx950"
    ]


def test_one_gfx942_and_one_gfx950_device(hip_module):
    hip_module(fake_hip(["gfx942:sramecc+:xnack-", "gfx950:sramecc+:xnack-"]))
    archs, line = detect_gpus()
    assert archs == ["gfx942", "gfx950"]
    assert line == "hip-python found 2 GPU(s): gfx942, gfx950"
    plat = discover(env={})
    assert (plat.backend, plat.archs) == ("hip", ("gfx942", "gfx950"))
