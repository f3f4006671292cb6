"""Build times from ninja's log: only the steps of the build that just ran count."""

from __future__ import annotations

from pathlib import Path

from ck_tile_nox.build import ninja_log_lines, ninja_times

LOG = (
    "# ninja log v5\n"
    "0\t4000\t1\texample/CMakeFiles/tile_example_gemm_basic.dir/a.cpp.o\th1\n"
    "4000\t4500\t1\tbin/tile_example_gemm_basic\th2\n"
    "0\t1000\t1\ttutorial/CMakeFiles/tile_tutorial_copy_kernel.dir/c.cpp.o\th3\n"
)


def test_times_of_this_build_only(tmp_path: Path):
    (tmp_path / ".ninja_log").write_text(LOG)
    targets = ["tile_example_gemm_basic", "tile_tutorial_copy_kernel"]
    assert ninja_times(tmp_path, targets) == {
        "tile_example_gemm_basic": 4.5,
        "tile_tutorial_copy_kernel": 1.0,
    }
    before = ninja_log_lines(tmp_path)
    assert ninja_times(tmp_path, targets, since=before) == {}  # nothing rebuilt: up to date
    with (tmp_path / ".ninja_log").open("a") as f:  # a rebuild of one object, a ccache hit
        f.write("0\t200\t2\ttutorial/CMakeFiles/tile_tutorial_copy_kernel.dir/c.cpp.o\th4\n")
    assert ninja_times(tmp_path, targets, since=before) == {"tile_tutorial_copy_kernel": 0.2}


def test_no_log(tmp_path: Path):
    assert ninja_log_lines(tmp_path) == 0
    assert ninja_times(tmp_path, ["x"]) == {}
