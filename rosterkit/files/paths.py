"""The player's folders.

Settings and the player's own files (rulesets, figures, recent rosters, recovery files) live in
``$ROSTERKIT_HOME`` when set, else ``$XDG_CONFIG_HOME/rosterkit``, else ``~/.config/rosterkit``.
"""

from __future__ import annotations

import os
from pathlib import Path


def home_dir() -> Path:
    env = os.environ.get("ROSTERKIT_HOME")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "rosterkit"
