"""A card's tables: the stat band (a record line, bands, a lone figure's rows), the weapon
table (its columns, range bands, notes under a row) and a chart, measured and wrapped with
platypus paragraphs (a part of CardLayout, see layout)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from reportlab.lib.colors import Color
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

from .content import NOTHING, CardContent, Table
from .shaping import has_rtl
from .style import BAND_PAD, BOX_LINE, COLORS, GREY, INK, LABEL, LEADING, RULE, TINTS, Row, Seg, line_width

_DASHES = re.compile(r"\s*[-–—]+(\s*/\s*[-–—]+)*\s*")  # "-", "–", "-/-": a value that says "none"
# a slash between two letters ("Claw/hand", not "(5/D10)"), and the places after such a slash
_SLASHED = re.compile(r"[^\W\d_]/[^\W\d_]")
_AFTER_SLASH = re.compile(r"(?<=[^\W\d_]/)(?=[^\W\d_])")

# the space between a die or a word and the range of inches it goes with ("D8 11-15\"")
_BAND = re.compile(r'(?<=[A-Za-z0-9]) (?=\d+-\d+")')
# a die for each band of range, "D4 0-5\" D6 6-10\" D8 11-15\"" (an ARES missile weapon's range die)
_DIE_BAND = re.compile(r'(D\d+) (\d+-\d+")')
_DIE_BAND_LIST = re.compile(r'\s*(?:D\d+ \d+-\d+"\s*){2,}$')


class TableRows:
    """CardLayout's tables: the stat band, the weapon table, a chart."""

    def _fit_columns(self, t: Table, fonts: tuple[str, str, str], sizes: tuple[float, float, float],
                     wrap_labels: bool, key: int | None, bands: bool = False,
                     padh: tuple[float, float] = (0.0, 0.0)) -> list[float]:
        """Natural widths: (label font, main font, other font) at (label size, main size, other size);
        ``bands``: a cell listing bands ("0-9\" / 10-18\" / 19-27\"") on two lines, broken between two;
        ``padh``: the padding at each side of a label and of a value (0: the cards' usual)."""
        k = (id(t), fonts, sizes, wrap_labels, key, bands, padh)
        hit = self._nat.get(k)
        if hit is None or hit[0] is not t:  # (the table is kept with its widths: its id stays its own)
            if len(self._nat) > 2_000:
                self._nat.clear()
            hit = self._nat[k] = (t, self._measure(t, fonts, sizes, wrap_labels, key, bands, padh))
        return hit[1]

    def _two_lines(self, text: str, font: str, size: float) -> float:
        """The width of a list of bands set on two lines, broken between two bands where that is narrowest."""
        parts = text.split(" / ")
        if len(parts) < 2:
            return self.m.width(text, font, size)
        return min(max(self.m.width(" / ".join(parts[:k]) + " /", font, size),
                       self.m.width(" / ".join(parts[k:]), font, size)) for k in range(1, len(parts)))

    def _measure(self, t: Table, fonts: tuple[str, str, str], sizes: tuple[float, float, float],
                 wrap_labels: bool, key: int | None, bands: bool = False,
                 padh: tuple[float, float] = (0.0, 0.0)) -> list[float]:
        m = self.m
        lf, mf, of = fonts
        ls, ms, os_ = sizes
        pad = 2 * (padh[1] or self.padh)
        lpad = 2 * (padh[0] or self.padh)
        cols = []
        n = len(t.labels)
        spans = t.spans if isinstance(t, Banded) else ()
        spanned = {(r, j) for r, j0, k in spans for j in range(j0, j0 + k)}
        for j in range(n):
            lab = self.clean(t.labels[j], lf)
            w = 0.0 if (-1, j) in spanned else \
                max([m.width(word, lf, ls) for word in lab.split()] or [0.0]) if wrap_labels \
                else m.width(lab, lf, ls)
            w += lpad - pad  # (the column's padding is added below)
            for r, (_, cells, main) in enumerate(t.rows):
                if (r, j) in spanned:
                    continue
                text = self.clean(cells[j])
                if j == key:
                    w = max(w, m.width(text, of, os_))
                elif main and key is None and qualified(text):  # a stat band's "6 Sw 3 Cl 1 Ju 3"
                    head, tail = qualified(text)
                    if _ASIDE_OF.fullmatch(tail):  # "0 (bow +1)": the aside on a line under the number
                        w = max(w, m.width(head, mf, ms), m.width(tail, of, ls))
                        continue
                    w = max(w, m.width(head, mf, ms) + ls * 0.3 + min(
                        max(m.width(x, of, ls) for x in split) for split in _tail_splits(tail)))
                else:
                    tw = m.width(text, mf if main else of, ms if main else os_)
                    if bands and j > 0:
                        tw = self._two_lines(text, mf if main else of, ms if main else os_)
                    elif tw > self.inner_w * 0.3 and key is not None:  # a long note wraps in its column
                        tw = max([m.width(word, of, os_) for word in text.split()] + [self.inner_w * 0.3])
                    w = max(w, tw)
            # a list's bands sit closer to one another than two columns do (a column of their own each)
            inside = any(j0 <= j < j0 + k for r, j0, k in spans if r < 0)
            cols.append(w + (pad * BAND_PAD if inside else pad))
        for r, j0, k in spans:  # a cell across a list's columns: they share out what it needs beyond them
            text = self.clean(t.labels[j0], lf) if r < 0 else self.clean(t.rows[r][1][j0])
            main = r >= 0 and t.rows[r][2]
            need = m.width(text, lf if r < 0 else mf if main else of, ls if r < 0 else ms if main else os_) + pad
            short = need - sum(cols[j0:j0 + k])
            if short > 0:
                cols[j0:j0 + k] = [w + short / k for w in cols[j0:j0 + k]]
        return cols

    @property
    def padh(self) -> float:
        return max(1.5, self.t.body * 0.3)

    def stat_max(self, most: float) -> float:
        """The largest stat value as a multiple of the body: ``most``, or the ruleset's own limit."""
        declared = self.declared_stat_max
        return most if declared is None else min(most, declared)

    @property
    def band_padh(self) -> float:
        """The padding at each side of a value in a stat band's box, to the middle of the box's line:
        clear room by the values' size (a value grown against its lines reads cramped), and the
        cards' usual padding where that is more. The book's one-row card (For the Masses' Mv to CP)
        is as wide as the card allows, its values as large: its boxes pad by the values alone (see
        _by_values)."""
        room = value_room(self.t.stat) + BOX_LINE / 2
        return room if self.record_line else max(self.padh, room)

    @property
    def label_padh(self) -> float:
        """The padding at each side of a stat band's label: on the one-row card the boxes are as
        wide as their values need, a short label between the lines where it is the widest thing
        (clear of them: a bold "Mv" against its lines reads as part of them)."""
        return max(1.5, self.t.small * 0.2) + BOX_LINE / 2 if self.record_line else self.padh

    def stat_table(self, t: Table, color: int, caption: str = "") -> list[Row]:
        """The stat band: the ruleset's columns as boxes, a small label over a large value;
        as many bands of boxes as the card's width needs (all boxes of a band equally wide).
        A mixed unit has a line per kind of figure (its name in a first column); extra rows
        (such as "Wounded") come under the main line in body size.
        """
        tsz = self.t
        f = self.f
        row_labels = t.row_labels
        # row label column
        key_w, key_font = self.key_column(t) if row_labels else (0.0, f.regular)
        best = self._stat_plan(t, key_w)
        turned_t = None  # (turned, the labels are the kinds of figure: never given a column's name)
        if row_labels and len(t.rows) > 1 and not caption and (len(best[0]) >= 2 or self.turn_all()):
            # stats down the side and the kinds of figure across, when that takes one band (on
            # every card of the export that can, when one card needs it: the cards look alike)
            turned = self._turned(t)
            if turned is not None:
                t, key_w, best = turned
                turned_t = t
        groups, widths, fonts = best
        lf, mf, of = fonts
        rows: list[Row] = []
        padv = 1.6
        for b, cols in enumerate(groups):
            ws = [widths[j] for j in cols]
            xs = [key_w]
            for w_ in ws[:-1]:
                xs.append(xs[-1] + w_)
            if b:
                rows.append(Row(2.0, spacer=True))
            # labels: the columns' names spelt out ("Move" for "M") where the export takes them (see
            # names_all) and each keeps to one line in its column
            heads = [self.clean(t.labels[j], lf) for j in cols]
            if t is not turned_t and self.names_all():
                names = [self.clean(self.names.get(t.labels[j], t.labels[j]), lf) for j in cols]
                if names != heads and all(self.m.width(name, lf, tsz.small) <= ws[k] - 2 * self.label_padh
                                          for k, name in enumerate(names)):
                    heads = names
            wrapped = [self.w.wrap(((head, lf, LABEL),), tsz.small, ws[k] - 2 * self.label_padh)
                       for k, head in enumerate(heads)]
            nl = max(len(x) for x in wrapped)
            lead = tsz.small * 1.1
            h = nl * lead + 2 * padv
            ops: list[tuple] = [("F", 0.0, 0.0, key_w + sum(ws), h, TINTS[color])]
            for k, lines in enumerate(wrapped):
                x0 = xs[k]
                for li, line in enumerate(lines):
                    lw = line_width(line, self.m, tsz.small)
                    for sx, text, font, colour in line:
                        ops.append(("T", x0 + (ws[k] - lw) / 2 + sx, padv + li * lead + tsz.small * 0.9, font,
                                    tsz.small, colour, text))
            ops += self._grid(key_w, ws, h, color, top=True)
            header = Row(h, tuple(ops), keep=1)
            rows.append(header)
            for ri, (lab, cells, main) in enumerate(t.rows):
                size = tsz.stat if main else tsz.body
                font = mf if main else of
                # a stat the unit has none of ("-", "-/-") reads light: a thin dash in the labels' colour
                looks = [(of, GREY) if _DASHES.fullmatch(cells[j]) else (font, INK) for j in cols]
                wl = [self.w.wrap(((self.clean(cells[j]), *looks[k]),), size, ws[k] - 2 * self.band_padh)
                      for k, j in enumerate(cols)]
                # the number large, its qualifier small after it on the value's baseline (see qualified())
                # (on one line, else on two beside the number, where the band's width asks for it)
                beside: dict[int, tuple[str, tuple[str, ...], float, float, str]] = {}
                tail_lead = tsz.small * 1.1
                below: dict[int, tuple[str, str]] = {}  # an aside in brackets, on its own line under the number
                for k, j in enumerate(cols):
                    parts = qualified(self.clean(cells[j])) if main else None
                    if not parts:
                        continue
                    if _ASIDE_OF.fullmatch(parts[1]):
                        below[k] = parts
                        wl[k] = [[]]
                        continue
                    hw = self.m.width(parts[0], font, size)
                    room = ws[k] - 2 * self.band_padh - hw - tsz.small * 0.3 + 0.01
                    for split in _tail_splits(parts[1]):
                        tw = max(self.m.width(x, of, tsz.small) for x in split)
                        if tw <= room:
                            beside[k] = (parts[0], split, hw, hw + tsz.small * 0.3 + tw, of)
                            wl[k] = [[]]
                            break
                klines = self.w.wrap(((self.clean(lab), key_font, LABEL),), tsz.small, key_w - 2 * self.padh) \
                    if row_labels else []
                lead_v = size * LEADING
                nv = max(len(x) for x in wl)
                tails = max([len(b[1]) * tail_lead for b in beside.values()] or [0.0])
                h = max(nv * lead_v, len(klines) * tsz.small * LEADING, tails,
                        lead_v + tail_lead if below else 0.0) + 2 * padv
                ops = []
                for li, line in enumerate(klines):
                    for sx, text, fnt, colour in line:
                        ops.append(("T", self.padh + sx, padv + li * tsz.small * LEADING + tsz.small * 0.95
                                    + (h - 2 * padv - len(klines) * tsz.small * LEADING) / 2,
                                    fnt, tsz.small, colour, text))
                for k, lines in enumerate(wl):
                    x0 = xs[k]
                    if k in below:
                        head, tail = below[k]
                        top = (h - lead_v - tail_lead) / 2
                        ops.append(("T", x0 + (ws[k] - self.m.width(head, font, size)) / 2, top + size * 0.93,
                                    font, size, INK, head))
                        ops.append(("T", x0 + (ws[k] - self.m.width(tail, of, tsz.small)) / 2,
                                    top + lead_v + tsz.small * 0.9, of, tsz.small, INK, tail))
                        continue
                    if k in beside:
                        head, split, hw, whole, face = beside[k]
                        x = x0 + (ws[k] - whole) / 2
                        base = (h - lead_v) / 2 + size * 0.93
                        ops.append(("T", x, base, font, size, INK, head))
                        tail_top = (h - len(split) * tail_lead) / 2 + tsz.small * 0.9
                        for i, part in enumerate(split):
                            ops.append(("T", x + hw + tsz.small * 0.3, base if len(split) == 1 else
                                        tail_top + i * tail_lead, face, tsz.small, INK, part))
                        continue
                    top = (h - len(lines) * lead_v) / 2
                    for li, line in enumerate(lines):
                        lw = line_width(line, self.m, size)
                        for sx, text, fnt, colour in line:
                            ops.append(("T", x0 + (ws[k] - lw) / 2 + sx, top + li * lead_v + size * 0.93, fnt,
                                        size, colour, text))
                ops += self._grid(key_w, ws, h, color, top=False)
                rows.append(Row(h, tuple(ops), keep=1 if ri < len(t.rows) - 1 and len(t.rows) <= 4 else 0,
                                header=header))
        return rows

    def chart(self, c: CardContent, color: int) -> list[Row]:
        """A chart (see CardChart): the columns' labels over a row of cells for each of its rows, its
        key under it. Blank, to fill in: the rows as tall as the card has room for (from two lines of
        the body, room to write a result in, to three and a half); filled in (a roster's), the results
        in bold, the rows from one and a half lines to two and a half."""
        t, f = self.t, self.f
        ch = c.chart
        assert ch is not None
        padv = 1.6
        key = self.para(((self.clean(c.legend), f.regular, GREY),), t.small, self.inner_w, cache=False) \
            if c.legend else []
        labels = [self.clean(x, f.bold) for x in (c.corner, *(lab for lab, _, _ in ch.rows))]
        filled = any(any(cells) for _, cells, _ in ch.rows)
        # a filled chart's rows are looked up by their labels: at the results' size, not the column heads'
        lsize = t.body if filled else t.small
        key_w = max(self.m.width(labels[0], f.bold, t.small),
                    *(self.m.width(x, f.bold, lsize) for x in labels[1:])) + 2 * self.label_padh
        n = len(ch.labels)
        ws = [(self.inner_w - key_w) / n] * n
        head_h = t.small * 1.1 + 2 * padv
        room = self.frame_height(self.header(c)) - head_h - t.gap - sum(r.height for r in key) - 2.0
        low, high = (1.5, 2.5) if filled else (2.0, 3.5)
        h = max(t.body * low, min(t.body * high, room / len(ch.rows)))
        base = padv + t.small * 0.9
        ops: list[tuple] = [("F", 0.0, 0.0, key_w + sum(ws), head_h, TINTS[color]),
                            ("T", self.label_padh, base, f.bold, t.small, LABEL, labels[0])]
        for k, lab in enumerate(ch.labels):
            text = self.clean(lab, f.bold)
            ops.append(("T", key_w + ws[0] * k + (ws[0] - self.m.width(text, f.bold, t.small)) / 2, base, f.bold,
                        t.small, LABEL, text))
        header = Row(head_h, tuple(ops + self._grid(key_w, ws, head_h, color, top=True)), keep=1)
        out = [header]
        for i, text in enumerate(labels[1:]):
            ops = [("T", self.label_padh, (h + lsize * 0.7) / 2, f.bold, lsize, INK, text)] if text else []
            for k, cell in enumerate(ch.rows[i][1]):
                cell = self.clean(cell, f.bold)
                if not cell:
                    continue
                # at the body, else the labels' size, else condensed, else cut short
                face, size = next(((fc, sz) for fc, sz in ((f.bold, t.body), (f.bold, t.small), (f.cond_bold, t.small))
                                   if self.m.width(cell, fc, sz) <= ws[k] - 2), (f.cond_bold, t.small))
                while len(cell) > 1 and self.m.width(cell, face, size) > ws[k] - 2:
                    cell = cell[:-2] + "…"
                ops.append(("T", key_w + ws[0] * k + (ws[0] - self.m.width(cell, face, size)) / 2,
                            (h + size * 0.7) / 2, face, size, INK, cell))
            out.append(Row(h, tuple(ops + self._grid(key_w, ws, h, color, top=False)),
                           keep=1 if i < len(ch.rows) - 1 else 0, header=header))
        return out + ([Row(t.gap, spacer=True)] + key if key else [])

    def key_column(self, t: Table) -> tuple[float, str]:
        """The width and face of a stat band's first column, its rows' labels: in the condensed face
        where a word would not fit the column otherwise ("Unwounded" on a tarot card)."""
        W, ls, f = self.inner_w, self.t.small, self.f
        face = f.regular
        if max(self.m.width(word, f.regular, ls) for lab, _, _ in t.rows
               for word in self.clean(lab).split() or [""]) + 2 * self.padh > W * 0.34:
            face = f.cond
        return min(max(self.m.width(self.clean(lab), face, ls) for lab, _, _ in t.rows) + 2 * self.padh, W * 0.34), face

    def _turned(self, t: Table) -> tuple[Table, float, tuple] | None:
        """The stat band turned (stats down the side), its key column and plan, if it takes one band."""
        W = self.inner_w
        turned = Table(tuple(lab for lab, _, _ in t.rows),
                       tuple((t.labels[j], tuple(cells[j] for _, cells, _ in t.rows), True)
                             for j in range(len(t.labels))), True)
        key_w = min(max(self.m.width(self.clean(lab), self.f.regular, self.t.small) for lab in t.labels)
                    + 2 * self.padh, W * 0.34)
        plan = self._stat_plan(turned, key_w)
        return (turned, key_w, plan) if len(plan[0]) == 1 else None

    def turn_all(self) -> bool:
        """Whether a card of the export turns its stat band at the current size (the others then do too)."""
        hit = self._turn_all.get(self.t)
        if hit is None:
            hit = False
            for c in self.contents:
                t = c.stats
                if c.kind != "unit" or not t.row_labels or len(t.rows) < 2:
                    continue
                key_w = min(max(self.m.width(self.clean(lab), self.f.regular, self.t.small) for lab, _, _ in t.rows)
                            + 2 * self.padh, self.inner_w * 0.34)
                if len(self._stat_plan(t, key_w)[0]) >= 2 and self._turned(t) is not None:
                    hit = True
                    break
            self._turn_all[self.t] = hit
        return hit

    def reminder_size(self) -> tuple[float, Color]:
        """The reminder line's type size and colour: on a large card in ink, at the body size where
        every fact keeps to its line there in the condensed face or breaks at the labels' size too,
        else at the labels' (a fact broken in two, "-target's Def" alone on a line, cost LEGO's tarot
        cards their rolls; For the Masses' morale test, too long for a line at either, read smaller
        than the "To hit" line over it)."""
        if not self.roomy:  # (in ink: read in play, in grey it read as faint at the labels' size)
            return self.t.remind, INK
        hit = self._reminder_size.get(self.t)
        if hit is None:  # (one answer for the export's cards at a size, as reminder_face)
            facts = [part for c in self.contents if c.reminder for part in self.clean(c.reminder).split(" · ")]

            def fits(fact: str, size: float) -> bool:
                return self.m.width(fact, self.f.cond, size) <= self.inner_w

            # (a fact too long for its line at either size breaks at either: it keeps no line smaller)
            whole = all(fits(x, self.t.body) or not fits(x, self.t.small) for x in facts)
            hit = self._reminder_size[self.t] = (self.t.body if whole else self.t.small), INK
        return hit

    def reminder_lines(self, reminder: str, face: str, size: float, broken: bool = True) -> list[str]:
        """A reminder's lines: a line too long breaks between its facts, the " · " between them
        dropped there (the spear's throw over "rally 1D10 ≤ 7"): no line ends in a separator.
        A fact too long for a line of its own breaks between its phrases where that takes no more
        lines than breaking between words ("(6 always, 1 never)" whole under the attack roll, not
        "1" and "never)" apart), and the next fact starts a line of its own (``broken``: else whole)."""
        lines = [""]
        ended = True  # (the last line ends a fact: the next fact may join it)
        for part in self.clean(reminder).split(" · "):
            joined = f"{lines[-1]} · {part}" if lines[-1] else part
            if lines[-1] and (not ended or self.m.width(joined, face, size) > self.inner_w):
                lines.append(part)
            else:
                lines[-1] = joined
            phrases = self.phrases(lines[-1], face, size) if broken else [lines[-1]]
            ended = len(phrases) == 1
            lines[-1:] = phrases
        return lines

    def phrases(self, fact: str, face: str, size: float) -> list[str]:
        """A fact too long for its line as lines broken after a comma or semicolon or before a
        bracket (outside brackets), each as long as fits; ``[fact]`` where it fits, or where its
        phrases would take more lines than its words (the word wrap then breaks it)."""
        def fits(text: str) -> bool:
            return self.m.width(text, face, size) <= self.inner_w

        if fits(fact):
            return [fact]
        out, rest = [], fact
        while not fits(rest):
            cuts = [(i + 1, i + 2) for i in range(len(rest) - 1) if rest[i] in ",;" and rest[i + 1] == " "] \
                + [(i, i + 1) for i in range(1, len(rest) - 1) if rest[i] == " " and rest[i + 1] == "("]
            heads = [(end, start) for end, start in cuts  # (never inside brackets)
                     if fits(rest[:end]) and rest[:end].count("(") == rest[:end].count(")")]
            if not heads:
                break
            end, start = max(heads)
            out.append(rest[:end])
            rest = rest[start:]
        out.append(rest)
        words = len(self.w.wrap(((fact, face, INK),), size, self.inner_w, cache=False))
        taken = sum(len(self.w.wrap(((x, face, INK),), size, self.inner_w, cache=False)) for x in out)
        return out if taken <= words else [fact]

    def reminder_face(self) -> str:
        """The face of the export's reminder lines: condensed on every card where a fact too long for
        its line in the regular face keeps to one line so ("VP to enemy: 5 slain, 3 wounded" on a
        tarot card), else regular (one face in every reminder of the export: a fact condensed beside
        a regular one read as two designs)."""
        hit = self._reminder_face.get(self.t)
        if hit is None:
            size = self.reminder_size()[0]
            regular, cond = self.f.regular, self.f.cond
            fits = [(self.m.width(line, regular, size) <= self.inner_w, self.m.width(line, cond, size) <= self.inner_w)
                    for c in self.contents if c.reminder
                    for line in self.reminder_lines(c.reminder, regular, size, broken=False)]
            hit = cond if any(not r and k for r, k in fits) else regular
            self._reminder_face[self.t] = hit
        return hit

    def narrow_all(self) -> bool:
        """Whether a card's stat band of the export takes the condensed face at the current size (the
        others then do too: regular values on one card of a sheet and condensed on the next read as
        two designs)."""
        hit = self._narrow_all.get(self.t)
        if hit is None:
            self._narrow_all[self.t] = hit = any(
                self._stat_plan(c.stats, self.key_width(c.stats), alone=True, names=False)[2][1] != self.f.bold
                for c in self.contents
                if c.kind == "unit" and c.stats.labels and not (c.stats.row_labels and len(c.stats.rows) > 1))
        return hit

    def names_all(self) -> bool:
        """Whether the stat bands of the export head their boxes with the columns' names spelt out
        ("Action dice Move Fight Shoot Defense"): on a large card, where every unit card's band takes
        them, each row of boxes still across the card ("Attack Defense Move" on one card of a sheet
        and "A D M Bow" on the next read as two designs; "Attack Def Dmg" in one row too)."""
        if not (self.roomy and self.names):
            return False
        hit = self._names_all.get(self.t)
        if hit is None:
            hit = True
            for c in self.contents:
                t = c.stats
                if c.kind != "unit" or not t.labels:
                    continue
                groups, nat, fonts, _, avail = self._natural(t, self.key_column(t)[0] if t.row_labels else 0.0, False)
                if self._named(t, groups, nat, fonts[0], avail) is None:
                    hit = False
                    break
            self._names_all[self.t] = hit
        return hit

    def _stat_plan(self, t: Table, key_w: float, alone: bool = False,
                   names: bool = True) -> tuple[list[list[int]], list[float], tuple[str, str, str]]:
        """(bands of columns, column widths, fonts) of a stat band: as few bands as the card's width
        allows, the columns shared out evenly among them; DejaVu Sans Condensed when it takes fewer
        (on every card of the export when one card's does, unless ``alone``); each box as wide as
        its column's name where the export's bands take names (``names``, see names_all)."""
        groups, nat, fonts, model, avail = self._natural(t, key_w, alone)
        if names and self.names_all():
            nat = self._named(t, groups, nat, fonts[0], avail) or nat
        if self.record_line and len(groups) == 1:
            return groups, self._by_values(model or t, nat, fonts, avail), fonts
        if model is not None and len(groups) > 1:
            nat = self._shared_rows(model, nat, groups, fonts, avail)
        widths = list(nat)
        for g in groups:  # each band spans the card: what is left is shared out among its boxes
            # the narrowest boxes widened first, to a common width ("0" as roomy as "+1" beside it)
            order = sorted(g, key=lambda j: -nat[j])
            for k in range(len(order)):
                common = (avail - sum(nat[j] for j in order[:k])) / (len(order) - k)
                if common >= nat[order[k]]:
                    break
            for j in order[k:]:
                widths[j] = common
        return groups, widths, fonts

    def _natural(self, t: Table, key_w: float,
                 alone: bool) -> tuple[list[list[int]], list[float], tuple[str, str, str], Table | None, float]:
        """A stat band's bands of columns, natural widths, fonts, model (see models) and the width
        its boxes share (see _stat_plan)."""
        f = self.f
        tsz = self.t
        avail = self.inner_w - key_w
        best = None
        model = None
        for narrow in (False, True) if alone or not self.narrow_all() else (True,):
            fonts = (f.narrow(f.bold) if narrow else f.bold, f.narrow(f.bold) if narrow else f.bold,
                     f.narrow(f.regular) if narrow else f.regular)
            model = self.models.get(("stats", t.labels)) if not t.row_labels else None
            nat = [min(w, avail) for w in self._fit_columns(model or t, fonts, (tsz.small, tsz.stat, tsz.body),
                                                            True, None, padh=(self.label_padh, self.band_padh))]
            groups = self._bands(t.labels, nat, avail)
            if best is None or len(groups) < len(best[0]):
                best = (groups, nat, fonts)
            if len(groups) == 1:
                break
        assert best is not None
        return best[0], best[1], best[2], model, avail

    def _named(self, t: Table, groups: list[list[int]], nat: list[float], face: str,
               avail: float) -> list[float] | None:
        """``nat`` with each box as wide as its column's name needs in ``face`` at the labels' size
        (its label's where it has none); None where a band would then pass the card's width."""
        out = []
        for j, w in enumerate(nat):
            name = self.clean(self.names.get(t.labels[j], t.labels[j]), face)
            out.append(max(w, self.m.width(name, face, self.t.small) + 2 * self.label_padh))
        return out if all(sum(out[j] for j in g) <= avail + 0.01 for g in groups) else None

    def _bands(self, labels: tuple[str, ...], nat: list[float], avail: float) -> list[list[int]]:
        """The columns into bands: one where they fit; else a band for each row the ruleset declares,
        each split further where it is too wide, so that a column keeps its row on every card."""
        rows = [self.band_rows.get(lab) for lab in labels]
        if sum(nat) <= avail + 0.01 or None in rows:
            return _groups(nat, avail)
        out: list[list[int]] = []
        start = 0
        for j in range(1, len(labels) + 1):
            if j == len(labels) or rows[j] != rows[start]:
                out += [[start + k for k in g] for g in _groups(nat[start:j], avail)]
                start = j
        return out

    def _shared_rows(self, model: Table, nat: list[float], groups: list[list[int]], fonts: tuple[str, str, str],
                     avail: float) -> list[float]:
        """``nat`` with each band that is a whole declared row as wide, box by box, as that row on
        every card of the export with the same columns in it (where it still fits across): the
        row's stats then line up from card to card, whatever the other row holds."""
        out = list(nat)
        for g in groups:
            row = tuple(model.labels[j] for j in g)
            at = self.band_rows.get(row[0])
            if at is None or tuple(lab for lab in model.labels if self.band_rows.get(lab) == at) != row:
                continue
            widest = [nat[j] for j in g]
            for key, other in self.models.items():
                if key[0] != "stats" or other is model:
                    continue
                where = [j for j, lab in enumerate(other.labels) if self.band_rows.get(lab) == at]
                if tuple(other.labels[j] for j in where) != row:
                    continue
                theirs = self._fit_columns(other, fonts, (self.t.small, self.t.stat, self.t.body), True, None,
                                           padh=(self.label_padh, self.band_padh))
                widest = [max(w, min(theirs[j], avail)) for w, j in zip(widest, where)]
            if sum(widest) <= avail + 0.01:
                for j, w in zip(g, widest):
                    out[j] = w
        return out

    def _by_values(self, t: Table, nat: list[float], fonts: tuple[str, str, str], avail: float) -> list[float]:
        """The one-row band's boxes across the card, the room left over given to the values: each
        box as wide as its widest value with the same margin at each side ("2d10" as roomy as "5"),
        or as its label needs where that is wider."""
        _, mf, of = fonts
        tsz = self.t
        values = [max([self.m.width(self.clean(cells[j]), of if _DASHES.fullmatch(cells[j]) or not main else mf,
                                    tsz.stat if main else tsz.body) for _, cells, main in t.rows] or [0.0])
                  for j in range(len(nat))]

        def widths(margin: float) -> list[float]:
            return [max(n, v + 2 * margin) for n, v in zip(nat, values)]

        low, high = 0.0, avail
        for _ in range(40):  # (the widest margin at which the boxes fill the card's width)
            mid = (low + high) / 2
            low, high = (mid, high) if sum(widths(mid)) <= avail else (low, mid)
        out = widths(low)
        spare = (avail - sum(out)) / len(out)
        return [w + spare for w in out]

    def _grid(self, key_w: float, ws: list[float], h: float, color: int, top: bool) -> list[tuple]:
        """The box lines of one line of the stat band."""
        col = COLORS[color]
        right = key_w + sum(ws)
        ops: list[tuple] = [("L", 0.0, h, right, h, col, 0.6)]
        if top:
            ops.append(("L", 0.0, 0.0, right, 0.0, col, 0.6))
        xs = [0.0] if key_w else []
        x = key_w
        xs.append(x)
        for w in ws:
            x += w
            xs.append(x)
        for x in xs:
            ops.append(("L", x, 0.0, x, h, col, BOX_LINE))
        return ops

    def weapon_table(self, t: Table, color: int) -> list[Row]:
        """The weapon table, one row per weapon: its name, then the ruleset's columns, each as wide
        as its widest cell in the export (so the same on every card); the columns the ruleset sets
        under the row (notes) take a line of their own across the table. Each row is one unit of
        flow, so a card may break between two weapons and never inside one."""
        tsz = self.t
        W = self.inner_w
        lf, of, widths, cols, under, _ = self.weapon_plan(t)
        t = self.banded(t, t.bands)
        xs = [sum(widths[:k]) for k in range(len(widths))]
        padv = 1.4
        spans = t.spans if isinstance(t, Banded) else ()
        # the columns of a list of bands (padded less, see _measure)
        inside = {[0, *cols].index(j) for r, j0, k in spans if r < 0 for j in range(j0, j0 + k)}

        def cells(texts: list[str], font: str, size: float, colour: Color, row: int) -> tuple[list[tuple], float]:
            ops: dict[int, list[tuple]] = {}
            h = size * LEADING
            # a cell across a list of bands' columns ("melee 1\""); the labels head a band each
            across = {[0, *cols].index(j0): k for r, j0, k in spans if r == row and r >= 0}
            reach = self.into_bands(texts, widths, inside, font, size) if row < 0 else None
            for k, text in reversed(list(enumerate(texts))):  # (the name last: it may use the others' room)
                width = sum(widths[k:k + across.get(k, 1)])
                pad = self.padh * (BAND_PAD if k in inside and k not in across else 1.0)
                if k == 0 and colour is INK:  # a weapon's name: broken between words, or after a slash
                    # its lines after the first run under the other cells when each of those takes one line
                    later = W - 2 * pad if h <= size * LEADING + 0.01 else width - 2 * pad
                    cell, ch = self.name_cell(text, font, size, xs[k] + pad, padv, width - 2 * pad, later)
                elif k == len(texts) - 1 and reach is not None:  # (on one line, reaching left)
                    cell, ch = [("T", xs[k] + width - pad - reach[0], padv + size, reach[2], size, colour,
                                 self.clean(text, reach[2]))], size * LEADING
                else:
                    shift = reach[1] if reach is not None and k == len(texts) - 2 else 0.0
                    # (a cell across the bands starts under the first, "0": a melee weapon's reach is
                    # at no range penalty, and centred it read as the "-1" band's)
                    cell, ch = self.cell(text, font, size, colour, xs[k] + pad - shift, padv, width - 2 * pad,
                                         centre=k > 0 and k not in across)
                ops[k] = cell
                h = max(h, ch)
            return [op for k in sorted(ops) for op in ops[k]], h + 2 * padv  # (drawn, so read, left to right)

        head_ops, hh = cells(band_labels(t, [0] + cols), lf, tsz.small, LABEL, -1)
        header = Row(hh, (("F", 0.0, 0.0, W, hh, TINTS[color]),) + tuple(head_ops), keep=1)
        rows: list[Row] = [header]
        for r, (_, texts, _) in enumerate(t.rows):
            ops, h = cells([texts[j] for j in [0] + cols], of, tsz.body, INK, r)
            said = [j for j in under if texts[j].strip() not in NOTHING]
            for j in said:  # a note listing a die for each band of range: a row of cells across the weapon
                grid = self.die_bands(t.labels[j], texts[j], color, h)
                if grid is not None:
                    ops += grid[0]
                    h += grid[1]
            said = [j for j in said if not _DIE_BAND_LIST.match(texts[j])]
            notes = "; ".join(f"{t.labels[j]}: {texts[j].strip()}" for j in said)
            if notes:
                indent = self.padh + tsz.body
                # (in ink: a reach or a weapon's rule is played by, no footnote)
                sub, sh = self.cell(notes, of, tsz.small, INK, indent, h - padv, W - indent - self.padh)
                ops += sub
                h += sh
            ops.append(("L", 0.0, h, W, h, RULE, 0.4))
            rows.append(Row(h, tuple(ops), header=header))
        return rows

    def into_bands(self, labels: list[str], widths: list[float], bands: set[int],
                   font: str, size: float) -> tuple[float, float, str] | None:
        """The last column's label on one line, reaching left into the room the band's label beside
        it leaves in its column (LEGO's "Once every" beside the "-2" over the range's last band):
        (its width, how far the band's label moves left of its band's centre to make the room,
        never out of its column's padding, as little as will do; its face); None where the label
        fits its column, or would crowd its neighbour."""
        k = len(labels) - 1
        if k < 2 or self.m.width(self.clean(labels[k], font), font, size) <= widths[k] - 2 * self.padh + 0.01:
            return None
        p = max((j for j in range(1, k) if labels[j].strip()), default=0)
        if p not in bands or p != k - 1:
            return None
        x = sum(widths[:p])
        pw = self.m.width(self.clean(labels[p], font), font, size)
        most = max(0.0, (widths[p] - pw) / 2 - self.padh * BAND_PAD)
        end = x + (widths[p] + pw) / 2  # (the band's label, centred over its band)
        faces = (font, self.f.narrow(font))  # (DejaVu Sans Condensed where the regular face has no room)
        # a word's room between the two ("-2" and "Once every" read as two headings), else half of it
        for gap in (size, size * 0.5):
            for face, moves in [(f, False) for f in faces] + [(f, True) for f in faces]:
                tw = self.m.width(self.clean(labels[k], face), face, size)
                shift = max(0.0, end + gap - (x + widths[p] + widths[k] - self.padh - tw))
                if shift <= (most if moves else 0.0) + 0.01:
                    return tw, shift, face
        return None

    def die_bands(self, label: str, text: str, color: int, top: float) -> tuple[list[tuple], float] | None:
        """A note listing a die for each band of range ("D4 0-5\" D6 6-10\" ..." under an ARES missile
        weapon) as a row of cells across the table, each die over its band, in ink: the dice in the
        labels' size, the bands at the body size (condensed, else at the labels' size, where that keeps
        the note's label on their left); None when the text is no such list or its cells do not fit."""
        if not _DIE_BAND_LIST.match(text):
            return None
        pairs = _DIE_BAND.findall(text)
        tsz, W, pad = self.t, self.inner_w, 1.5
        bold = self.f.bold
        label = self.clean(label, bold)
        # the label on one line, else two ("Range" over "die"): without it the row of dice reads as
        # nobody's (the defender's die by distance)
        heads = [[label]] + ([label.split(" ", 1)] if " " in label else [])
        tries = [(tsz.body, face, lines) for face in (self.f.regular, self.f.cond) for lines in heads] \
            + [(tsz.small, self.f.regular, heads[-1]), (tsz.body, self.f.regular, []), (tsz.small, self.f.regular, [])]
        for size, face, lines in tries:
            cell_w = max(max(self.m.width(self.clean(d), bold, tsz.small), self.m.width(self.clean(b), face, size))
                         for d, b in pairs) + 2 * pad
            x0 = max((self.m.width(x, bold, tsz.tiny) for x in lines), default=-2 * self.padh) + 2 * self.padh
            # (the label only where the cells keep their padding around their bands beside it)
            if x0 + cell_w * len(pairs) <= W + 0.01:
                break
        else:
            return None
        cell_w = (W - x0) / len(pairs)
        y = top - 0.9  # (in the weapon row's bottom padding: the row of dice reads as part of its weapon)
        h1, h2 = tsz.small * LEADING + 0.6, size * LEADING + 0.6
        ops: list[tuple] = [("F", x0, y, W - x0, h1, TINTS[color])]
        base = y + (h1 + h2 - (len(lines) - 1) * tsz.tiny * 1.1 + tsz.tiny * 0.7) / 2
        for k, word in enumerate(lines):
            ops.append(("T", self.padh, base + k * tsz.tiny * 1.1, bold, tsz.tiny, LABEL, word))
        for k, (die, band) in enumerate(pairs):
            x = x0 + k * cell_w
            if k:
                ops.append(("L", x, y, x, y + h1 + h2, RULE, 0.5))
            die, band = self.clean(die), self.clean(band)
            ops.append(("T", x + (cell_w - self.m.width(die, bold, tsz.small)) / 2, y + 0.3 + tsz.small * 0.95,
                        bold, tsz.small, INK, die))
            ops.append(("T", x + (cell_w - self.m.width(band, face, size)) / 2, y + h1 + 0.3 + size * 0.95,
                        face, size, INK, band))
        return ops, y + h1 + h2 - top

    def name_cell(self, text: str, font: str, size: float, x: float, top: float,
                  width: float, later: float | None = None) -> tuple[list[tuple], float]:
        """A weapon's name in its cell, and the cell's height. A name listing several ("Big bite/big
        claw/big fist") breaks after a slash, between two of them; a name (or one of them) too long
        for a line breaks between its words; ``later``: the width of its lines after the first.
        Right-to-left text goes to platypus (as cell()), which shapes it."""
        clean = self.clean(text, font)
        if has_rtl(clean) or not clean.strip():
            return self.cell(text, font, size, INK, x, top, width)
        lines: list[list[Seg]] = []
        line = ""
        for piece in _AFTER_SLASH.split(clean) + [None]:
            room = width if not lines or later is None else later
            if line and (piece is None or self.m.width(line + piece, font, size) > room + 0.01):
                lines += self.w.wrap(((line.strip(), font, INK),), size, room)
                line = ""
            line += piece or ""
        ops = [("T", x + sx, top + size + k * size * LEADING, f, size, c, t)
               for k, line in enumerate(lines) for sx, t, f, c in line if t]
        return ops, len(lines) * size * LEADING

    def cell(self, text: str, font: str, size: float, colour: Color, x: float, top: float, width: float,
             centre: bool = False) -> tuple[list[tuple], float]:
        """A table cell's text and its height: a platypus paragraph measures and wraps it; a cell on
        one line is set as plain text with the card's others (most cells, and the quick way), a
        longer one is drawn by platypus."""
        clean = self.clean(text, font)
        if not clean.strip():
            return [], size * LEADING
        # a band of a range table ("D8 11-15\"") is never broken: the space before its range holds
        text = _BAND.sub("\u00a0", text)
        para = self.paragraph(text, font, size, colour, TA_CENTER if centre else TA_LEFT)
        h = para.wrap(width, 1e6)[1]
        if h > size * LEADING + 0.01 or has_rtl(clean):
            return [("P", x, top, para, h)], h
        dx = (width - self.m.width(clean, font, size)) / 2 if centre else 0.0
        return [("T", x + dx, top + size, font, size, colour, clean)], h

    def banded(self, t: Table, bands: tuple[tuple[str, str], ...]) -> Table:
        """``banded(t, bands)``, made once per table (its columns' widths are measured once, see _fit_columns)."""
        if not bands:
            return t
        hit = self._banded.get((id(t), bands))
        if hit is None or hit[0] is not t:
            if len(self._banded) > 2_000:
                self._banded.clear()
            hit = self._banded[(id(t), bands)] = (t, banded(t, bands))
        return hit[1]

    def weapon_plan(self, t: Table) -> tuple[str, str, list[float], list[int], list[int], bool]:
        """(label font, cell font, column widths, columns in the row, columns under it, whether
        every cell but the names fits its column on one line)."""
        W = self.inner_w
        tsz = self.t
        model = self.banded(self.models.get(("weapons", t.labels)) or t, t.bands)
        t = self.banded(t, t.bands)
        under = [j for j in range(1, len(t.labels)) if t.labels[j] in t.under]
        cols = [j for j in range(1, len(t.labels)) if j not in under]
        # DejaVu Sans Condensed when the regular face does not fit; then a list of bands on two
        # lines (broken between two bands) when that does not either
        for bands, narrow in ((False, False), (False, True), (True, False), (True, True))[:4 if self.band_wrap else 2]:
            lf = self.f.narrow(self.f.bold) if narrow else self.f.bold
            of = self.f.narrow(self.f.regular) if narrow else self.f.regular
            nat = self._fit_columns(model, (lf, of, of), (tsz.small, tsz.body, tsz.body), True, None, bands)
            if min(nat[0], W * 0.5) + sum(nat[j] for j in cols) <= W + 0.01:  # (a very long name may wrap)
                break
        nat = [w + 0.5 for w in nat]  # (a text as wide as its cell's room wraps: a little to spare)
        key_min = min(nat[0], W * 0.34)
        rest = sum(nat[j] for j in cols)
        if not cols:
            return lf, of, [W], cols, under, True
        if rest > W - key_min:  # too wide even so: the columns share what the name leaves (cells wrap)
            return lf, of, [key_min] + [nat[j] * (W - key_min) / rest for j in cols], cols, under, False
        # the name takes what it needs (or what is left); the rest is shared out among the others
        key_w = min(nat[0], W - rest)
        # a name may wrap between its words, not inside one ("Claw/hand/spear/sword")
        words = [w for _, cells, _ in model.rows for w in self.clean(cells[0]).split()]
        if self.name_wrap:  # ... or after a slash inside one
            words = [piece for w in words for piece in _AFTER_SLASH.split(w)]
        word = max(self.m.width(w, of, tsz.body) for w in words or [""]) + 2 * self.padh + 0.5
        fits = key_w >= word - 0.01
        if fits:  # a name listing several ("Big bite/big claw/...") takes two lines at most
            pad = self.padh
            fits = all(self.name_cell(cells[0], of, tsz.body, 0.0, 0.0, key_w - 2 * pad, W - 2 * pad)[1]
                       <= 2 * tsz.body * LEADING + 0.01 for _, cells, _ in model.rows if _SLASHED.search(cells[0]))
        widths = [key_w] + [nat[j] for j in cols]
        slack = W - key_w - rest
        # the room left goes first to a last heading wider than its column (LEGO's "Once every"),
        # so the band's heading beside it stays centred over its band (see into_bands)
        if len(cols) > 1 and isinstance(model, Banded) and slack > 0:
            last = band_labels(model, [0] + cols)[-1]
            give = min(slack, max(0.0, self.m.width(self.clean(last, lf), lf, tsz.small) + 2 * self.padh
                                  - widths[-1] + 0.5))
            widths[-1] += give
            slack -= give
        return lf, of, [widths[0]] + [w + slack / len(cols) for w in widths[1:]], cols, under, fits

    def stat_bands(self, c: CardContent) -> int:
        """How many lines of boxes the card's stat band takes at the current size: counted for a
        band of eight or more stats, which split in two reads as two tables (For the Masses' record
        line, Mv to CP) or in three as a pile of boxes (ARES' nine); a shorter band (three wide
        boxes) splits cleanly and counts as one."""
        if len(c.stats.labels) < 8 or c.stats.row_labels:
            return 1
        return len(self._stat_plan(c.stats, 0.0)[0])

    def one_row(self, c: CardContent) -> bool:
        """Whether each weapon of the card takes one row (its name aside) at the current size."""
        return c.weapons is None or not c.weapons.rows or self.weapon_plan(c.weapons)[5]

    def paragraph(self, text: str, font: str, size: float, colour: Color, align: int) -> Paragraph:
        """A cell's text as a platypus paragraph: escaped (a name is never read as markup), in the
        export's fonts, shaped when it holds right-to-left text."""
        key = (text, font, size, colour, align)
        style = self._styles.get(key[1:])
        if style is None:
            style = self._styles[key[1:]] = ParagraphStyle(
                f"cell{len(self._styles)}", fontName=font, fontSize=size, leading=size * LEADING, textColor=colour,
                alignment=align, wordWrap="LTR")
        clean = self.clean(text, font)
        if has_rtl(clean):
            style = ParagraphStyle(style.name + "-shaped", style, shaping=1)
        return Paragraph(self.f.markup(clean, font), style)


