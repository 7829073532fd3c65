"""Choose where to save a roster."""

from __future__ import annotations

from pathlib import Path

from .text_dialog import TextDialog


def check_target(text: str, cwd: Path, suffix: str = ".toml") -> tuple[Path | None, str | None, str | None]:
    """(path, problem, warning) for a file name typed by the player."""
    text = text.strip()
    if not text:
        return None, "Enter a file name", None
    path = Path(text).expanduser()
    if not path.is_absolute():
        path = cwd / path
    if suffix and path.suffix.lower() != suffix:
        path = path.with_name(path.name + suffix)
    try:
        if path.is_dir():
            return None, "That is a folder; add a file name", None
        if not path.parent.is_dir():
            return None, f"No folder {path.parent}", None
        exists = path.exists()
    except OSError as exc:  # a name too long, a folder that cannot be searched
        return None, f"Cannot use that name: {exc.strerror or exc}", None
    warning = "A file of that name exists: it will be replaced (the old one is kept as .bak)" if exists else None
    return path, None, warning


class SaveAsScreen(TextDialog[Path]):
    DIALOG_ID, INPUT_ID, MESSAGE_ID = "save-as", "save-path", "save-message"

    def __init__(self, suggestion: str, cwd: Path, title: str = "Save roster as", suffix: str = ".toml") -> None:
        super().__init__(title, f"File name (relative to {cwd}):", suggestion)
        self.cwd = cwd
        self.suffix = suffix

    def verdict(self, text: str) -> tuple[Path | None, str | None, str | None]:
        return check_target(text, self.cwd, self.suffix)
