"""The package's shape: the core stays free of user-interface libraries, each command imports
what it uses, the folders depend one way, and nothing plays tricks with the process."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SAMPLES

PACKAGE = ROOT / "rosterkit"
CORE = ["rules", "engine", "files"]
UI_LIBRARIES = ("textual", "reportlab", "rich")


def imported_after(code: str) -> set[str]:
    """Top-level package names imported by running ``code`` in a fresh interpreter."""
    probe = f"{code}\nimport sys\nprint(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    return set(result.stdout.split())


def test_the_core_imports_no_user_interface_library():
    modules = [f"rosterkit.{p.relative_to(PACKAGE).with_suffix('').as_posix().replace('/', '.')}"
               for folder in CORE for p in (PACKAGE / folder).glob("*.py") if p.stem != "__init__"]
    loaded = imported_after("import " + ", ".join(modules + ["rosterkit.workspace"]))
    assert not loaded & set(UI_LIBRARIES)


def test_the_editing_core_imports_no_user_interface_library():
    """What the interface does to a roster (documents, edits, recovery, recent rosters) lives in
    rosterkit.editing, usable by any front-end: neither Textual nor Rich come with it."""
    modules = [f"rosterkit.editing.{p.stem}" for p in (PACKAGE / "editing").glob("*.py") if p.stem != "__init__"]
    assert {"document", "edits", "recovery", "recent", "play"} <= {m.rsplit(".", 1)[1] for m in modules}
    loaded = imported_after("import " + ", ".join(modules))
    assert not loaded & set(UI_LIBRARIES)
    for path in (PACKAGE / "editing").glob("*.py"):  # nor does any front-end (the cards are one)
        assert not {"tui", "cli", "cards"} & imports_of(path), path


def test_screens_ask_the_app_through_messages():
    """A screen posts a message the app handles (tui/messages.py): no call to a method the app
    or another screen may not have (hidden by a type: ignore), no test of a screen's class name."""
    for path in (PACKAGE / "tui").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "type: ignore[attr-defined]" not in text, path
        assert not re.search(r"__name__\s*[!=]=", text), path
    design = (PACKAGE / "tui" / "screens" / "design.py").read_text(encoding="utf-8")
    assert "owner" not in design  # it edits the document, and never holds the roster screen


def test_help_imports_neither_the_core_nor_any_library():
    loaded = imported_after("import contextlib, io\nfrom rosterkit.cli import main\n"
                            "with contextlib.redirect_stdout(io.StringIO()):\n"
                            "    try:\n        main(['--help'])\n    except SystemExit:\n        pass")
    assert not loaded & {"pydantic", "tomli", *UI_LIBRARIES}


def test_a_piped_validate_imports_no_user_interface_library():
    sample = SAMPLES / "ares_hill_clans.toml"
    loaded = imported_after("import contextlib, io\nfrom rosterkit.cli import main\n"
                            f"with contextlib.redirect_stdout(io.StringIO()):\n    main(['validate', {str(sample)!r}])")
    assert "pydantic" in loaded and not loaded & set(UI_LIBRARIES)


def imports_of(path: Path) -> set[str]:
    """The rosterkit folders (or modules) a file imports, resolved from relative imports."""
    module = path.relative_to(ROOT).with_suffix("").parts
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(module[:len(module) - node.level]) + (node.module.split(".") if node.module else [])
            else:
                base = (node.module or "").split(".")
            if base and base[0] == "rosterkit" and len(base) > 1:
                out.add(base[1])
    return out


@pytest.mark.parametrize("folder, may_use", [
    ("rules", {"rules", "errors", "findings", "visible", "words"}),
    ("engine", {"rules", "engine", "errors", "findings", "visible", "words"}),
    ("files", {"rules", "engine", "files", "errors", "findings", "visible", "words"}),
])
def test_the_folders_depend_one_way(folder, may_use):
    for path in (PACKAGE / folder).glob("*.py"):
        assert imports_of(path) <= may_use, path


def test_the_cards_and_the_interface_never_import_the_command_line():
    for path in [*(PACKAGE / "cards").rglob("*.py"), *(PACKAGE / "tui").rglob("*.py")]:
        assert "cli" not in imports_of(path), path


def test_nothing_forks_touches_the_collector_or_leaves_the_process_abruptly():
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                call = f"{node.value.id}.{node.attr}"
                assert call not in {"os.fork", "os._exit", "gc.disable", "gc.freeze", "gc.collect"}, (path, call)
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                assert "gc" not in names and "multiprocessing" not in names, path


def test_the_interface_draws_with_textuals_own_widgets():
    """No line-API drawing of its own and none of Textual's internals: stock widgets, their
    public methods, Textual's CSS."""
    internals = ("render_line", "-command-palette", "refresh_styles", "virtual_size", "_compositor")
    for path in [*(PACKAGE / "tui").rglob("*.py"), *(PACKAGE / "tui").rglob("*.tcss")]:
        text = path.read_text(encoding="utf-8")
        for word in internals:
            assert word not in text, (path, word)
