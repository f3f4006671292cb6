"""Task-runner layer of the CK Tile monorepo (``noxfile.py`` only declares sessions).

- :mod:`ck_tile_nox.archs`        the arch table (include/ck_tile/core/arch/arch_table.def)
- :mod:`ck_tile_nox.cases`        the ``cases.toml`` model: defaults, products, validation
- :mod:`ck_tile_nox.matrix`       arch x axes -> build dirs; the shard rule
- :mod:`ck_tile_nox.discovery`    backend, archs and compiler
- :mod:`ck_tile_nox.build`        configure and build one build dir; tools; build times
- :mod:`ck_tile_nox.run`          run one binary with a timeout, check its output
- :mod:`ck_tile_nox.plugin`       the pytest plugin: one item per build dir, target and case
- :mod:`ck_tile_nox.bench`        bench cases under pytest-benchmark; comparing runs
- :mod:`ck_tile_nox.device_check` register, scratch and LDS budgets of the device code
- :mod:`ck_tile_nox.cli`          the commands behind the nox sessions
"""

__version__ = "0.2.0"
