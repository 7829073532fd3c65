"""Validation: the ruleset's limits and the built-in checks, as findings in a player's words."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import FormulaError
from ..findings import Finding
from ..rules.formula import Function
from ..rules.numbers import Number
from ..rules.ruleset import CompiledLimit, Ruleset
from ..rules.stats import coerce, default_value, formula_values
from ..words import count_of
from .budget import known_names, unknown_keys
from .costing import CostReport, UnitCost, cost_roster
from .functions import FigureLimitFunctions, RosterFunctions, UnitLimitFunctions
from .roster import RosterFile


@dataclass(slots=True)
class LimitState:
    """One composition limit's value, for bars: heroes 23% of a 25% cap."""

    id: str
    label: str
    severity: str
    ok: bool
    value: Number | None
    at_most: Number | None
    at_least: Number | None
    show_as: str
    message: str | None


def roster_env(report: CostReport) -> tuple[dict[str, object], dict[str, Function]]:
    """The names and the functions of army-wide limits, for one costed roster."""
    rs, roster = report.ruleset, report.roster
    env: dict[str, object] = {
        "total": report.total,
        "limit": report.limit if report.limit is not None else report.total,
        "unit_count": len(report.units),
    }
    for sid, sdef in rs.roster_stats.items():
        raw = roster.stats.get(sid)
        value = default_value(sdef) if raw is None else coerce(sdef, raw)[0]
        env.update(formula_values(sdef, value))
    return env, RosterFunctions(report).table()


def _limit_result(lim: CompiledLimit, env, funcs, context: str
                  ) -> tuple[bool, Number | None, str | None, str | None]:
    """(passes, measured value, message when it does not, the message's short form for the cards)."""
    spec = lim.spec
    value = card = None
    try:
        if lim.measure is not None:
            value = lim.measure.evaluate_number(env, funcs, context)
            ok = bool(lim.check.evaluate({"value": value, "at_most": lim.at_most, "at_least": lim.at_least},
                                         None, context))
        else:
            ok = bool(lim.check.evaluate(env, funcs, context))
        message = None
        if not ok:
            menv = dict(env, value=value if value is not None else 0, bound=lim.bound)
            message = lim.message.render(menv, funcs, context) or spec.label
            if lim.card is not None:
                card = lim.card.render(menv, funcs, context) or None
    except FormulaError as exc:
        ok, message = False, f"{_CANNOT_CHECK}'{spec.label}': {exc.problems[0].message}"
    return ok, value, message, card


_CANNOT_CHECK = "cannot check "


def _all_checked(messages) -> bool:
    """Whether every limit was checked (a formula that failed names the unit in its message: its
    answer is never kept for units or figures alike)."""
    return not any((message or "").startswith(_CANNOT_CHECK) for message in messages)


def _limit_finding(lim: CompiledLimit, env, funcs, context: str) -> tuple[LimitState, Finding | None]:
    """An army-wide limit's state (for the bars) and its finding when broken."""
    spec = lim.spec
    ok, value, message, card = _limit_result(lim, env, funcs, context)
    state = LimitState(spec.id, spec.label, spec.severity, ok, value, lim.at_most, lim.at_least, spec.show_as,
                       message)
    return state, None if ok else Finding(spec.severity, spec.id, message or spec.label, card=card)


def _broken_unit_limits(rs: Ruleset, u: UnitCost) -> list[Finding]:
    """The findings of the unit-scope and figure-scope limits a unit breaks; made once per
    costed unit, so an edit re-checks (and re-makes findings for) the edited unit only."""
    if u.broken_limits is None:
        broken = u.alike.get("unit limits")  # (units costed alike break the same ones)
        if broken is None:
            broken = _unit_limits_of(rs, u)
            if _all_checked(message for _, message, _ in broken):
                u.alike["unit limits"] = broken
        out = [Finding(spec.severity, spec.id, message or spec.label, u.index, u.name, "count", card=card)
               for spec, message, card in broken]
        if rs.figure_limits:
            out.extend(_broken_figure_limits(rs, u))
        u.broken_limits = out
    return u.broken_limits


