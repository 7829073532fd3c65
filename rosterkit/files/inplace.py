"""A roster written into the text of the file it replaces, keeping what the player wrote.

:func:`in_place_texts` gives the old text changed to hold the new roster: comments,
blank lines, key order, inline tables or tables and quoting stay where nothing changed.

Units are matched to the file's units (:func:`match_tables`): by the same content, else
by a name that one unit on each side has, else by likeness, else by place. A matched unit
is changed key by key; a unit moved takes its comments along (those on the lines right
above its header included); a unit removed takes its own; a new one is written in the
style of its neighbours.

The text is cut at its table headers first (:func:`rosterkit.files.tomlstyle.split_blocks`),
so that only the units that changed are parsed with tomlkit, whose parser is slow (some
50 KB a second): unchanged units are kept as the very text they were. A text that cannot
be cut surely is parsed whole. The caller reads every text back before using it.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator

import tomli
import tomlkit
from pydantic import BaseModel
from tomlkit.items import AoT

from ..engine.roster import LocalItem, Member, RosterFile, Unit
from .tomlstyle import (
    Block,
    add_value,
    claim_leading_comments,
    fresh_table,
    item_of,
    keys_of,
    plain,
    replace_tables,
    same,
    space_tables,
    split_blocks,
    split_tail,
    sync_value,
    table_style,
    with_tail,
)

# the keys holding lists of tables, by the kind of table that holds them
_TABLE_LISTS: dict[type, dict[str, type[BaseModel]]] = {
    RosterFile: {"units": Unit, "weapons": LocalItem, "abilities": LocalItem, "equipment": LocalItem},
    Unit: {"members": Member},
}


def in_place_texts(roster: RosterFile, data: dict, old: str) -> Iterator[str]:
    """``old`` changed to hold ``roster`` (whose plain data, as saved, is ``data``):
    first unit by unit, then (should that not read back) the text parsed whole."""
    try:
        blocks = split_blocks(old)
        text = _by_units(roster, data, blocks) if blocks is not None else None
    except Exception:  # a layout this cannot follow: the text parsed whole, below
        text = None
    if text is not None:
        yield text
    try:
        text = _whole(roster, data, old)
    except Exception:  # a layout tomlkit's changes cannot follow: the caller's fresh text
        return
    yield text


def _whole(model: BaseModel, data: dict, old: str) -> str:
    doc = tomlkit.parse(old)
    tail = claim_leading_comments(doc)
    sync_model(doc, model, data, frozenset())
    return with_tail(tomlkit.dumps(doc), tail)


# ---------------------------------------------------------------- unit by unit


def _by_units(roster: RosterFile, data: dict, blocks: list[Block]) -> str | None:
    """The new text, each unit's text kept, changed or new on its own; None for a layout
    this does not follow (units not one after another, no units)."""
    before: list[str] = [blocks[0].text]
    units: list[list[Block]] = []
    after: list[str] = []
    for block in blocks[1:]:
        if block.array and block.name == ("units",):
            if after:
                return None
            units.append([block])
        elif block.name[:1] == ("units",):
            if not units or after:
                return None
            units[-1].append(block)
        else:
            (after if units else before).append(block.text)
    if not units:
        return None
    old_texts = ["".join(b.text for b in unit) for unit in units]
    tail = ""
    if not after:  # the comments that end the file belong to it, not to its last unit
        old_texts[-1], tail = split_tail(old_texts[-1])
    # each [[units]] header begins the next unit, and the [units.*] headers after it are its own
    olds = tomli.loads("".join(b.text for b in blocks)).get("units")
    if not isinstance(olds, list) or len(olds) != len(units):
        return None

    models, datas = list(roster.units), data.get("units", [])
    style = _unit_style(units, olds)
    spaced = any(text.endswith(("\n\n", "\r\n\r\n")) for text in old_texts[:-1])
    texts: list[str] = []
    previous = None
    for j, i in enumerate(match_tables(olds, datas)):
        if i is None:
            text = _fresh_unit(datas[j], style)
        elif _unchanged(olds[i], models[j], datas[j]):
            text = old_texts[i]
        else:
            text = _changed_unit(old_texts[i], models[j], datas[j], style)
        if not text.endswith("\n"):
            text += "\n"
        if texts and spaced and (i is None or previous is None or i != previous + 1) \
                and not texts[-1].endswith(("\n\n", "\r\n\r\n")) and not text.startswith(("\n", "\r\n")):
            texts[-1] += "\n"
        texts.append(text)
        previous = i
    if texts and after and not texts[-1].endswith(("\n\n", "\r\n\r\n")) and spaced:
        texts[-1] += "\n"

    # the rest of the file, the units' place marked by a comment line of its own
    marker = f"# rosterkit: the units go here {secrets.token_hex(8)}\n"
    head = "".join(before)
    rest = head + ("" if not head or head.endswith("\n") else "\n") + marker + "\n" + "".join(after)
    rest_data = {k: v for k, v in data.items() if k != "units"}
    rest = _whole(roster, rest_data, rest)
    at = rest.find(marker)
    if at < 0:
        return None
    end = at + len(marker)
    if rest.startswith("\n", end):
        end += 1
    return rest[:at] + "".join(texts) + rest[end:] + tail


def _unit_style(units: list[list[Block]], olds: list[dict]) -> frozenset[str]:
    """The keys most units write as ``[units.key]`` tables rather than inline."""
    votes: dict[str, int] = {}
    for blocks, old in zip(units, olds):
        tables = {b.name[1] for b in blocks[1:] if len(b.name) == 2 and not b.array}
        for key, value in old.items():
            if isinstance(value, dict):
                votes[key] = votes.get(key, 0) + (1 if key in tables else -1)
    return frozenset(key for key, vote in votes.items() if vote > 0)


def _unchanged(old: dict, model: BaseModel, data: dict) -> bool:
    """Whether the unit's text needs no change: every key the same, or a default written out."""
    for key, value in old.items():
        if key in data:
            if not same(value, data[key]):
                return False
        elif not written_default(model, key, value):
            return False
    return all(key in old for key in data)


