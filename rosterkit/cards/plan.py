"""Which cards an export prints, with what on each, at which one body size (the choices before
the cards are laid out and drawn: see pdf.export_cards)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..engine.costing import CostReport
from ..engine.display import written_weapon
from ..rules.ruleset import norm
from .boxes import without_box_notes
from .content import (
    CardBuilder,
    CardContent,
    Entry,
    GlossaryEntry,
    Table,
    reference_card,
    reference_subtitle,
    with_rules,
)
from .layout import CardLayout
from .sizes import Sheet
from .style import STEP

if TYPE_CHECKING:
    from .pdf import CardOptions


# how far the body may drop for a stat band's cut-off stats (LEGO's "Swim 3 · Climb 1 · Jump 3") on every card
KEY_DROP = 0.5
# how far the body may drop at poker for a lone figure's rows in its band (heroic_gods' Wounded)
BAND_DROP = 0.25
# how far the body may drop for the ruleset's reminder line on every unit card (a point: ARES hill
# clans at poker 8 to 7 pt with every card's losses line; readers took a unit card without the
# lines its neighbours print for a fault sooner than the point, at three quarters of one too)
REMINDER_DROP = 1.0
REMINDER_DROP_LARGE = 1.25


@dataclass
class Plan:
    """The cards as they print, the body they print at, and the card that holds it down ("" where none does)."""

    contents: list[CardContent] = field(default_factory=list)
    body_size: float = 0.0
    held_by: str = ""


def plan_cards(report: CostReport, builder: CardBuilder, army: CardContent | None, layout: CardLayout,
               options: CardOptions, entries: list[GlossaryEntry], specials: list[Entry], sheet: Sheet,
               per: str) -> Plan:
    """What each card of the export prints and the export's one body size: the unit cards split or
    shortened where one card cannot hold them, the texts where they have room, the reference cards,
    the reminders, a lone figure's rows in its band (each choice kept where it costs no card and
    at most the body its comment says)."""
    size = layout.size
    plan = Plan()
    first = list(builder.cards())

    count = layout.count

    def planned(top: int) -> list[CardContent]:
        """The cards as they print, at a body no larger than ``layout.sizes[top]``."""
        layout.top = top
        layout.head_min.clear()
        contents = ([army] if army is not None else []) + list(first)
        # the effects beside single boxes (heroic_gods' Wounded, Panicked) where they cost no card
        # and no body; else every card leaves them off, so the cards of the export read alike
        bare = [without_box_notes(x) for x in contents]
        if bare != contents:
            body, cards = layout.fit(contents), count(contents)
            if layout.fit(bare) > body + 1e-9 or count(bare) < cards:
                contents = bare
        # the cards that fit on one card at no size (fit() lets them continue at the export's size)
        # are shortened or split, and the size chosen again
        layout.fit(contents)
        shortened = split = False
        fitted_all: list[CardContent] = []
        for content in contents:
            if content.kind == "unit" and layout.one_card(content) is None:
                fitted, short = one_unit_one_card(content, report, builder, layout, per, options.glossary)
                shortened = shortened or short
                split = True
                fitted_all += fitted
            else:
                fitted_all.append(content)
        contents = fitted_all
        if split:
            layout.fit(contents)
        if per == "unit":
            contents, parted = by_figure_where_larger(contents, report, builder, layout, options.glossary)
            split = split or parted
        if options.glossary:
            # a card with room for its abilities' texts prints them (the reference cards keep them too),
            # unless the card holding the export's type down grows it a point or more without them
            contents, reference = texts_where_room(contents, entries, layout, report, sheet.per_page)
            if reference is not None:  # a card with room prints a text the others send to the reference card
                contents = texts_on_cards_with_room(contents, entries, layout)
                reference = referred_card(contents, entries, report)
        else:
            reference = None
        # every weapon special a card marks ("*Polearm") explained in the export: on the cards marking
        # it where they all have the room, else on the reference card (one of its own if need be)
        contents, references = specials_explained(contents, reference, specials, layout, report,
                                                    sheet.per_page)
        # the game's rolls after the reference cards' texts, else on a card of their own: one
        # reference card whose texts run on (the specials' card of their own left the abilities'
        # half empty before the rules on a third)
        if options.rules:
            ruled = with_rules(merged(references), report)
            references = [ruled] if ruled is not None else references
        contents += references
        plan.body_size = layout.fit(contents) if split or references else layout.t.body
        keyed = builder.keyed(contents)
        if keyed != contents:  # each card's own line on it (cards are handed out one by one at the table),
            # where that keeps the number of cards and costs the body KEY_DROP at most
            cards = count(contents)
            body = layout.fit(keyed)
            if body >= plan.body_size - KEY_DROP - 1e-9 and count(keyed) == cards:
                contents = keyed
                plan.body_size = body
            else:
                layout.fit(contents)
        # a lone figure's rows in its band at every size (where its labels' column takes them whole:
        # the values keep their room), where that keeps the body (at poker, costs it BAND_DROP at
        # most) and the units' cards: the reference cards' count left out, so that a rule a line
        # longer cannot turn every unit card's band
        banded = [replace(x, stats=x.band[0], asides=x.band[1], band=None)
                  if x.band is not None and layout.key_column(x.band[0])[0] < layout.inner_w * 0.34 else x
                  for x in contents]
        if banded != contents:
            def units(cs: list[CardContent]) -> int:
                return count([c for c in cs if c.kind != "reference"])

            cards = units(contents)
            body = layout.fit(banded)
            if body >= plan.body_size - (0.0 if layout.roomy else BAND_DROP) - 1e-9 and units(banded) == cards:
                plan.body_size = body
                contents = banded
            else:
                layout.fit(contents)
        line_up_headers(contents, sheet, layout)
        return contents

    # a larger body may send a rule to a reference card or a unit onto a second card, or (a book's
    # record line of eight stats or more, one row of values as wide as the card: For the Masses')
    # leave its values smaller: on a large card the export takes the largest body at which it prints
    # no more cards than at the size's count_at, and such a line's values as large (grown)
    keep = next((i for i, s in enumerate(layout.sizes) if s <= size.count_at + 1e-9), 0)

    def chosen() -> list[CardContent]:
        """The cards as they print: at the largest body, or on a large card as said above."""
        contents = planned(0)
        fewest = len(first) + (army is not None)
        wide = layout.record_line and any(c.kind == "unit" and len(c.stats.labels) >= 8 for c in first)
        if keep and layout.sizes.index(plan.body_size) < keep and (count(contents) > fewest or wide):
            def outcome(top: int) -> tuple[int, float]:
                cards = planned(top)
                n = count(cards)
                if wide:
                    layout.grow(cards)
                return n, layout.t.stat if wide else 0.0

            got, base = outcome(0), outcome(keep)
            top = 0
            if got[0] > base[0] or got[1] < base[1] - 1e-9:
                lo, hi = 1, keep
                while lo < hi:
                    mid = (lo + hi) // 2
                    n, stat = outcome(mid)
                    if n <= base[0] and stat >= base[1] - 1e-9:
                        hi = mid
                    else:
                        lo = mid + 1
                top = lo
            contents = planned(top)
        return contents

    # the reminders: on every unit card of the export (cards handed out at the table read alike),
    # decided once the cards are split and their rules' texts placed; they may cost the body
    # REMINDER_DROP (REMINDER_DROP_LARGE on a large card, whose body is a third larger), never a card.
    # Where they cost more, the cards with room for theirs at the size without them keep them (a
    # half-empty card without the rules it is played by read as an error), the others go without
    def reminding(on: bool | set[int]) -> list[CardContent]:
        """The cards as they print with the reminders ``on`` (see CardBuilder.reminders)."""
        nonlocal first
        builder.reminders = on
        first = list(builder.cards())
        return chosen()

    reminded, bare = first, None
    if any(c.reminder for c in first):
        without = reminding(False)
        bare = plan.body_size, count(without)  # (counted at its own size, before the layout moves on)
        builder.reminders, first = True, reminded
    contents = chosen()
    drop = REMINDER_DROP_LARGE if layout.roomy else REMINDER_DROP
    if bare is not None and (plan.body_size < bare[0] - drop - 1e-9 or count(contents) > bare[1]):
        contents = reminding(False)
        texts = {x.unit_index: x.reminder for x in reminded if x.kind == "unit" and x.reminder}
        units: dict[int, list[CardContent]] = {}
        for x in contents:
            if x.kind == "unit" and x.unit_index in texts:
                units.setdefault(x.unit_index, []).append(x)
        room = {u for u, xs in units.items()
                if all(layout.one_card(with_reminder(x, texts[u])) is not None for x in xs)}
        if room:
            body, cards = plan.body_size, count(contents)
            some = reminding(room)
            contents = some if plan.body_size >= body - 1e-9 and count(some) <= cards else reminding(False)
    if layout.t.body < layout.sizes[0]:
        plan.held_by = layout.fullest(contents)
    plan.contents = contents
    return plan


_COPIES = re.compile(r"^\d+x ")


def entry_key(e: Entry, kind: str) -> tuple[str, str]:
    """An ability's or equipment's key on a card, as the glossary's ((kind, normalised name);
    "2x Sword" is a Sword)."""
    return kind, norm(_COPIES.sub("", e.name))


def with_texts(contents: list[CardContent], entries: list[GlossaryEntry], layout: CardLayout,
               withheld: frozenset[tuple[str, str]] = frozenset(), cap: float | None = None) -> list[CardContent]:
    """The unit cards with the texts of their abilities and equipment, an ability treated alike on
    every card of the export: its text on each card that has it when each of them still fits on one
    card at the export's size, else its name on each and its text on the reference cards (the
    longest texts leave a crowded card first). The ``withheld`` ones ((kind, normalised name))
    go to the reference cards on every card, and the export's size is chosen again without them;
    ``cap``: the texts are chosen as the cards fit at that size, if it is smaller than the export's."""
    texts = {(e.kind, norm(e.name)): e.text for e in entries if e.text}

    def described(c: CardContent) -> set[tuple[str, str]]:
        return {entry_key(e, kind) for kind, es in (("abilities", c.abilities), ("equipment", c.equipment)) for e in es
                if entry_key(e, kind) in texts and (e.text or e.in_glossary)}

    def shown(c: CardContent, printed: set[tuple[str, str]]) -> CardContent:
        def one(e: Entry, kind: str) -> Entry:
            k = entry_key(e, kind)
            if k not in texts or not (e.text or e.in_glossary):
                return e
            return replace(e, text=texts[k], in_glossary=False) if k in printed else \
                replace(e, text="", in_glossary=True)
        return replace(c, abilities=tuple(one(e, "abilities") for e in c.abilities),
                       equipment=tuple(one(e, "equipment") for e in c.equipment))

    if withheld:
        contents = [shown(c, described(c) - withheld) if c.kind == "unit" and described(c) else c
                    for c in contents]
        layout.fit(contents)
    if cap is not None and cap < layout.t.body:
        layout.use(cap)
    units = [c for c in contents if c.kind == "unit" and described(c)]
    # a card that continues even with names only does not hold the others' texts back
    units = [c for c in units if layout.one_card(shown(c, set())) is not None]
    printed = set().union(*(described(c) for c in units)) - withheld if units else set()
    changed = True
    while changed:
        changed = False
        for c in units:
            mine = described(c) & printed
            while mine and layout.one_card(shown(c, printed)) is None:
                longest = max(mine, key=lambda k: (len(texts[k]), k))
                printed.discard(longest)
                mine.discard(longest)
                changed = True
    return [shown(c, printed) if c.kind == "unit" and described(c) and
            layout.one_card(shown(c, set())) is not None else c for c in contents]