def value_room(size: float) -> float:
    """The clear room each side of a stat value in its box, from the value to its box's line: 15%
    of the value (a large value against its lines reads as one block with them), 1.5 pt at least."""
    return max(1.5, size * 0.15)


def qualified(value: str) -> tuple[str, str] | None:
    """A stat value with a qualifier after its number, split: "6 Sw 3 Cl 1 Ju 3" -> ("6", "Sw 3
    Cl 1 Ju 3"), "0 (bow +1)" -> ("0", "(bow +1)"); None for a value of one word or one that
    does not open with a number. The stat band prints the qualifier small beside the number, so
    the band keeps its columns on one line."""
    head, _, tail = value.strip().partition(" ")
    return (head, tail.strip()) if _NUMBER.fullmatch(head) and tail.strip() else None


_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?\"?")
_ASIDE_OF = re.compile(r"\([^()]+\)")  # a qualifier in brackets, "(bow +1)": a line of its own


def _tail_splits(tail: str) -> list[tuple[str, ...]]:
    """A qualifier on one line, then each way of setting it on two, broken between words: after
    a number where it has one ("Sw 3 Cl 1" over "Ju 3", keeping "Cl 1" together)."""
    words = tail.split()
    breaks = [k for k in range(1, len(words)) if words[k - 1][-1].isdigit()] or list(range(1, len(words)))
    return [(tail,)] + [(" ".join(words[:k]), " ".join(words[k:])) for k in breaks]


