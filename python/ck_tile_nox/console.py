"""Terminal output: rich progress bars and tables on a TTY, plain lines elsewhere (CI logs).

Plain mode is chosen when stdout is not a terminal, or forced with ``CK_TILE_PLAIN=1``
(``CK_TILE_PLAIN=0`` forces rich output).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table


def _want_plain(console: Console) -> bool:
    forced = os.environ.get("CK_TILE_PLAIN")
    if forced in ("1", "true", "yes"):
        return True
    if forced in ("0", "false", "no"):
        return False
    return not console.is_terminal


class ProgressHandle:
    """Tasks with counts; in plain mode only :meth:`log` prints anything."""

    def __init__(self, progress: Progress | None) -> None:
        self._progress = progress

    @property
    def plain(self) -> bool:
        return self._progress is None

    def add(self, description: str, total: float | None = None) -> TaskID | None:
        if self._progress is None:
            return None
        return self._progress.add_task(escape(description), total=total)

    def update(
        self,
        task: TaskID | None,
        *,
        description: str | None = None,
        completed: float | None = None,
        total: float | None = None,
    ) -> None:
        if self._progress is None or task is None:
            return
        kwargs: dict[str, object] = {}
        if description is not None:
            kwargs["description"] = escape(description)
        if completed is not None:
            kwargs["completed"] = completed
        if total is not None:
            kwargs["total"] = total
        self._progress.update(task, **kwargs)  # type: ignore[arg-type]

    def advance(self, task: TaskID | None, amount: float = 1) -> None:
        if self._progress is not None and task is not None:
            self._progress.advance(task, amount)

    def remove(self, task: TaskID | None) -> None:
        if self._progress is not None and task is not None:
            self._progress.remove_task(task)

    def log(self, text: str, style: str | None = None) -> None:
        if self._progress is None:
            print(text, flush=True)
        else:
            self._progress.console.print(escape(text), style=style, highlight=False)


class UI:
    """Everything the commands print goes through here."""

    def __init__(self, plain: bool | None = None) -> None:
        self.console = Console(highlight=False)
        self.plain = _want_plain(self.console) if plain is None else plain

    def line(self, text: str = "", style: str | None = None) -> None:
        if self.plain:
            print(text, flush=True)
        else:
            self.console.print(escape(text), style=style)

    def heading(self, text: str) -> None:
        if self.plain:
            print(f"== {text}", flush=True)
        else:
            self.console.rule(escape(text), style="cyan")

    def error(self, text: str) -> None:
        if self.plain:
            print(f"error: {text}", file=sys.stderr, flush=True)
        else:
            Console(stderr=True, highlight=False).print(escape(f"error: {text}"), style="bold red")

    def table(
        self,
        title: str,
        columns: Sequence[str],
        rows: Sequence[Sequence[object]],
        styles: Sequence[str | None] | None = None,
        right: Sequence[str] = (),
    ) -> None:
        """Print a table; ``styles`` colours whole rows, ``right`` names right-aligned columns."""
        cells = [[str(c) for c in row] for row in rows]
        if self.plain:
            print(render_plain_table(title, columns, cells, right), flush=True)
            return
        table = Table(title=escape(title), box=box.SIMPLE_HEAVY, title_justify="left")
        for col in columns:
            table.add_column(escape(col), justify="right" if col in right else "left")
        for i, row in enumerate(cells):
            table.add_row(*(escape(c) for c in row), style=styles[i] if styles else None)
        self.console.print(table)

    @contextmanager
    def progress(self) -> Iterator[ProgressHandle]:
        if self.plain:
            yield ProgressHandle(None)
            return
        progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=self.console,
            transient=True,
        )
        with progress:
            yield ProgressHandle(progress)


def render_plain_table(
    title: str, columns: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[str] = ()
) -> str:
    """A table as aligned plain text: title, header, a dashed rule, one line per row."""
    widths = [len(c) for c in columns]
    for row in rows:
        widths = [max(w, len(cell)) for w, cell in zip(widths, row, strict=True)]

    def fmt(row: Sequence[str]) -> str:
        parts = [
            cell.rjust(w) if col in right else cell.ljust(w)
            for cell, w, col in zip(row, widths, columns, strict=True)
        ]
        return "  ".join(parts).rstrip()

    lines = [title, fmt(columns), "  ".join("-" * w for w in widths)]
    lines += [fmt(row) for row in rows]
    return "\n".join(lines)