def referred_card(contents: list[CardContent], entries: list[GlossaryEntry], report: CostReport) -> CardContent | None:
    """The reference card for what the cards refer to it (not the texts they print in full), or None."""
    referred = {entry_key(e, kind) for c in contents
                for kind, es in (("abilities", c.abilities), ("equipment", c.equipment)) for e in es if e.in_glossary}
    return reference_card(report, [e for e in entries if (e.kind, norm(e.name)) in referred]) if referred else None


def weapon_specials(report: CostReport) -> list[Entry]:
    """The marks the cards write under a weapon's Special ("*Polearm"), each with its weapon stat's
    text, in the ruleset's order."""
    rs = report.ruleset
    marked = {mark for u in report.units for m in u.members for it in m.items if it.kind == "weapons"
              for mark in written_weapon(rs, it, m).specials}
    out = []
    for sdef in rs.item_stats["weapons"].values():
        mark = f"*{sdef.label}"
        if sdef.description.strip() and any(s == mark or s.startswith(mark + " ") for s in marked):
            out.append(Entry(mark, sdef.description.strip()))
    return out


def marks_special(content: CardContent, special: Entry) -> bool:
    """Whether the card's weapon table marks that special ("*Polearm", "*Area Effect 2\"")."""
    if content.kind != "unit" or content.weapons is None:
        return False
    return any(part == special.name or part.startswith(special.name + " ")
               for _, cells, _ in content.weapons.rows for cell in cells for part in cell.split(", "))


