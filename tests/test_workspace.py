"""One roster, one path: the command line, the cards command and the interface agree."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import SAMPLES, run_cli

from rosterkit.engine.roster import RosterFile, Unit
from rosterkit.errors import RosterkitError
from rosterkit.files.figures import figures_path, save_user_figures
from rosterkit.files.rosters import save_roster
from rosterkit.files.rulesets import Registry
from rosterkit.rules.schema import FigureDef
from rosterkit.tui.app import RosterkitApp
from rosterkit.workspace import open_roster

OGRE = FigureDef(name="My Ogre", type="Elite", count=3, weapons=["Big bite/big claw/big fist/great axe/great sword"],
                 stats={"dice": 2, "die": 8, "move": 6, "fight": 1, "shoot": 0, "defense": 9})


def ogre_roster(folder: Path) -> Path:
    """A roster naming one of the player's own figures (kept in the player's folder)."""
    save_user_figures("fast_universal", [OGRE])
    path = folder / "ogres.toml"
    save_roster(RosterFile(name="Ogres", ruleset="fast_universal", points_limit=500,
                           units=[Unit(name="Ogres", figure="My Ogre"),
                                  Unit(name="Men", figure="Average human", count=20)]), path)
    return path


def rosters(folder: Path) -> list[Path]:
    return sorted(SAMPLES.glob("*.toml")) + [ogre_roster(folder)]


def shown(findings) -> list[tuple]:
    return [(f["severity"], f["rule"], f["message"], f.get("unit")) for f in findings]


def samples_by_ruleset() -> dict[str, list[str]]:
    """Every sample army's file name, by its ruleset; the roster of the player's own figures
    (fast_universal) last of its ruleset."""
    from rosterkit.files.rosters import load_roster

    groups: dict[str, list[str]] = {}
    for path in sorted(SAMPLES.glob("*.toml")):
        groups.setdefault(load_roster(path).roster.ruleset, []).append(path.name)
    groups["fast_universal"].append("ogres.toml")
    return groups


SAMPLES_BY_RULESET = samples_by_ruleset()


async def test_the_command_line_and_the_interface_agree(tmp_path):
    """Every sample army of every ruleset (and for fast_universal a roster of the player's own
    figures), opened in turn in one interface: the total and findings it shows are the ones
    the command line prints. (One app for them all: each roster opened is a whole roster
    screen made anew, whatever came before it.)"""
    names = [name for ruleset in sorted(SAMPLES_BY_RULESET) for name in SAMPLES_BY_RULESET[ruleset]]
    app = RosterkitApp(Registry(), SAMPLES / names[0], cwd=tmp_path)  # the first as given on the command line
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for name in names:
            path = SAMPLES / name if name != "ogres.toml" else ogre_roster(tmp_path)
            if name != names[0]:
                app.open_roster(path)
                await pilot.pause()
            cost = json.loads(run_cli("cost", "--json", path).out)
            validate = json.loads(run_cli("validate", "--json", path).out)["rosters"][0]
            [screen] = app.roster_screens
            session = screen.session
            assert session.path == path, name
            total, findings = session.report.total, shown(f.to_json() for f in session.validation.findings)
            assert total == pytest.approx(cost["total"]) and cost["total"] == validate["total"], name
            assert findings == shown(validate["findings"]), name
            if name == "ogres.toml":
                assert cost["total"] > 0 and ("info", "personal-figure") in [f[:2] for f in findings], name
    assert len(names) == len(list(SAMPLES.glob("*.toml"))) + 1, "every sample and the player's own figures"


def test_the_cards_command_prices_what_the_command_line_prices(tmp_path):
    from pypdf import PdfReader

    path = ogre_roster(tmp_path)
    total = json.loads(run_cli("cost", "--json", path).out)["total"]
    pdf = tmp_path / "cards.pdf"
    result = run_cli("cards", path, "-o", pdf, "-q")
    assert result.code == 0, result.err
    text = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert "My Ogre" in text or "Ogres" in text
    assert f"{total} / 500" in text.replace("\n", " ") or f"{total}" in text


def test_a_broken_figures_file_stops_only_a_roster_that_needs_it(tmp_path):
    registry = Registry()
    needs = ogre_roster(tmp_path)
    figures_path("fast_universal").write_text("[[figures]]\nname = 'Ogre'\n", encoding="utf-8")
    with pytest.raises(RosterkitError) as exc:
        open_roster(needs, registry)
    assert exc.value.problems[0].file == str(figures_path("fast_universal"))
    plain = tmp_path / "plain.toml"
    shutil.copy(SAMPLES / "fast_universal_iron_vanguard.toml", plain)
    opened = open_roster(plain, registry)
    assert opened.figures_error is not None and opened.validation.ok


def test_findings_carry_the_file_and_line(tmp_path):
    opened = open_roster(SAMPLES / "fast_universal_INVALID_hero_heavy.toml", Registry())
    unit_findings = [f for f in opened.findings if f.unit is not None]
    assert unit_findings or opened.findings
    for f in opened.findings:
        assert f.file == str(SAMPLES / "fast_universal_INVALID_hero_heavy.toml")
    assert all(f.line for f in unit_findings)


def test_the_loaded_ruleset_is_frozen(registry):
    import dataclasses

    rs = registry.get("fast_universal")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rs.limits = []  # type: ignore[misc]
