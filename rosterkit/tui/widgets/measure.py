"""How many lines a renderable takes at a width, to skip a layout pass when it stays the same."""

from __future__ import annotations

import io

from rich.console import Console, RenderableType

_console = Console(file=io.StringIO(), width=80, color_system=None, legacy_windows=False)


def rendered_height(renderable: RenderableType, width: int) -> int:
    if width <= 0:
        return -1
    options = _console.options.update(width=width, max_width=width)
    return len(_console.render_lines(renderable, options, pad=False))
