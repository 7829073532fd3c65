"""The tracking block of a card: lines of boxes to tick, die steps, checks and choices, each
label in one column so the boxes line up (a part of CardLayout, see layout)."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

from reportlab.lib.colors import white

from ..engine.trackers import MAX_BOXES
from ..rules.numbers import fmt
from .content import CardContent, Track
from .style import BOX_LARGE, COLORS, EACH_MAX, GREY, INK, LEADING, RED, STEP, Row, Run, Type


class TrackerRows:
    """CardLayout's tracking boxes: the rows under a card's texts."""

    def tracks(self, tracks: tuple[Track, ...], color: int) -> list[Row]:
        """Boxes to tick, one line of boxes per kind of figure, the labels in one column so the
        boxes line up; a label too long for that column goes above its boxes (for every track
        of the card). Each box carries its number; a lone box is ticked, not counted, and has none.
        A tracker's rows (a figure's or element's wounds) go as runs numbered 1, 2, ..., as many to a
        line as fit, beside their label or, on every card of the export (see runs_over), under it
        (box_rows)."""
        t = self.t
        W = self.inner_w
        bold = self.f.bold
        out: list[Row] = []
        labels = [self.clean(tr.label, bold) for tr in tracks]
        label_w = self.label_column(tracks)
        over = self.runs_over()
        box = t.box
        heading = ""
        checks: list[str] = []  # single check boxes of the card, set side by side on one line
        # one side for the card's boxes to tick (its single checks, its choices: "Formation: Regiment
        # Skirmish" beside "Failed morale"), the smallest that each keeps to its line; the boxes a
        # tracker counts with keep theirs
        singles = [lab for tr, lab in zip(tracks, labels) if _single(tr)]
        tick = self.check_fit(singles, box)[0] if singles else box
        for tr, lab in zip(tracks, labels):
            if not _single(tr) and tr.kind == "check" and not tr.note and not any(tr.notes):
                tick = min(tick, self.choice_fit(lab, [self.clean(item, bold) for item in tr.marks], tick)[0])
        noted: list[tuple[str, str]] = []  # single boxes with their effects, one under the other
        for tr, label in zip(tracks, labels):
            if tr.heading and tr.heading != heading:
                out.append(self.heading(tr.heading, color))
            heading = tr.heading
            if _single(tr):
                checks.append(label)  # (one box counts nothing: a figure's Wounded is a plain box, as Panicked)
                continue
            if single_box(tr):  # a plain box with what it means beside it (heroic_gods' Panicked)
                noted.append((label, self.clean(tr.note)))
                continue
            if tr.kind == "check" and not tr.note and not any(tr.notes):  # items named alone (Regiment, Skirmish)
                out += self.choice_line(label, [self.clean(item, bold) for item in tr.marks], color, tick)
                continue
            if tr.kind != "boxes":
                out += self.marked(tr, label, color, box)
                continue
            if tr.boxes > MAX_BOXES:
                out += self.para(((label + ": ", bold, INK),
                                  (f"{fmt(tr.boxes)} (too many boxes to print; keep a tally)", self.f.regular, INK)),
                                 t.body, W)
                continue
            out += self.box_rows(tr, label, color, label_w, over, bool(out))
        if noted:
            out += self.noted_checks(noted, color, tick)
        if checks:
            out += self.check_line(checks, color, tick)
        return out

    def box_rows(self, tr: Track, label: str, color: int, label_w: float, over: bool, after: bool) -> list[Row]:
        """A tracker of boxes to count with (see tracks): its label, its note, its boxes in runs as
        many to a line as fit, numbered; ``label_w``: the card's label column (0: labels above their
        boxes), ``over``: the export's runs under their label, ``after``: rows above it on the card."""
        t = self.t
        W = self.inner_w
        ls = t.small
        bold = self.f.bold
        out: list[Row] = []
        above = not label_w
        box = t.box
        gap = box * 0.25
        group_gap = box * 0.7
        # the half-strength bar between two boxes takes a group's gap, so it never crowds them
        bar = group_gap - gap if tr.mark and tr.mark < tr.boxes else 0.0
        g = max(1, tr.group)
        # numbered figure by figure (tr.each, or runs under their label): the label opens the note
        # over the boxes, which start at the card's edge, so that as many figures go to a line on
        # every card and size
        edge = tr.each or tr.runs and over
        x0 = 0.0 if edge else label_w
        # the label stays beside the boxes even where, over them, two figures' boxes would go to a
        # line: the cards of an export then set their trackers alike
        # each figure's run opens with its number ("1", "2": which soldier a run of stun levels is,
        # which figure or element a row of wounds; a lone figure's needs none)
        restart = tr.each or tr.runs and g > 1  # (each run's boxes numbered from 1)
        bw = self.box_width(tr, restart)
        tag_w = self.tag_width(tr) if tr.each or tr.runs else 0.0
        runs_gap = self.runs_gap(bw, tag_w)
        # a run's boxes with a label of their own (LEGO's wake-up rolls "5+", "12") stay empty, to
        # tick: the labels stand over the first line's runs, each centred on its box, in the condensed
        # face at the box numbers' size, on one line where the boxes a little further apart keep as many
        # figures to a line (judged for runs opening with their soldier's number, so that a lone
        # soldier's run is set as his army's pairs are), else on two, broken at a space; a box widens only
        # for a label too wide even so
        names = [self.clean(x, self.f.cond) for x in tr.labels[:g]] if tr.each else []
        hs = t.tiny
        step = gap
        heads: list[list[str]] = []
        if names:
            # (two labels side by side at least a little more than a word's space apart, over half
            # the label's size: "2D 12  3D 18" does not read "12 3D")
            lw = [self.m.width(x, self.f.cond, hs) for x in names]
            tag_as = tag_w or self.tag_room("8")
            gap_as = self.runs_gap(bw, tag_as)
            most = _per_line(W - x0 - bar - tag_as, [bw] * g, gap, gap_as, g, True)
            for apart in (0.6, 0.45):
                wide = max([gap] + [(a + b) / 2 + hs * apart - bw for a, b in pairwise(lw)])
                # (boxes more than half a box apart, three quarters on a poker card, no longer read
                # as one soldier's run; a landscape index card, short of lines, keeps them so rather
                # than take the labels' second line)
                if (wide <= bw * (0.5 if self.roomy else 0.75) or self.size.width > self.size.height) \
                        and _per_line(W - x0 - bar - tag_as, [bw] * g, wide, gap_as, g, True) == most:
                    step = wide
                    heads = [[x] for x in names]
                    break
            else:
                heads = [self.head_lines(x, hs, bw + gap - hs * 0.6) for x in names]
        widths = [max(bw, max(self.m.width(x, self.f.cond, hs) for x in lines) + 1.0 - step) for lines in heads] \
            + [bw] * (g - len(names))
        per_line = _per_line(W - x0 - bar - tag_w, widths, step, runs_gap, g, tr.each)
        if per_line < tr.boxes:  # on two lines or more: as many on each (10: 5 | 5), none alone
            even = -(-tr.boxes // -(-tr.boxes // per_line))
            if 1 < g <= per_line:
                even = -(-even // g) * g  # (a figure's boxes still on one line)
            per_line = min(per_line, even)
        if tr.mark and tr.mark <= per_line < tr.boxes:  # on two lines or more: the first ends at the bar
            per_line = tr.mark
        row_h = box + 2.5
        lines = -(-tr.boxes // per_line)
        # the note after the boxes when they take one line and it fits there, else above them
        note = self.clean(tr.note) if tr.note else ""
        boxes_w = sum(widths[k % g] for k in range(tr.boxes)) + (tr.boxes - 1) * step \
            + ((tr.boxes - 1) // g) * (group_gap - step) + bar
        beside = bool(note) and lines == 1 and not edge \
            and label_w + boxes_w + 4 + self.m.width(note, self.f.cond, ls) <= W
        # else the boxes stay beside their label, the note under them, where it fits there (on
        # every card size: boxes under their label on one export and beside it on the next read two ways)
        under = bool(note) and not beside and lines == 1 and not edge and not above \
            and label_w + boxes_w <= W and x0 + self.m.width(note, self.f.cond, ls) <= W
        # what a numbered run is ("per figure"): after the label over the runs, else under it
        # where the runs take two lines or more
        per_run = f"per {tr.caption.lower()}" if tr.runs and tr.caption and tag_w else ""

        first = min(tr.boxes, per_line)  # (the first line's boxes, which the labels stand over)
        # (the label, what a numbered run counts, the note: the line over the runs set at the edge)
        caption = ((label + "  ", bold, INK),) + (((per_run + "  ", self.f.cond, GREY),) if per_run else ()) \
            + (((note, self.f.cond, INK),) if note else ())

        xs = _lefts(first, 0, x0, g, tr.mark, step, runs_gap, tag_w, widths)[0]
        if above and not edge:  # the label above its boxes, the note (if any) after it
            runs: tuple[Run, ...] = ((label + (": " if note and not beside else ""), bold, INK),)
            if per_run:
                runs += ((per_run + ("  " if note and not beside else ""), self.f.cond, GREY),)
            if note and not beside:
                runs += ((note, self.f.regular, INK),)
            for r in self.para(runs, ls, W, together=8):
                r.keep = 1
                out.append(r)
        elif edge or (note and not beside and not under):
            # the label opens its note, over the boxes: label, note and boxes read as one block, set
            # apart from the tracker above (whose caption the note would otherwise seem to be)
            if after:
                out.append(Row(ls * 0.25, spacer=True))
            for line in self.even(caption, ls, W):
                ops = tuple(("T", sx, ls * 0.9, font, ls, colour, text) for sx, text, font, colour in line if text)
                out.append(Row(ls * LEADING, ops, keep=1))
        # the labels over the boxes on a row of their own, over each run of the first line (and over
        # every line where a figure's run takes more than one): as many lines as the longest label
        # takes, the last just over the boxes
        head_h = (max(map(len, heads), default=1) - 1) * hs * 1.05 + hs * 0.75 + 0.25
        tops = self.run_heads(_labelled(xs, range(first), 0, widths, heads, g), head_h, hs)
        if tops:
            out.append(Row(head_h, tuple(tops), keep=1))
        n_done = 0
        # a track that goes on to the next card takes its label with it (and its boxes' labels)
        again = Row(ls * LEADING, (("T", 0.0, ls * 0.95, bold, ls, INK, label),), bottom=True)
        if tops:
            again = Row(ls * LEADING + head_h, again.ops + tuple(
                (op[0], op[1], op[2] + ls * LEADING) + op[3:] for op in tops), bottom=True)
        for i in range(lines):
            ops: list[tuple] = []
            if i == 0 and not above and (beside or under or not note) and not edge:
                ops.append(("T", 0.0, (row_h + ls * 0.7) / 2, bold, ls, INK, label))
            if i == 1 and per_run and not above and (beside or under or not note) and not edge:
                ops.append(("T", 0.0, (row_h + ls * 0.7) / 2 - 0.5, self.f.cond, ls, GREY, per_run))
            n = min(tr.boxes - n_done, per_line)
            xs, tags = _lefts(n, n_done, x0, g, tr.mark, step, runs_gap, tag_w, widths)
            if i and heads and per_line < g:  # (a run on more than one line: its labels over each)
                again_heads = self.run_heads(_labelled(xs, range(n), n_done, widths, heads, g), head_h, hs)
                out.append(Row(head_h, tuple(again_heads), keep=1))
            for k, bx in enumerate(xs):
                if tag_w and k % g == 0:  # the figure's number on a badge of the unit's colour
                    tag = str((n_done + k) // g + 1)
                    tw = self.m.width(tag, bold, ls)
                    ops.append(("F", tags[k // g], 1.2, tw + ls * 0.24, box, COLORS[color], box * 0.2))
                    ops.append(("T", tags[k // g] + ls * 0.12, (row_h + ls * 0.7) / 2, bold, ls, white, tag))
                number = str(k % g + 1 if restart else n_done + k + 1)
                face, w = self.f.regular, widths[k % g]
                ops.append(("B", bx, 1.2, w, box, COLORS[color], 0.7))
                if tr.mark and n_done + k + 1 == tr.mark:  # half strength: a bar after this box
                    bar_x = bx + w + group_gap / 2
                    ops.append(("L", bar_x, 0.0, bar_x, box + 2.4, RED, 1.4))
                if k % g >= len(names):
                    ops.append(("T", bx + (w - self.m.width(number, face, t.tiny)) / 2,
                                1.2 + (box + t.tiny * 0.7) / 2, face, t.tiny, GREY, number))
                bx += w
            if beside:
                ops.append(("T", bx + 4, (row_h + ls * 0.7) / 2, self.f.cond, ls, INK, note))
            n_done += n
            # (a tracker's own lines a little closer than two trackers: each reads as one block;
            # numbered runs stay together, a figure's or element's row never apart from the others)
            out.append(Row(row_h - (0.5 if i < lines - 1 else 0.0), tuple(ops),
                           keep=1 if i < lines - 1 and (i == 0 or tr.runs) else 0, header=again if i else None))
            out[-1].apart = i == lines - 1
        if under:  # (the note under the boxes, kept with them)
            out[-1].keep, out[-1].apart = 1, False
            out.append(Row(ls * LEADING, (("T", x0, ls * 0.95, self.f.cond, ls, INK, note),)))
            out[-1].apart = True
        return out

    def run_heads(self, boxes: list[tuple[float, float, list[str]]], base: float, size: float) -> list[tuple]:
        """Labels over their boxes ((left, width, the label's lines) each), each centred on its box
        and kept within the card, the last line of each on the baseline ``base``."""
        ops = []
        for bx, w, text_lines in boxes:
            for up, text in enumerate(reversed(text_lines)):
                tw = self.m.width(text, self.f.cond, size)
                ops.append(("T", min(max(0.0, bx + (w - tw) / 2), self.inner_w - tw), base - up * size * 1.05,
                            self.f.cond, size, INK, text))
        return ops

    def head_lines(self, text: str, size: float, room: float) -> list[str]:
        """A box's label over it: one line where it is at most ``room`` wide in the condensed face,
        else two, broken at the space that leaves the wider line narrowest ("2D" over "12")."""
        width = self.m.width
        cond = self.f.cond
        cuts = [i for i, ch in enumerate(text) if ch == " "]
        if width(text, cond, size) <= room or not cuts:
            return [text]
        i = min(cuts, key=lambda i: max(width(text[:i], cond, size), width(text[i + 1:], cond, size)))
        return [text[:i].rstrip(), text[i + 1:].lstrip()]

    def label_column(self, tracks: tuple[Track, ...]) -> float:
        """The width of the column the trackers' labels take beside their boxes (and what numbered
        runs count, "per element", under a label), 0 when the widest is too long for one (the labels
        go above their boxes)."""
        bold, ls = self.f.bold, self.t.small
        widest = max([self.m.width(self.clean(tr.label, bold), bold, ls) for tr in tracks if tr.kind == "boxes"]
                     + [self.m.width(f"per {tr.caption.lower()}", self.f.cond, ls) for tr in tracks
                        if tr.kind == "boxes" and tr.runs and tr.caption] or [0.0]) + 5
        return 0.0 if widest > self.inner_w * 0.42 else widest

    def box_width(self, tr: Track, restart: bool) -> float:
        """A box to tick as wide as the largest number it carries, a point clear each side: each
        run's numbers from 1 where ``restart`` (1-4 in each of five figures' runs, not 20)."""
        digits = len(str(min(max(1, tr.group), tr.boxes) if restart else tr.boxes))
        return max(self.t.box, self.m.width("8" * digits, self.f.regular, self.t.tiny) + 2.0)

    def tag_width(self, tr: Track) -> float:
        """The room a run's figure number takes before its boxes (its badge and the gap after it),
        0 where a tracker's boxes are one run or a box each."""
        g = max(1, tr.group)
        return self.tag_room(str(-(-tr.boxes // g))) if 1 < g < tr.boxes else 0.0

    def tag_room(self, number: str) -> float:
        """The room a figure's ``number`` takes before its run: its badge and the gap after it."""
        return self.m.width(number, self.f.bold, self.t.small) + self.t.small * 0.35

    def runs_gap(self, bw: float, tag_w: float) -> float:
        """The room between two runs of a tracker's boxes ``bw`` wide, the second's number badge
        ``tag_w`` in it (0: none): most of a box clear of the run before it, so that the number
        reads as the next run's."""
        return max(self.t.box * 0.7, bw * 0.8 + tag_w) if tag_w else self.t.box * 0.7

    def run_lines(self, tr: Track, avail: float) -> int:
        """The lines a tracker's numbered runs take ``avail`` wide (as tracks() sets them)."""
        t = self.t
        box, g = t.box, max(1, tr.group)
        bw = self.box_width(tr, g > 1)  # (each run numbered from 1, as tracks() sets them)
        tag_w = self.tag_width(tr)
        runs_gap = self.runs_gap(bw, tag_w)
        return -(-tr.boxes // _per_line(avail - tag_w, [bw] * g, box * 0.25, runs_gap, g, False))

    def runs_over(self) -> bool:
        """Whether the export's numbered runs go under their label rather than beside it: so on every
        card where on one card the label's column would cost them a line (For the Masses' 13
        elements two to a line under "Wounds" rather than one beside it); the cards of an export
        then set their rows alike."""
        hit = self._runs_over.get(self.t)
        if hit is None:
            hit = False
            for c in self.contents:
                label_w = self.label_column(c.tracks) if c.kind == "unit" else 0.0
                if any(tr.runs and tr.kind == "boxes" and tr.boxes <= MAX_BOXES
                       and self.run_lines(tr, self.inner_w - label_w) > 1 + self.run_lines(tr, self.inner_w)
                       for tr in c.tracks if label_w):
                    hit = True
                    break
            self._runs_over[self.t] = hit
        return hit

    def check_line(self, labels: list[str], color: int, box: float) -> list[Row]:
        """Single check boxes side by side, each followed by its label, on as few lines as they take
        at the card size's largest body (its plain boxes): every export at a size, whatever its body,
        breaks them alike ("Wounded  Panicked" over "Spear lost" on a poker card's figure), as many on
        each line. On a large card boxes grown too wide for that shrink, to the body's plain boxes at
        least; else (grow() stops short of it) or where even those do not fit, a line more."""
        box, per, gap = self.check_fit(labels, box)
        ls = self.t.small
        bold = self.f.bold
        rows: list[Row] = []
        row_h = box + 2.5
        for k in range(0, len(labels), per):
            ops: list[tuple] = []
            x = 0.0
            for label in labels[k:k + per]:
                ops.append(("B", x, 1.2, box, box, COLORS[color], 0.7))
                ops.append(("T", x + box + 3, (row_h + ls * 0.7) / 2, bold, ls, INK, label))
                x += box + 3 + self.m.width(label, bold, ls) + box * gap
            rows.append(Row(row_h, tuple(ops)))
            rows[-1].apart = True
        return rows

    def check_fit(self, labels: list[str], box: float) -> tuple[float, int, float]:
        """The side of check_line's boxes (``box`` or less), how many go to a line and how far apart
        (a share of the side)."""
        ls = self.t.small
        bold = self.f.bold
        top = Type(self.sizes[0], self.size.title, self.size.stat)
        W = self.inner_w + 0.01

        def width(bx: float, size: float, per: int, gap: float) -> float:
            """The widest line with ``per`` checks to a line, boxes ``bx`` wide, ``gap`` boxes apart."""
            return max(sum(bx + 3 + self.m.width(lab, bold, size) for lab in labels[k:k + per])
                       + (len(labels[k:k + per]) - 1) * bx * gap for k in range(0, len(labels), per))

        def per_line(bx: float, size: float) -> tuple[int, float]:
            """As many to a line as fit, as many on each line; closer together rather than a line more."""
            for n in range(1, len(labels) + 1):
                per = -(-len(labels) // n)  # n lines, as many on each
                for gap in (0.9, 0.5):
                    if per == 1 or width(bx, size, per, gap) <= W:
                        return per, gap
            return 1, 0.9

        per, gap = per_line(top.box, top.small)
        # (on a large card not below a box a finger ticks, where the boxes have grown to it)
        plain = min(box, max(replace(self.t, box_size=0.0).box, BOX_LARGE)) if self.roomy else box
        while box > plain and width(box, ls, per, gap) > W:
            box = max(plain, round(box - STEP, 2))
        if width(box, ls, per, gap) > W:
            per, gap = per_line(box, ls)
        return box, per, gap

    def noted_checks(self, checks: list[tuple[str, str]], color: int, box: float) -> list[Row]:
        """Single boxes, each with its label and its effect after it (condensed) in the lines
        beside the box: one block a box, one under the other, the boxes lined up at the left."""
        ls = self.t.small
        x = box + 3
        rows: list[Row] = []
        for label, note in checks:
            lines = self.para(((label + "  ", self.f.bold, INK), (note, self.f.cond, INK)), ls,
                              self.inner_w - x, x=x)
            text_h = sum(r.height for r in lines)
            h = max(box + 2.5, text_h + 1.2)
            top = 1.2 + max(0.0, (box - text_h) / 2)  # (lines fewer than the box is tall: centred on it)
            ops: list[tuple] = [("B", 0.0, 1.2, box, box, COLORS[color], 0.7)]
            for r in lines:
                ops += [(op[0], op[1], op[2] + top) + op[3:] for op in r.ops]
                top += r.height
            rows.append(Row(h, tuple(ops)))
            rows[-1].apart = True
        return rows

    def choice_line(self, label: str, items: list[str], color: int, box: float) -> list[Row]:
        """One choice among named items, read as one: "Formation: [] Regiment [] Skirmish", the
        items after the label on its line (more lines, under the first item, only where they do
        not fit)."""
        ls = self.t.small
        box, bold, regular, lead, apart = self.choice_fit(label, items, box)
        row_h = box + 2.5
        head = label + ":"
        indent = self.m.width(head, bold, ls) + box * lead
        rows: list[Row] = []
        ops: list[tuple] = [("T", 0.0, (row_h + ls * 0.7) / 2, bold, ls, INK, head)]
        x = indent
        for item in items:
            w = box + 3 + self.m.width(item, regular, ls)
            if x > indent and x + w > self.inner_w + 0.01:
                rows.append(Row(row_h, tuple(ops), keep=1))
                ops, x = [], indent
            ops.append(("B", x, (row_h - box) / 2, box, box, COLORS[color], 0.7))
            ops.append(("T", x + box + 3, (row_h + ls * 0.7) / 2, regular, ls, INK, item))
            x += w + box * apart
        rows.append(Row(row_h, tuple(ops)))
        rows[-1].apart = True
        return rows

    def choice_fit(self, label: str, items: list[str], box: float) -> tuple[float, str, str, float, float]:
        """The side of choice_line's boxes (``box`` or less), the faces of its label and items, and
        the gaps after the label and between items (shares of the side). Where the body's own boxes
        leave no room for the choice on one line, the boxes shrink (to the body's size at least) as
        far as keeps it there; grown boxes that do not fit wrap, so grow() stops before them. Where
        the regular faces leave no room for the boxes given, the condensed ones, a little closer
        together, do as far as they go: the choice's boxes then stay as large as the card's other
        boxes to tick (see tracks())."""
        ls = self.t.small
        head = label + ":"

        def fit(bold: str, regular: str, lead: float, apart: float) -> float:
            fixed = self.m.width(head, bold, ls) + sum(3 + self.m.width(item, regular, ls) for item in items)
            return (self.inner_w - fixed - 0.01) / (lead + len(items) + apart * (len(items) - 1)) if items else box

        way = (self.f.bold, self.f.regular, 0.6, 0.7)
        narrow = (self.f.cond_bold, self.f.cond, 0.3, 0.4)
        condensed = fit(*way) < box and fit(*narrow) > fit(*way)
        if condensed:
            way = narrow
        room = fit(*way)
        if room < replace(self.t, box_size=0.0).box or condensed and room < box:
            # (on a large card as small as the label's letters: the choice stays beside its label)
            box = max(min(box, room), min(box, ls if self.roomy else self.t.body))
        return (box, *way)

    def marked(self, tr: Track, label: str, color: int, box: float) -> list[Row]:
        """A die track (a box per die size, each named), a list of checks with their effects,
        or a counter (a space to write a number in)."""
        ls = self.t.small
        s = self.t.body
        W = self.inner_w
        bold = self.f.bold
        row_h = box + 2.5
        out: list[Row] = []
        if tr.kind == "die":
            # the figure's own die first, never ticked, then a box for each smaller die and the ruleset's
            # last box after them ("d6 › [d4] › [removed]": the whole track, from a d6 hero's too)
            marks = tr.marks + ((tr.after,) if tr.after else ())
            if not marks:  # no smaller die: the note says what a hit does
                runs: tuple[Run, ...] = ((label, bold, INK),)
                if tr.note:
                    runs += ((": " + self.clean(tr.note), self.f.regular, INK),)
                return self.para(runs, ls, W, together=8)
            def track(lw: float, face: str, wrap: bool = False) -> tuple[list[tuple], float, float]:
                """The dice and their boxes from ``lw`` on in ``face``, where they end and their height
                (``wrap``: a box that would pass the card's edge starts a line of its own)."""
                ops: list[tuple] = []
                x, y = lw, 0.0
                mid = 1.2 + (box + s * 0.7) / 2
                if tr.start:
                    own = self.clean(tr.start)
                    ops.append(("T", x, mid, face, s, INK, own))
                    x += self.m.width(own, face, s)
                    ops.append(("T", x + 2, mid, face, s, GREY, "›"))
                    x += self.m.width("›", face, s) + 4
                # the dice in the body's type, the arrows between them as large (a player reads them at arm's length)
                for k, step in enumerate(marks):
                    text = self.clean(step)
                    tw = self.m.width(text, face, s)
                    bw = max(box, tw + 4)  # (a box as easy to tick as the others)
                    if wrap and x > 0 and x + bw > W + 0.01:
                        x, y = 0.0, y + row_h
                    ops.append(("B", x, y + 1.2, bw, box, COLORS[color], 0.7))
                    ops.append(("T", x + (bw - tw) / 2, y + mid, face, s, INK, text))
                    x += bw
                    if k < len(marks) - 1:
                        ops.append(("T", x + 2, y + mid, face, s, GREY, "›"))
                        x += self.m.width("›", face, s) + 4
                return ops, x, y + row_h

            # beside its label where the track fits the line ("3d12 › [3d10] › ... › [removed]" may
            # not), else under it, condensed if need be, else on as many lines as it takes
            lw = self.m.width(label, bold, ls) + 5
            ops, x, track_h = track(lw, self.f.regular)
            if x > W + 0.01:
                out.append(Row(ls * LEADING, (("T", 0.0, ls * 0.95, bold, ls, INK, label),), keep=1))
                ops, x, track_h = track(0.0, self.f.regular)
                if x > W + 0.01:
                    ops, x, track_h = track(0.0, self.f.cond)
                if x > W + 0.01:
                    ops, x, track_h = track(0.0, self.f.regular, wrap=True)
            else:
                ops.insert(0, ("T", 0.0, (row_h + ls * 0.7) / 2, bold, ls, INK, label))
            wrapped, row_h = track_h > row_h + 0.01, track_h
            below = self.para(((self.clean(tr.note), self.f.regular, INK),), ls, W, together=8) if tr.note else []
            # the note beside the dice where that takes less height than a line of its own under them
            nx = x + ls
            side = self.para(((self.clean(tr.note), self.f.cond, INK),), ls, W - nx, x=nx) \
                if tr.note and W - nx > W * 0.3 and not wrapped else []
            side_h = sum(r.height for r in side)
            if side and max(row_h, side_h) < row_h + sum(r.height for r in below):
                h = max(row_h, side_h)
                shift = (h - row_h) / 2  # the dice centred on the note's lines
                ops = [(op[0], op[1], op[2] + shift) + op[3:] for op in ops]
                top = (h - side_h) / 2
                for r in side:
                    ops += [(op[0], op[1], op[2] + top) + op[3:] for op in r.ops]
                    top += r.height
                out.append(Row(h, tuple(ops)))
                return out
            out.append(Row(row_h, tuple(ops), keep=1 if tr.note else 0))
            out += below
            return out
        if tr.kind == "counter":
            ops = [("T", 0.0, (row_h + ls * 0.7) / 2, bold, ls, INK, label)]
            x = self.m.width(label, bold, ls) + 5
            ops.append(("B", x, 1.2, box * 2.5, box, COLORS[color], 0.7))
            out.append(Row(row_h, tuple(ops), keep=1 if tr.note else 0))
            if tr.note:
                out += self.para(((self.clean(tr.note), self.f.regular, INK),), ls, W, together=8)
            return out
        # checks: a heading (its note beside it when it fits), then each item's box with its name
        # and effect (the effect in the condensed face), all on one card; in two columns when
        # that takes fewer lines
        head = self.heading(tr.label, color, self.clean(tr.note) if tr.note else "")
        out.append(head)
        if tr.note and not head.noted:  # (grey, as beside its heading: a caption, not an effect)
            out += self.para(((self.clean(tr.note), self.f.regular, GREY),), ls, W, together=8)
        items = tr.marks or (tr.label,)
        notes = tr.notes or ("",) * len(items)
        col_gap = s
        one = [self.check_item(item, note, color, W) for item, note in zip(items, notes)]
        two = [self.check_item(item, note, color, (W - col_gap) / 2) for item, note in zip(items, notes)]
        counts = [len(x) for x in two]
        # two columns read down one then the other: split where the taller column is shortest
        split = min(range(1, len(two)), key=lambda k: (max(sum(counts[:k]), sum(counts[k:])), -k), default=0)
        lines = max(sum(counts[:split]), sum(counts[split:])) if split else 0
        if len(items) > 3 and lines < sum(len(x) for x in one):
            lead = s * LEADING
            ops: list[tuple] = []
            for col, items_rows in ((0, two[:split]), (1, two[split:])):
                dx = col * (W + col_gap) / 2
                k = 0
                for item_rows in items_rows:
                    for r in item_rows:
                        ops += [(op[0], op[1] + dx, op[2] + k * lead) + op[3:] for op in r.ops]
                        k += 1
            # one row: the columns stay together and a reader takes the left one first
            out.append(Row(lines * lead, tuple(ops)))
        else:
            for lines_ in one:
                out += lines_
        for r in out[:-1]:
            r.keep = max(r.keep, 1)
        return out

    def check_item(self, item: str, note: str, color: int, width: float) -> list[Row]:
        """A check box with an item's name and its effect, in the condensed faces, wrapped in ``width``."""
        s = self.t.body
        bold = self.f.cond_bold
        indent = s * 0.85 + 3
        runs: list[Run] = [(self.clean(item, bold), bold, INK)]
        if note:
            runs.append((": " + self.clean(note, self.f.cond), self.f.cond, INK))
        lines = self.para(tuple(runs), s, width - indent, x=indent, together=8)
        first = lines[0]
        side = s * 0.85  # a box as tall as the line's capitals, on its first line
        lines[0] = Row(first.height, (("B", 0.0, s * 0.9 - side, side, side, COLORS[color], 0.7),) + first.ops,
                       first.keep)
        return lines


def _per_line(avail: float, widths: list[float], gap: float, group_gap: float, g: int, each: bool) -> int:
    """How many boxes go on a line ``avail`` wide, runs of ``g`` a group's gap apart, the boxes of a
    run as wide as ``widths`` in turn: a figure's boxes on one line (``each``: at most EACH_MAX,
    whole figures)."""
    per_line, x = 0, 0.0
    while True:
        bw = widths[per_line % len(widths)]
        nxt = x + bw + (group_gap if per_line and per_line % g == 0 else gap if per_line else 0)
        if nxt > avail + 0.01:
            break
        x = nxt
        per_line += 1
    if g <= per_line:
        per_line -= per_line % g  # a figure's boxes stay on one line
        if each:
            per_line = min(per_line, max(g, EACH_MAX - EACH_MAX % g))
    return max(per_line, 1)


def _lefts(n: int, n_done: int, x0: float, g: int, mark: int, step: float, runs_gap: float, tag_w: float,
           widths: list[float]) -> tuple[list[float], list[float]]:
    """Where a line of ``n`` boxes of a tracker (after its first ``n_done``) sets each box and each
    run's number: from ``x0``, runs of ``g`` boxes ``widths`` wide ``step`` apart, ``runs_gap``
    between two runs and at the half-strength bar after box ``mark``, a run's number ``tag_w`` wide
    before it (none where 0)."""
    boxes, tags, bx = [], [], x0
    for k in range(n):
        if k:
            bx += runs_gap if k % g == 0 or n_done + k == mark else step
        if tag_w and k % g == 0:
            if k:
                bx -= tag_w
            tags.append(bx)
            bx += tag_w
        boxes.append(bx)
        bx += widths[k % g]
    return boxes, tags


def _labelled(xs: list[float], ks: range, n_done: int, widths: list[float], heads: list[list[str]],
              g: int) -> list[tuple[float, float, list[str]]]:
    """The boxes ``ks`` of a line of boxes at ``xs`` (after the tracker's first ``n_done``, runs of
    ``g`` boxes ``widths`` wide) that have labels (``heads``, the lines of each): for run_heads()."""
    return [(xs[k], widths[(n_done + k) % g], heads[(n_done + k) % g]) for k in ks if (n_done + k) % g < len(heads)]


def single_box(tr: Track) -> bool:
    """Whether a tracker is one plain box to tick (a figure's Wounded, Panicked), its note or none."""
    return tr.kind == "check" and not tr.marks or tr.kind == "boxes" and tr.boxes == 1 and not tr.heading \
        and not tr.mark and not tr.runs


def without_box_notes(content: CardContent) -> CardContent:
    """The card with its single boxes' effects left off (the boxes and their labels stay)."""
    tracks = tuple(replace(tr, note="") if tr.note and single_box(tr) else tr for tr in content.tracks)
    return replace(content, tracks=tracks) if tracks != content.tracks else content


def _single(tr: Track) -> bool:
    """Whether a tracker is a single check box without a note, set on the card's line of such boxes."""
    return single_box(tr) and not tr.note
