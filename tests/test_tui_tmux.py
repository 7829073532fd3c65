"""The real program in a real terminal: tests/tmux_drive.sh drives it in tmux."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
@pytest.mark.parametrize("script", ["tmux_drive.sh", "tmux_crash.sh"])
def test_drive_the_program_in_tmux(script):
    """tmux_drive.sh: open, add, rename, undo/redo, save, quit. tmux_crash.sh: kill -9, then recover."""
    exe = Path(sys.executable).parent / "rosterkit"
    if not exe.exists():
        exe = Path(shutil.which("rosterkit") or "rosterkit")
    env = dict(os.environ, ROSTERKIT_EXE=str(exe))
    for name in ("COLUMNS", "LINES"):  # the terminal's own size must rule, not a fixed width
        env.pop(name, None)
    result = subprocess.run(["bash", str(HERE / script)], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith("OK")