def merged(references: list[CardContent]) -> CardContent | None:
    """The reference cards' texts on one reference card (None for none)."""
    if not references:
        return None
    first = references[0]
    for more in references[1:]:
        first = replace(first, abilities=first.abilities + more.abilities, equipment=first.equipment + more.equipment,
                        specials=first.specials + more.specials, specials_label=more.specials_label)
    return replace(first, subtitle=reference_subtitle(first))


def specials_explained(contents: list[CardContent], reference: CardContent | None, specials: list[Entry],
                       layout: CardLayout, report: CostReport,
                       per_page: int) -> tuple[list[CardContent], list[CardContent]]:
    """The cards with the texts of the weapon specials they mark, and the reference cards (``reference``
    and, where it has no room left, one of the specials' own). A special's text is on every card
    marking it where that keeps the export's body and number of cards (the cards of an export read
    alike), else on a reference card; where a card of the specials' own would take a sheet of
    ``per_page`` more, the cards print them anyway at a smaller body (a sheet for a few lines costs
    more than the type gains), if every card still fits on one. Leaves the layout at the export's size."""
    refs = [reference] if reference is not None else []
    label = report.ruleset.data.card.specials_label
    count = layout.count

    def with_text(cards: list[CardContent], special: Entry) -> list[CardContent]:
        return [replace(c, specials=c.specials + (special,), specials_label=label) if marks_special(c, special)
                else c
                for c in cards]

    body = layout.fit(contents + refs)
    cards = count(contents + refs)
    left: list[Entry] = []
    for special in sorted(specials, key=lambda e: (len(e.text), e.name)):
        tried = with_text(contents, special)
        if tried == contents:
            continue
        if layout.fit(tried + refs) >= body - 1e-9 and count(tried + refs) == cards:
            contents = tried
        else:
            left.append(special)
    left = [e for e in specials if e in left]  # the ruleset's order
    if left and reference is not None:
        layout.fit(contents + refs)
        fuller = with_weapon_specials(contents, reference, left, layout, label)
        left = [e for e in left if e not in fuller.specials]
        refs = [fuller]
    if left and per_page and -(-(cards + 1) // per_page) > -(-cards // per_page):
        forced = contents
        for special in left:
            forced = with_text(forced, special)
        layout.fit(forced + refs)
        if count(forced + refs) == cards:
            contents, left = forced, []
    if left:
        card = CardContent(
            unit_index=-1, title="Reference", type_id=None, type_name="Reference",
            subtitle="", badge="", stats=Table((), (), False),
            costs="", weapons=None, abilities=(), equipment=(), tracks=(), notes=(), problems=(),
            kind="reference", specials=tuple(left), specials_label=label)
        refs.append(replace(card, subtitle=reference_subtitle(card)))
    layout.fit(contents + refs)
    return contents, refs


def with_weapon_specials(contents: list[CardContent], reference: CardContent, specials: list[Entry],
                         layout: CardLayout, label: str) -> CardContent:
    """The reference card with the texts of the weapon specials the cards mark, all of them where
    the card keeps its number of cards and the export's size, else none (they go together on a card
    of their own: one heading of weapon specials in the export, not two). Leaves the layout at the
    export's size."""
    body = layout.fit(contents + [reference])
    pages = layout.cards(reference)
    fuller = replace(reference, specials=tuple(specials), specials_label=label)
    fuller = replace(fuller, subtitle=reference_subtitle(fuller))
    fits = layout.fit(contents + [fuller]) >= body - 1e-9 and layout.cards(fuller) <= pages
    layout.fit(contents + [fuller if fits else reference])
    return fuller if fits else reference


def texts_where_room(contents: list[CardContent], entries: list[GlossaryEntry], layout: CardLayout,
                     report: CostReport, per_page: int = 0) -> tuple[list[CardContent], CardContent | None]:
    """The cards with their abilities' texts (with_texts) and the reference card they need: while the
    card that sets the export's body size prints texts, those texts go to the reference card (for
    their abilities on every card, so a sheet reads alike) where the body then grows by a point or
    more, or by more than a step when that card alone holds the others back, and the cards still
    take as many sheets of ``per_page`` (a sheet printed for one reference card costs more than the
    type gains); each comes back as far as the grown size keeps. On tarot and A6 no text leaves the
    cards once the body is at the size's count_at (see ample). Leaves the layout at the export's size."""
    texts = {(e.kind, norm(e.name)): e.text for e in entries if e.text}

    def sheets(shown: list[CardContent], reference: CardContent | None) -> int:
        cards = len(shown) + (reference is not None)
        return -(-cards // per_page) if per_page else 0

    def printed(c: CardContent) -> set[tuple[str, str]]:
        return {entry_key(e, kind) for kind, es in (("abilities", c.abilities), ("equipment", c.equipment))
                for e in es if e.text and not e.in_glossary} & texts.keys()

    last: list[frozenset] = []  # the texts the layout's last trial withheld

    # the cards the reference card takes with those texts withheld: the type grows by sending texts
    # there only while it keeps to one card (or as many as it takes already)
    ref_cards: dict[frozenset, int] = {}

    def trial(withheld: frozenset) -> tuple[list[CardContent], CardContent | None, float]:
        last[:] = [withheld]
        layout.fit(contents)
        best: tuple | None = None
        # (on tarot and A6 the texts are chosen as the cards fit at the size's count_at: a body that
        # large reads easily, and a rule on the card beats "see the reference card" on a roomy card)
        cap = layout.size.count_at or None
        # a reference card that would go on to a second card: the texts chosen a step smaller at a
        # time, until it keeps to one; the fewest cards win, then the largest type
        while True:
            shown = with_texts(contents, entries, layout, withheld, cap)
            reference = referred_card(shown, entries, report)
            body = layout.fit(shown + ([reference] if reference is not None else []))
            pages = layout.cards(reference) if reference is not None else 0
            units = layout.count(shown)
            # (fewer cards for the reference card, never more for a unit)
            if best is None or (units + pages < best[0] and units <= best[5]):
                best = (units + pages, shown, reference, body, pages, units)
            cap = round(min(cap or body, body) - STEP, 2)
            if pages <= 1 or cap < layout.sizes[-1] - 1e-9:
                break
            layout.fit(contents)
        _, shown, reference, body, ref_cards[withheld], _ = best
        layout.fit(shown + ([reference] if reference is not None else []))
        return shown, reference, body

    def more_cards(tried: frozenset, withheld: frozenset) -> bool:
        return ref_cards[tried] > max(1, ref_cards[withheld])

    def holding(shown: list[CardContent], body: float) -> list[CardContent]:
        """The cards that stop the next size up (a card too full at any size continues instead)."""
        at = layout.sizes.index(body)
        if at <= layout.top:
            return []
        layout.use(layout.sizes[at - 1])
        return [c for c in shown if c.kind == "unit" and layout.one_card(c) is None and layout.fits(c)]

    def holding_texts(shown: list[CardContent], body: float) -> set[tuple[str, str]]:
        """The texts printed on the cards that stop the next size up (one held by its stat band
        or weapon rows is not helped)."""
        return set().union(*(printed(c) for c in holding(shown, body)))

    def ample(body: float) -> bool:
        """Whether the body is at or above the size's count_at (tarot, A6): no text leaves the cards
        to grow it further (readers took "see the reference card" on a card with room for a defect)."""
        return bool(layout.size.count_at) and body >= layout.size.count_at - 1e-9

    withheld: frozenset = frozenset()
    shown, reference, body = trial(withheld)
    while True:
        if last != [withheld]:  # (the layout as the cards stand)
            layout.fit(shown + ([reference] if reference is not None else []))
        lone = holding(shown, body)
        # the next card may hold the size a little above this one's: its texts go too, until the
        # body has grown a point or no text holds it
        tried, t_shown, t_ref, grown = withheld, shown, reference, body
        while grown < body + 1 - 1e-9:
            more = holding_texts(t_shown, grown) - tried
            if not more:
                break
            tried = tried | more
            t_shown, t_ref, grown = trial(tried)
        grew = grown >= body + 1 - 1e-9 and sheets(t_shown, t_ref) <= sheets(shown, reference) \
            and not more_cards(tried, withheld) and not ample(body)
        # or a card alone holding the export more than a step below the others: its texts go
        if len(lone) == 1 and printed(lone[0]) - withheld:
            o_tried = withheld | printed(lone[0])
            o_shown, o_ref, o_grown = trial(o_tried)
            if not ample(body) and o_grown > body + STEP + 1e-9 and (not grew or o_grown > grown + 1e-9) \
                    and sheets(o_shown, o_ref) <= sheets(shown, reference) and not more_cards(o_tried, withheld):
                tried, t_shown, t_ref, grown, grew = o_tried, o_shown, o_ref, o_grown, True
        if not grew:
            break
        # the shortest texts come back first, each where the grown size holds with it
        for key in sorted(tried - withheld, key=lambda k: (len(texts[k]), k)):
            back = tried - {key}
            b_shown, b_ref, b_body = trial(back)
            if b_body >= grown - 1e-9:
                tried, t_shown, t_ref, grown = back, b_shown, b_ref, b_body
        withheld, shown, reference, body = tried, t_shown, t_ref, grown
    layout.fit(shown + ([reference] if reference is not None else []))
    return shown, reference


def with_reminder(c: CardContent, reminder: str) -> CardContent:
    """A unit card with the ruleset's reminder under its band (the last of its asides)."""
    return replace(c, reminder=reminder, asides=c.asides + (reminder,))


def texts_on_cards_with_room(contents: list[CardContent], entries: list[GlossaryEntry],
                             layout: CardLayout) -> list[CardContent]:
    """The cards printing a text they refer to the reference card for where every card naming it
    still fits on one card with it and the export's size holds (the shortest first): the cards
    naming a rule read alike, each printing it or each sending the player to the reference card.
    Leaves the layout at the export's size."""
    body = layout.fit(contents)
    texts = {(e.kind, norm(e.name)): e.text for e in entries if e.text}

    def referred(c: CardContent) -> set[tuple[str, str]]:
        return {entry_key(e, kind) for kind, es in (("abilities", c.abilities), ("equipment", c.equipment))
                for e in es if e.in_glossary and entry_key(e, kind) in texts}

    def printing(c: CardContent, key: tuple[str, str]) -> CardContent:
        def one(e: Entry, kind: str) -> Entry:
            return replace(e, text=texts[key], in_glossary=False) if e.in_glossary and entry_key(e, kind) == key else e
        return replace(c, abilities=tuple(one(e, "abilities") for e in c.abilities),
                       equipment=tuple(one(e, "equipment") for e in c.equipment))

    out = list(contents)
    keys = set().union(*(referred(c) for c in out if c.kind == "unit"))
    for key in sorted(keys, key=lambda k: (len(texts[k]), k)):
        naming = [k for k, c in enumerate(out) if c.kind == "unit" and key in referred(c)]
        trial = list(out)
        for k in naming:
            trial[k] = printing(out[k], key)
        if all(layout.one_card(trial[k]) is not None for k in naming) \
                and layout.fit(trial) >= body - 1e-9:
            out = trial
        layout.fit(out)
    return out


def one_unit_one_card(content: CardContent, report: CostReport, builder: CardBuilder, layout: CardLayout,
                      per: str, glossary: bool) -> tuple[list[CardContent], bool]:
    """A unit card too full for one card at the smallest type: its abilities' texts go to the
    reference cards; a mixed unit still too full prints one card per kind of figure (each with
    the unit's values). Returns the cards and whether any text went to the reference cards."""
    if content.kind != "unit" or layout.fits(content):
        return [content], False
    if glossary:
        short = builder.without_texts(content)
        if short != content and layout.fits(short):
            return [short], True
    unit = report.units[content.unit_index] if 0 <= content.unit_index < len(report.units) else None
    if per == "unit" and unit is not None and sum(1 for m in unit.members if m.count > 0) > 1:
        out, moved = [], False
        for part in builder.member_cards(unit):
            # names only: the texts come back where the export's size leaves room (with_texts)
            if glossary and builder.without_texts(part) != part:
                part, moved = builder.without_texts(part), True
            out.append(part)
        return out, moved
    if glossary:
        return [builder.without_texts(content)], True
    return [content], False


def line_up_headers(contents: list[CardContent], sheet: Sheet, layout: CardLayout) -> None:
    """Cards side by side on a row of a sheet take the tallest of their headers (the shorter ones
    with the spare room under their subtitles) where they still fit on one card: their stat
    bands line up. Before grow(), which then keeps them fitting."""
    row: list[tuple[CardContent | None, float]] = []
    slot = 0

    def line_up() -> None:
        tallest = max(h for _, h in row)
        for c, h in row:
            if c is None or h >= tallest - 1e-9:
                continue
            layout.head_min[c] = tallest
            if layout.cards(c) > 1:
                del layout.head_min[c]

    for c in contents:
        laid = layout.layout(c)
        for page in range(len(laid.pages)):
            if c.kind != "reference":  # (no stat band to line up)
                row.append((c if len(laid.pages) == 1 else None, laid.head(page).height))
            slot += 1
            if slot % sheet.cols == 0 and row:
                line_up()
                row = []
    if row:
        line_up()


def by_figure_where_larger(contents: list[CardContent], report: CostReport, builder: CardBuilder,
                           layout: CardLayout, glossary: bool) -> tuple[list[CardContent], bool]:
    """The cards with a mixed unit printed one card per kind of figure (each with the unit's
    values in its stat band) where that lets the export's body grow by a point or more, or keeps
    every stat band across when the unit's card would turn them all down the side: one crowded
    card does not hold the export's type down. A figure's card too full for its abilities' texts
    at the smallest type carries their names (with_texts brings the texts back where the export's
    size leaves room). Returns the cards and whether any unit was split."""
    body = layout.fit(contents)
    turned = layout.turn_all()
    parted = False
    for index, unit in enumerate(report.units):
        if sum(1 for m in unit.members if m.count > 0) < 2:
            continue
        at = [k for k, c in enumerate(contents) if c.kind == "unit" and c.unit_index == index]
        if len(at) != 1:  # printed per figure already (too full for one card)
            continue
        parts = builder.member_cards(unit)
        if glossary:
            parts = [p if layout.fits(p) else builder.without_texts(p) for p in parts]
        if not all(layout.fits(p) for p in parts):
            continue
        trial = contents[:at[0]] + parts + contents[at[0] + 1:]
        grown = layout.fit(trial)
        across = turned and not layout.turn_all()
        if grown >= body + 1 - 1e-9 or (across and grown >= body - 1e-9):
            contents, body, turned, parted = trial, grown, layout.turn_all(), True
    layout.fit(contents)
    return contents, parted
