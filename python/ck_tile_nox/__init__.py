"""Task-runner layer of the CK Tile monorepo.

``noxfile.py`` only declares sessions; each session installs this package and runs
``python -m ck_tile_nox <command>``. The modules:

- :mod:`ck_tile_nox.cases`        find and validate the ``cases.toml`` files
- :mod:`ck_tile_nox.matrix`       expand arch x build-matrix axes into build dirs and runs
- :mod:`ck_tile_nox.discovery`    pick the backend, the archs and the compiler
- :mod:`ck_tile_nox.tools`        check (and, as root, install) cmake, ninja and the compiler
- :mod:`ck_tile_nox.cmake`        configure and build one build dir
- :mod:`ck_tile_nox.runner`       run one binary with a timeout
- :mod:`ck_tile_nox.expect`       check a run's output against its case
- :mod:`ck_tile_nox.report`       summary table, JUnit XML, JSON
- :mod:`ck_tile_nox.bench`        the ``bench = true`` cases through pytest-benchmark (with
  :mod:`ck_tile_nox.bench_plugin` and :mod:`ck_tile_nox.bench_suite`); compare two runs
- :mod:`ck_tile_nox.device_check` register, scratch and LDS budgets of the device code objects
- :mod:`ck_tile_nox.lint`         ruff and clang-format
- :mod:`ck_tile_nox.commands`     the commands behind the nox sessions
"""

__version__ = "0.1.0"