def models(contents: list[CardContent]) -> dict[tuple, Table]:
    """For each kind of table of an export (stat band or weapon table, by its columns), a table
    holding the rows of every card: its column widths are every card's."""
    rows: dict[tuple, dict] = {}
    for c in contents:
        if c.kind != "unit":
            continue
        if c.stats.labels and not c.stats.row_labels:
            rows.setdefault(("stats", c.stats.labels), {}).update(dict.fromkeys(c.stats.rows))
        if c.weapons is not None and c.weapons.rows:
            rows.setdefault(("weapons", c.weapons.labels), {}).update(dict.fromkeys(c.weapons.rows))
    return {key: Table(key[1], tuple(r), False) for key, r in rows.items()}


@dataclass(frozen=True)
class Banded(Table):
    """A weapon table with each list of bands set one band to a column: ``spans`` holds the cells
    that take all the columns of their list, (row, first column, columns), row -1 the labels."""

    spans: tuple[tuple[int, int, int], ...] = ()


def banded(t: Table, bands: tuple[tuple[str, str], ...]) -> Table:
    """``t`` with each column listed in ``bands`` (label, heading) split into a column per band:
    "0-9\" / 10-18\" / 19-27\"" in three columns under one label, "Range 0 / -1 / -2". A cell
    that is not such a list ("melee 1\"") takes the columns together."""
    heads = dict(bands)
    if isinstance(t, Banded) or not any(lab in heads and " / " in lab for lab in t.labels[1:]):
        return t
    labels: list[str] = []
    cells: list[list[str]] = [[] for _ in t.rows]
    spans: list[tuple[int, int, int]] = []
    for j, lab in enumerate(t.labels):
        k = len(lab.split(" / "))
        if j == 0 or lab not in heads or k < 2:
            labels.append(lab)
            for r, (_, texts, _) in enumerate(t.rows):
                cells[r].append(texts[j])
            continue
        spans.append((-1, len(labels), k))
        for r, (_, texts, _) in enumerate(t.rows):
            parts = texts[j].split(" / ")
            if len(parts) == k:
                cells[r] += [p.strip() for p in parts]
            else:
                spans.append((r, len(labels), k))
                cells[r] += [texts[j]] + [""] * (k - 1)
        labels += [f"{heads[lab]} {lab}".strip()] + [""] * (k - 1)
    return Banded(tuple(labels), tuple((lab, tuple(c), main) for (lab, _, main), c in zip(t.rows, cells)),
                  t.row_labels, t.under, t.bands, spans=tuple(spans))


