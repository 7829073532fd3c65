"""The terminal interface's entry point."""

from __future__ import annotations


def run_app(path, registry) -> int:
    from ..errors import RosterkitError

    raise RosterkitError("the terminal interface is not available yet")