def _changed_unit(text: str, model: BaseModel, data: dict, style: frozenset[str]) -> str:
    doc = tomlkit.parse(text)
    tail = claim_leading_comments(doc)
    table = doc.item("units").body[0]
    sync_model(table, model, data, style)
    return with_tail(tomlkit.dumps(doc), tail)


def _fresh_unit(data: dict, style: frozenset[str]) -> str:
    doc = tomlkit.document()
    aot = tomlkit.aot()
    aot.append(fresh_table(data, style))
    doc.append("units", aot)
    return tomlkit.dumps(doc)


# ---------------------------------------------------------------- a table of the document


def sync_model(table, model: BaseModel, data: dict, style: frozenset[str]) -> None:
    """Make a table of the file (the document, a unit, a member, an item) hold ``data``,
    the plain data of ``model`` as saved, key by key."""
    lists = _TABLE_LISTS.get(type(model), {})
    for key in keys_of(table):
        if key not in data and not written_default(model, key, item_of(table, key)):
            del table[key]
    present = set(keys_of(table))
    previous = None
    for key, value in data.items():
        if key in lists:
            _sync_tables(table, key, list(getattr(model, key)), value, key in present)
        elif key in present:
            sync_value(table, key, value)
        else:
            add_value(table, key, value, after=previous, as_table=key in style)
        previous = key


def written_default(model: BaseModel, key: str, value) -> bool:
    """A key the file sets to the value the roster has by default, and the roster still has
    it so (``notes = ""``, ``count = 1``): left as written."""
    if key not in type(model).model_fields or key not in model.model_fields_set:
        return False
    return same(plain(value), model.model_dump(mode="python", include={key}).get(key))


def _sync_tables(table, key: str, models: list, datas: list[dict], present: bool) -> None:
    """A list of tables (units, members, roster items): each new one matched to one of the
    file's, changed in place, in the new order; unmatched ones written fresh or removed."""
    old = item_of(table, key) if present else None
    if old is not None and not isinstance(old, AoT):  # an inline list of inline tables stays one
        sync_value(table, key, datas)
        return
    if old is None:
        aot = tomlkit.aot()
        for data in datas:
            aot.append(fresh_table(data))
        table[key] = aot
        return
    olds = list(old.body)
    style = table_style(olds)
    tables = []
    for model, data, i in zip(models, datas, match_tables([plain(t) for t in olds], datas)):
        if i is None:
            tables.append(fresh_table(data, style))
        else:
            sync_model(olds[i], model, data, style)
            tables.append(olds[i])
    space_tables(tables, olds)
    replace_tables(old, tables)


# ---------------------------------------------------------------- which is which


def match_tables(olds: list, news: list[dict]) -> list[int | None]:
    """For each new table, the index of the old table it is (None: a new one).

    The same content first (a unit left alone, or moved), then a name that one table on
    each side has (a unit edited), then the most alike of the rest (at least half of their
    keys the same, a stat counting as a key), then what is left at the same place.
    """
    pairs: list[int | None] = [None] * len(news)
    used: set[int] = set()
    by_content: dict[str, list[int]] = {}
    for i, old in enumerate(olds):
        by_content.setdefault(_key(old), []).append(i)
    for j, new in enumerate(news):
        found = by_content.get(_key(new))
        if found:
            pairs[j] = found.pop(0)
            used.add(pairs[j])

    old_names = _names(olds, used)
    new_names = _names(news, {j for j, p in enumerate(pairs) if p is not None})
    for name, js in new_names.items():
        if len(js) == 1 and len(old_names.get(name, ())) == 1:
            pairs[js[0]] = old_names[name][0]
            used.add(old_names[name][0])

    left_new = [j for j, p in enumerate(pairs) if p is None]
    left_old = [i for i in range(len(olds)) if i not in used]
    if left_new and left_old and len(left_new) * len(left_old) <= 40_000:
        scored = sorted((-_likeness(olds[i], news[j]), abs(i - j), j, i) for j in left_new for i in left_old)
        for negative, _distance, j, i in scored:
            if -negative < 0.5:
                break
            if pairs[j] is None and i not in used:
                pairs[j] = i
                used.add(i)
    for j, p in enumerate(pairs):
        if p is None and j < len(olds) and j not in used:
            pairs[j] = j
            used.add(j)
    return pairs


def _key(value: object) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _names(tables: list, taken: set[int]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for k, table in enumerate(tables):
        name = table.get("name") if isinstance(table, dict) else None
        if k not in taken and isinstance(name, str) and name:
            out.setdefault(name, []).append(k)
    return out


def _likeness(old: object, new: dict) -> float:
    """The share of keys two tables have the same (a sub-table's keys counted one by one)."""
    if not isinstance(old, dict):
        return 0.0
    a, b = _flat(old), _flat(new)
    keys = a.keys() | b.keys()
    if not keys:
        return 1.0
    return sum(1 for k in keys if k in a and k in b and same(a[k], b[k])) / len(keys)


def _flat(table: dict) -> dict:
    out: dict = {}
    for key, value in table.items():
        if isinstance(value, dict) and value:
            out.update({(key, sub): v for sub, v in value.items()})
        else:
            out[key] = value
    return out