def band_labels(t: Table, columns: list[int]) -> list[str]:
    """The labels over ``columns`` of a weapon table, a list of bands' label set as one over each
    of its bands ("0", "-1", "-2" over LEGO's range bands, as the book's range table heads each band
    on its own), so each stands over its column; the list's heading ("Range") is left to the bands
    under them, which say their inches. Where no weapon of the table has bands (a card of melee
    weapons: "Club  melee 1\"" across them), the bands' labels stand over nothing and are left out."""
    labels = [t.labels[j] for j in columns]
    if not isinstance(t, Banded):
        return labels
    for r, j0, k in t.spans:
        if r >= 0 or j0 not in columns:
            continue
        i = columns.index(j0)
        parts = next((lab.split(" / ") for lab, head in t.bands
                      if f"{head} {lab}".strip() == t.labels[j0] and len(lab.split(" / ")) == k), None)
        if parts is not None and columns[i:i + k] == list(range(j0, j0 + k)):
            across = sum(1 for r2, j2, _ in t.spans if r2 >= 0 and j2 == j0) == len(t.rows)
            labels[i:i + k] = [""] * k if across else [part.strip() for part in parts]
    return labels


def declared_rows(columns) -> dict[str, int]:
    """The stat band's row of each of a ruleset's card columns, by label: a column with ``new_band``
    starts the next; {} where the ruleset declares no rows (the band then folds by width alone)."""
    if not any(col.new_band for col in columns):
        return {}
    rows: dict[str, int] = {}
    row = 0
    for col in columns:
        if col.new_band and rows:
            row += 1
        rows[col.label] = row
    return rows


def _groups(nat: list[float], avail: float) -> list[list[int]]:
    """Columns into as few bands as fit ``avail``, in order; then shared out evenly when that fits too."""
    groups: list[list[int]] = []
    cur: list[int] = []
    used = 0.0
    for j, w in enumerate(nat):
        if cur and used + w > avail + 0.01:
            groups.append(cur)
            cur, used = [], 0.0
        cur.append(j)
        used += w
    if cur:
        groups.append(cur)
    k, n = len(groups), len(nat)
    if k > 1:
        even, i = [], 0
        for g in range(k):
            size = n // k + (1 if g < n % k else 0)
            even.append(list(range(i, i + size)))
            i += size
        if all(sum(nat[j] for j in g) <= avail + 0.01 for g in even):
            return even
    return groups