def _unit_limits_of(rs: Ruleset, u: UnitCost) -> list[tuple]:
    """(limit spec, message, card's short form) for each unit-scope limit the unit breaks."""
    broken = []
    ufuncs = None
    context = f"unit '{u.name}'"
    for lim, types in rs.unit_limits:
        if types is not None and u.type_id not in types:
            continue
        if ufuncs is None:
            ufuncs = UnitLimitFunctions(rs, u.members).table()
        ok, _, message, card = _limit_result(lim, u.env, ufuncs, context)
        if not ok:
            broken.append((lim.spec, message, card))
    return broken


def _broken_figure_limits(rs: Ruleset, u: UnitCost) -> list[Finding]:
    """The figure-scope limits each kind of figure in the unit breaks (named in a mixed unit).

    What a figure breaks depends only on its values, count and items: figures alike (a
    roster's repeated troops, a tournament's common figures) are checked once per costing
    context, which keeps the answers (``u.figure_limits_seen``), and units costed alike share
    theirs (``u.alike``)."""
    broken = u.alike.get("figure limits")
    if broken is None:
        broken = [(m, spec, message, card) for m in u.members if m.count >= 1
                  for spec, message, card in _member_breaks(rs, u, m)]
        if _all_checked(message for _, _, message, _ in broken):
            u.alike["figure limits"] = broken
    mixed = len(u.members) > 1
    out = []
    for m, spec, message, card in broken:
        who = f"{m.name or 'figure'}: " if mixed else ""
        out.append(Finding(spec.severity, spec.id, who + (message or spec.label), u.index, u.name,
                           f"members[{m.index}]" if mixed else None, m.index if mixed else None,
                           card=who + card if card else None))
    return out


def _member_breaks(rs: Ruleset, u: UnitCost, m) -> list[tuple]:
    """(limit spec, message, card's short form) for each figure-scope limit a kind of figure in the unit breaks."""
    seen = u.figure_limits_seen
    key = None
    if seen is not None:
        try:
            key = (m.count, m.held, frozenset(m.env.items()),
                   tuple((it.kind, it.name, it.source, it.cost, frozenset(it.stats.items())) for it in m.items))
            broken = seen.get(key)
        except TypeError:  # a value that cannot be a key: checked each time
            key = broken = None
    else:
        broken = None
    if broken is None:
        broken = _figure_limits_of(rs, u, m)
        if key is not None and _all_checked(message for _, message, _ in broken):
            seen[key] = broken
    return broken


def _figure_limits_of(rs: Ruleset, u: UnitCost, m) -> list[tuple]:
    """(limit spec, message, card's short form) for each figure-scope limit the member breaks."""
    env = dict(m.env, count=m.count, figure_cost=m.figure_cost, per_figure=m.per_figure)
    funcs = FigureLimitFunctions(rs, m).table()
    context = f"unit '{u.name}'" + (f", {m.name}" if len(u.members) > 1 and m.name else "")
    broken = []
    for lim, types in rs.figure_limits:
        if types is not None and m.env.get("type") not in types:
            continue
        ok, _, message, card = _limit_result(lim, env, funcs, context)
        if not ok:
            broken.append((lim.spec, message, card))
    return broken


def check_limits(report: CostReport) -> tuple[list[LimitState], list[Finding]]:
    rs = report.ruleset
    env, funcs = roster_env(report)
    states: list[LimitState] = []
    findings: list[Finding] = []
    unit_breaks: dict[str, list[Finding]] = {}
    if any(lim.spec.scope != "roster" for lim in rs.limits):
        for u in report.units:
            for finding in _broken_unit_limits(rs, u):
                unit_breaks.setdefault(finding.rule, []).append(finding)
    for lim in rs.limits:
        if lim.spec.scope == "roster":
            state, finding = _limit_finding(lim, env, funcs, "the army")
            states.append(state)
            if finding:
                findings.append(finding)
            continue
        broken = unit_breaks.get(lim.spec.id, ())
        findings.extend(broken)
        n = len(broken)
        noun = ("unit", "units") if lim.spec.scope == "unit" else ("kind of figure", "kinds of figure")
        states.append(LimitState(lim.spec.id, lim.spec.label, lim.spec.severity, not broken, n, None,
                                 None, "number", f"{count_of(n, *noun)} break{'s' * (n == 1)} this" if broken else None))
    return states, findings


