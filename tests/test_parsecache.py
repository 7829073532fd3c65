"""The parse cache makes reading a large roster again faster, never different."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from rosterkit import parsecache, roster as roster_mod
from rosterkit.costing import cost_roster
from rosterkit.roster import load_roster, save_roster
from rosterkit.ruleset import Registry

sys.path.insert(0, str(Path(__file__).resolve().parent / "benchmarks"))
from synth import synthetic_roster  # noqa: E402

from conftest import run_cli  # noqa: E402


@pytest.fixture()
def big(tmp_path) -> Path:
    rs = Registry().get("fast_universal")
    path = tmp_path / "big.toml"
    save_roster(synthetic_roster(rs, 400), path)
    assert path.stat().st_size >= parsecache.MIN_BYTES
    return path


def entries() -> list[Path]:
    folder = parsecache._folder()
    return sorted(p for p in folder.iterdir() if not p.name.startswith(".")) if folder.exists() else []


def refuse_parsing(monkeypatch):
    def fail(text, file):
        raise AssertionError("the TOML parser ran although the text was cached")
    monkeypatch.setattr(roster_mod, "parse_toml", fail)


def test_second_read_comes_from_the_cache_and_is_the_same(big, monkeypatch):
    first = load_roster(big).roster
    assert len(entries()) == 1
    refuse_parsing(monkeypatch)
    second = load_roster(big).roster
    assert second == first
    rs = Registry().get("fast_universal")
    assert cost_roster(rs, second).total == cost_roster(rs, first).total


def test_an_edited_file_is_parsed_afresh(big):
    load_roster(big)
    text = big.read_text(encoding="utf-8").replace('name = "Unit 1"', 'name = "Renamed"', 1)
    big.write_text(text, encoding="utf-8")
    assert load_roster(big).roster.units[0].name == "Renamed"
    assert len(entries()) == 2


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "empty"])
def test_a_damaged_entry_is_ignored_and_replaced(big, damage):
    expected = load_roster(big).roster
    (entry,) = entries()
    blob = entry.read_bytes()
    if damage == "truncate":
        entry.write_bytes(blob[: len(blob) // 2])
    elif damage == "flip":
        entry.write_bytes(blob[:-10] + bytes([blob[-10] ^ 0xFF]) + blob[-9:])
    elif damage == "garbage":
        entry.write_bytes(b"\x00\xff" * 1000)
    else:
        entry.write_bytes(b"")
    assert load_roster(big).roster == expected
    assert entry.read_bytes() == blob  # written again, whole


def test_the_cache_can_be_turned_off(big, monkeypatch):
    monkeypatch.setenv("ROSTERKIT_NO_CACHE", "1")
    load_roster(big)
    assert entries() == []


def test_small_files_are_not_cached(tmp_path):
    rs = Registry().get("fast_universal")
    path = tmp_path / "small.toml"
    save_roster(synthetic_roster(rs, 5), path)
    load_roster(path)
    assert entries() == []


def test_an_unwritable_cache_folder_does_not_stop_reading(big, monkeypatch, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setattr(parsecache, "_folder", lambda: blocker / "parsed")
    assert load_roster(big).roster.name.startswith("Synthetic")
    result = run_cli("validate", str(big))
    assert result.code in (0, 1) and "internal error" not in result.err


def test_values_marshal_cannot_keep_are_not_cached():
    import datetime

    key, data = parsecache.get("x" * parsecache.MIN_BYTES)
    assert key is not None and data is None
    parsecache.put(key, {"when": datetime.date(2026, 1, 1)})
    assert entries() == []


def test_the_folder_keeps_the_entries_used_last(monkeypatch):
    monkeypatch.setattr(parsecache, "MAX_ENTRIES", 3)
    texts = [f"# roster {i}\n" + "x" * parsecache.MIN_BYTES for i in range(5)]
    for i, text in enumerate(texts):
        key, _ = parsecache.get(text)
        parsecache.put(key, {"n": i})
        os.utime(parsecache._folder() / key, (1000 + i, 1000 + i))
    assert len(entries()) == 3
    assert [parsecache.get(t)[1] for t in texts] == [None, None, {"n": 2}, {"n": 3}, {"n": 4}]


def test_a_roster_file_cached_then_broken_gives_the_parsers_message(big):
    load_roster(big)
    big.write_text(big.read_text(encoding="utf-8") + "\nthis is not toml\n", encoding="utf-8")
    result = run_cli("validate", str(big))
    assert result.code == 2 and "not valid TOML" in result.err
