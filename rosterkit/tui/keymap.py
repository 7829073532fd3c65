"""The player's own keys: ``keymap.toml`` in the rosterkit folder maps a key's id to the keys
that run it (Textual's keymaps), for example ``"units.add" = "n"`` or ``"roster.save" = "f2,ctrl+s"``.
The ids are listed in F1's help."""

from __future__ import annotations

from pathlib import Path

from ..errors import RosterkitError
from ..files.paths import home_dir
from ..files.tomlfile import load_toml
from ..visible import visible

KEYMAP_FILE = "keymap.toml"


def keymap_path() -> Path:
    return home_dir() / KEYMAP_FILE


def read_keymap(path: Path) -> tuple[dict[str, str], list[str]]:
    """The keymap a file gives (empty when there is no file), and what is wrong with it: a file
    that cannot be read gives no keys; an entry that is not a text of keys is left out."""
    if not path.is_file():
        return {}, []
    try:
        data, _ = load_toml(path)
    except RosterkitError as exc:
        return {}, [str(exc)]
    keymap: dict[str, str] = {}
    problems: list[str] = []
    for key_id, keys in data.items():
        if isinstance(keys, str) and keys.strip() and all(k.strip() for k in keys.split(",")):
            keymap[key_id] = keys
        else:
            problems.append(f"{path}: {visible(key_id)!s} should be keys, as in \"ctrl+s\" or \"f2,ctrl+s\"; "
                            "it is left as it was")
    return keymap, problems