def check_roster_stats(rs: Ruleset, roster: RosterFile) -> list[Finding]:
    out = []
    shown, more = unknown_keys(roster.stats, rs.roster_stats)
    for sid in shown:
        out.append(Finding("error", "unknown-stat", f"unknown army setting '{sid}'", field=f"stats.{sid}",
                           hint=known_names("known", rs.roster_stats) if rs.roster_stats else
                           "this ruleset has no army settings"))
    if more:
        out.append(Finding("error", "unknown-stat", f"and {more:,} more unknown army settings (the first "
                           f"{len(shown)} are listed)", field="stats"))
    for sid, raw in roster.stats.items():
        sdef = rs.roster_stats.get(sid)
        if sdef is None:
            continue
        _, err = coerce(sdef, raw)
        if err:
            out.append(Finding("error", "stat-range", f"{sdef.label}: {err}", field=f"stats.{sid}"))
    for sid, sdef in rs.roster_stats.items():
        if sdef.required and sid not in roster.stats:
            note = f" ({sdef.entry_note})" if sdef.entry_note else ""
            out.append(Finding("error", "missing-stat", f"{sdef.label} must be entered{note}", field=f"stats.{sid}"))
    return out


def check_chart(rs: Ruleset, roster: RosterFile) -> list[Finding]:
    """The players' chart (see RosterChart) against the chart the ruleset declares: a row's
    results one for each of its columns."""
    chart, declared = roster.chart, rs.data.card.chart
    if chart is None:
        return []
    if declared is None:
        return [Finding("error", "chart", "this roster gives a chart; its ruleset plays by none", field="chart",
                        hint="remove the [chart] table")]
    out = []
    n = len(declared.columns)
    for i, row in enumerate(chart.rows):
        if len(row) != n + 1 or not row[0].strip():
            got = f"{len(row)} entries" if len(row) != n + 1 else "no label"
            out.append(Finding("error", "chart", f"{declared.name}, row {i + 1}: {got}; expected the row's label "
                               f"({declared.corner or 'its first entry'}), then {n} results, one for each of "
                               f"{', '.join(declared.columns)}", field=f"chart.rows[{i}]"))
    return out


def chart_rows(rs: Ruleset, roster: RosterFile) -> list[list[str]] | None:
    """The players' chart rows where they fit the chart the ruleset declares, else None."""
    return [list(r) for r in roster.chart.rows] if roster.chart is not None and not check_chart(rs, roster) else None


@dataclass
class Validation:
    report: CostReport
    limits: list[LimitState]
    findings: list[Finding]

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def ok(self) -> bool:
        return not self.errors


_ORDER = {"error": 0, "warning": 1, "info": 2}


def validate_report(report: CostReport) -> Validation:
    states, limit_findings = check_limits(report)
    findings = (list(report.findings) + check_roster_stats(report.ruleset, report.roster)
                + check_chart(report.ruleset, report.roster) + limit_findings)
    if report.ruleset.data.max_units is not None and len(report.units) > report.ruleset.data.max_units:
        findings.append(Finding("error", "too-many-units",
                                f"{len(report.units)} units; this ruleset allows {report.ruleset.data.max_units}"))
    # errors first, then warnings, then notes; army-wide ones before each unit's, units in order
    # (one whole-number key per finding: sorting thousands of them on every edit stays cheap)
    findings.sort(key=lambda f: _ORDER.get(f.severity, 3) * 10_000_000 + (-1 if f.unit is None else f.unit))
    return Validation(report, states, findings)


def validate(rs: Ruleset, roster: RosterFile) -> Validation:
    return validate_report(cost_roster(rs, roster))


def check_matchup(rs: Ruleset, mine: CostReport, theirs: CostReport) -> list[Finding]:
    a, b = mine.total, theirs.total
    env = {"mine": a, "theirs": b, "low": min(a, b), "high": max(a, b)}
    out = []
    for m in rs.matchups:
        context = f"{mine.roster.name} vs {theirs.roster.name}"
        try:
            ok = bool(m.check.evaluate(env, None, context))
            msg = None if ok else m.message.render(env, None, context)
        except FormulaError as exc:
            ok, msg = False, exc.problems[0].message
        if not ok:
            out.append(Finding(m.spec.severity, m.spec.id, f"{context}: {msg}"))
    return out

