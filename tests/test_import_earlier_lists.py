"""Lists written by an earlier release still import: a player's list posted to a forum or sent to an
organiser is read back as the army it was, though the cards' notation has moved on since. The lists
in fixtures/text_lists are every sample army as `rosterkit text` wrote it before heroic_gods' victory
points left the cards' stat band and LEGO's reload column was renamed; a change of notation that
would refuse them (as moving VP or Unit Morale out of the text lists' stat lines did) fails here."""

from __future__ import annotations

import pytest
from conftest import FIXTURES, SAMPLES, run_cli

EARLIER = sorted((FIXTURES / "text_lists").glob("*.txt"))


def test_every_sample_has_an_earlier_list():
    assert {p.stem for p in EARLIER} == {p.stem for p in SAMPLES.glob("*.toml")}


@pytest.mark.parametrize("listed", EARLIER, ids=lambda p: p.stem)
def test_an_earlier_list_imports_as_the_army_it_was(tmp_path, listed):
    out = tmp_path / "back.toml"
    r = run_cli("import", listed, "-o", out)
    assert r.code == 0, r.err
    assert run_cli("fingerprint", out).out.strip() == run_cli("fingerprint", SAMPLES / f"{listed.stem}.toml").out.strip()
