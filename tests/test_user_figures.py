"""The player's own reusable figures: the figures file, resolution in costing and the command line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import load

from rosterkit.engine.costing import FigureShelf, cost_roster
from rosterkit.engine.roster import RosterFile, Unit
from rosterkit.errors import RosterkitError
from rosterkit.files.figures import (
    figure_from_unit,
    figures_path,
    load_user_figures,
    save_user_figures,
)
from rosterkit.files.rosters import save_roster
from rosterkit.rules.schema import FigureDef
from rosterkit.workspace import player_figures

OGRE = FigureDef(name="My Ogre", type="Elite", count=3, weapons=["Big bite/big claw/big fist/great axe/great sword"],
                 stats={"dice": 2, "die": 8, "move": 6, "fight": 1, "shoot": 0, "defense": 9},
                 description="Big and grumpy.")


def roster_with(*units: Unit) -> RosterFile:
    return RosterFile(name="Test", ruleset="fast_universal", units=list(units))


def test_the_file_lives_in_the_players_folder():
    assert figures_path("fast_universal") == Path(os.environ["ROSTERKIT_HOME"]) / "figures" / "fast_universal.toml"


def test_the_folder_follows_xdg_without_rosterkit_home(monkeypatch, tmp_path):
    monkeypatch.delenv("ROSTERKIT_HOME")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert figures_path("ares") == tmp_path / "rosterkit" / "figures" / "ares.toml"


def test_save_and_load_round_trip():
    assert load_user_figures("fast_universal") == []
    plain = FigureDef(name="Scout", type="Basic")
    path = save_user_figures("fast_universal", [OGRE, plain])
    assert path == figures_path("fast_universal")
    assert load_user_figures("fast_universal") == [OGRE, plain]
    text = path.read_text(encoding="utf-8")
    assert "[[figures]]" in text and 'name = "My Ogre"' in text
    save_user_figures("fast_universal", [plain])  # the previous file is kept as .bak
    assert load_user_figures("fast_universal") == [plain]
    assert path.with_name(path.name + ".bak").is_file()


def test_a_unit_resolves_to_the_players_figure_in_costing():
    rs = load("fast_universal")
    save_user_figures("fast_universal", [OGRE])
    roster = roster_with(Unit(name="Ogres", figure="my ogre"))
    unknown = cost_roster(rs, roster)
    assert any(f.rule == "unknown-figure" for f in unknown.findings)
    shelf, error = player_figures(rs, roster)
    assert error is None
    report = cost_roster(rs, roster, shelf)
    findings = [f for f in report.findings if f.severity == "info"]
    assert not [f for f in report.findings if f.severity == "error"]
    assert report.units[0].figures == 3 and report.units[0].type_id == "elite"
    # the same figure written into the roster costs the same
    inline = roster_with(Unit(name="Ogres", type="Elite", count=3, weapons=list(OGRE.weapons), stats=dict(OGRE.stats)))
    assert report.total == cost_roster(rs, inline).total > 0
    assert [f.rule for f in findings] == ["personal-figure"]
    assert rs.find_figure("My Ogre") is None  # the loaded ruleset itself is left alone


def test_the_rulesets_figure_wins_a_name_clash():
    rs = load("fast_universal")
    mine = FigureDef(name="Average Human", type="Hero", count=1, stats={"dice": 3, "die": 12})
    shelf = FigureShelf(rs, [mine, OGRE])
    assert shelf.find("Average human") is rs.find_figure("Average human")
    assert shelf.find("My Ogre") == OGRE
    roster = roster_with(Unit(name="Men", figure="Average human"))
    save_user_figures("fast_universal", [mine])
    report = cost_roster(rs, roster, player_figures(rs, roster)[0])
    assert report.findings == []  # nothing personal is needed


def test_figure_from_unit_keeps_its_cost():
    rs = load("fast_universal")
    unit = Unit(name="Guard", figure="Average human", count=5, stats={"defense": 9}, abilities=["Fearless"])
    fig = figure_from_unit(FigureShelf(rs), unit, "Guard")
    assert fig.type == "Basic" and fig.count == 5 and fig.stats["defense"] == 9 and fig.stats["die"] == 6
    assert fig.weapons == ["Claw/hand/spear/sword"] and fig.abilities == ["Fearless"]
    before = cost_roster(rs, roster_with(unit))
    after = cost_roster(rs, roster_with(Unit(name="Guard", figure="Guard", weapons=fig.weapons,
                                             abilities=fig.abilities)), FigureShelf(rs, [fig]))
    assert before.units[0].members[0].per_figure == after.units[0].members[0].per_figure
    with pytest.raises(ValueError, match="type"):
        figure_from_unit(FigureShelf(rs), Unit(name="Nobody"), "Nobody")


def test_validate_and_cost_use_the_players_figure(cli, tmp_path):
    save_user_figures("fast_universal", [OGRE])
    path = tmp_path / "ogres.toml"
    save_roster(roster_with(Unit(name="Ogres", figure="My Ogre"), Unit(name="Men", figure="Average human", count=50)),
                path)
    r = cli("validate", path)
    assert r.code == 0, r.out + r.err
    assert "personal-figure" in r.out and str(figures_path("fast_universal")) in r.out
    r = cli("validate", "--json", path)
    doc = json.loads(r.out)
    assert doc["ok"] and doc["rosters"][0]["findings"][0]["severity"] == "info"
    r = cli("cost", "--json", path)
    assert r.code == 0 and json.loads(r.out)["units"][0]["figures"] == 3


def test_without_the_file_the_figure_is_unknown(cli, tmp_path):
    path = tmp_path / "ogres.toml"
    save_roster(roster_with(Unit(name="Ogres", figure="My Ogre")), path)
    r = cli("validate", path)
    assert r.code == 1 and "unknown figure 'My Ogre'" in r.out


@pytest.mark.parametrize("text, key", [
    ("[[figures]]\nname = 'Ogre'\n", "figures[0].type"),
    ("[[figures]]\nname = 'Ogre'\ntype = 'Elite'\ncount = 'many'\n", "figures[0].count"),
    ("[[figures]]\nname = 'Ogre'\ntype = 'Elite'\ncolour = 'green'\n", "figures[0].colour"),
    ("[[figures]]\nname = 'Ogre'\ntype = 'Elite'\n[[figures]]\nname = 'ogre'\ntype = 'Basic'\n", "figures[1].name"),
    ("figures = [\n", None),
])
def test_a_broken_file_gives_a_clear_error(cli, tmp_path, text, key):
    path = figures_path("fast_universal")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RosterkitError) as exc:
        load_user_figures("fast_universal")
    p = exc.value.problems[0]
    assert p.file == str(path) and (key is None or p.key == key)
    roster = tmp_path / "ogres.toml"
    save_roster(roster_with(Unit(name="Ogres", figure="My Ogre")), roster)
    r = cli("validate", roster)
    assert r.code == 2 and str(path) in r.err and "Traceback" not in r.err
    assert path.read_text(encoding="utf-8") == text  # never rewritten
    # a roster that needs none of the player's figures is not troubled by the file
    plain = tmp_path / "plain.toml"
    save_roster(roster_with(Unit(name="Men", figure="Average human")), plain)
    r = cli("validate", plain)
    assert r.code == 0, r.out + r.err


def test_two_windows_saving_figures_keep_each_others(registry):
    """Two windows open on the same ruleset: the second save would drop the first window's new
    figure, so it is refused, the file is read again, and the change can then be made over it."""
    import pytest

    from rosterkit.editing.document import Document
    from rosterkit.files.atomic import FileChangedError
    from rosterkit.workspace import open_value

    rs = registry.get("fast_universal")
    first, second = (Document(open_value(roster_with(), rs)) for _ in range(2))
    first.save_figures([OGRE])
    other = OGRE.model_copy(update={"name": "Second Ogre"})
    with pytest.raises(FileChangedError):
        second.save_figures([other])  # made without knowing of My Ogre
    assert load_user_figures("fast_universal") == [OGRE]
    assert second.user_figures == [OGRE]  # the window now shows the file as it is
    second.save_figures([*second.user_figures, other])
    assert [f.name for f in load_user_figures("fast_universal")] == ["My Ogre", "Second Ogre"]
