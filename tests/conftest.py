"""Shared fixtures: the project's folders, a ruleset registry, a CLI runner, shared card exports."""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
SAMPLES = ROOT / "sample_armies"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    """Keep the user's own rulesets folder out of the tests."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("ROSTERKIT_HOME", str(home))
    monkeypatch.setenv("COLUMNS", "200")


@dataclass
class CliResult:
    code: int
    out: str
    err: str


def run_cli(*args: str) -> CliResult:
    """Run the rosterkit command line in-process and capture what it prints."""
    from rosterkit.cli import main

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:  # argparse usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    return CliResult(code, out.getvalue(), err.getvalue())


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture(scope="session")
def sample_cards(tmp_path_factory):
    """``sample_cards(path, options)``: a sample army's cards exported once per worker with those
    options, shared by the tests that only read them (tests/cardexports.py)."""
    from cardexports import sample_exporter

    return sample_exporter(tmp_path_factory.mktemp("cards"))


@pytest.fixture(scope="session")
def registry():
    from rosterkit.files.rulesets import Registry

    return Registry()


def ruleset_with(folder: Path, ruleset_id: str, old: str, new: str) -> str:
    """A copy of a bundled ruleset in ``folder`` with its first ``old`` written as ``new`` (which
    must be there): the path, for check-ruleset."""
    text = (RULESETS / f"{ruleset_id}.toml").read_text()
    assert old in text
    path = folder / f"{ruleset_id}.toml"
    path.write_text(text.replace(old, new, 1))
    return str(path)


def load(ruleset_id: str):
    from rosterkit.files.rulesets import load_ruleset_file

    return load_ruleset_file(RULESETS / f"{ruleset_id}.toml")


def cost_sample(name: str):
    """Cost a sample army by file name; returns (ruleset, report)."""
    from rosterkit.engine.costing import cost_roster
    from rosterkit.files.rosters import load_roster

    roster = load_roster(SAMPLES / name).roster
    rs = load(roster.ruleset)
    return rs, cost_roster(rs, roster)


sys.path.insert(0, str(Path(__file__).resolve().parent))


def ftm_targets(die: int) -> str:
    """For the Masses: what a die hits on against Defense 0 to 3, as a card works it out (half the
    die plus the Defense; past the die's highest face, so many of that face doubled up)."""
    steps = [die // 2 + d for d in range(4)]
    return "/".join(f"{t}+" if t <= die else f"{t} (×{t - die + 1})" for t in steps)
