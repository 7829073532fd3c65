"""`rosterkit cost`: every point of a roster, term by term."""

from __future__ import annotations

from .opening import notice_version, open_roster, ruleset_note
from .output import EXIT_OK, Out, print_findings, print_json, print_version_change, version_change_json


def cost_json(report) -> dict:
    from ..engine.fingerprint import fingerprint
    from ..rules.numbers import divide, exact_text, to_json
    from ..rules.ruleset import ITEM_SINGULAR

    rs = report.ruleset
    basis = report.limit or report.total
    return {
        "roster": report.roster.name,
        "ruleset": rs.id,
        "ruleset_file": str(rs.path) if rs.path else None,
        "ruleset_version": rs.data.version,
        "fingerprint": fingerprint(report).code,
        "points_label": rs.data.points_label,
        "total": to_json(report.total),
        "total_exact": exact_text(report.total),
        "limit": to_json(report.limit),
        "by_type": {t: {"points": to_json(p), "share": to_json(divide(p, basis)) if basis else 0}
                    for t, p in report.by_type.items()},
        "units": [{
            "index": u.index,
            "name": u.name,
            "type": u.type_id,
            "figures": u.figures,
            "total": to_json(u.total),
            "total_exact": exact_text(u.total),
            "derived": {k: to_json(v) for k, v in u.derived.items()},
            "members": [{
                "name": m.name,
                "count": m.count,
                "terms": [{"label": t.label, "detail": t.detail, "value": to_json(t.value)} for t in m.terms],
                "figure_cost": to_json(m.figure_cost),
                "figure_cost_detail": m.total_detail,
                "printed_price": None if m.printed is None else {
                    "type": m.printed.what, "printed": to_json(m.printed.printed),
                    "formula": to_json(m.printed.formula), "adjustment": to_json(m.printed.adjustment),
                    "figure_cost_by_formula": to_json(m.formula_cost)},
                "items": [{"kind": ITEM_SINGULAR[i.kind], "name": i.name, "cost": to_json(i.cost),
                           "source": i.source, "note": i.note or None,
                           "formula_value": to_json(i.formula_value), "printed": to_json(i.printed)}
                          for i in m.items],
                "per_figure": to_json(m.per_figure),
                "per_figure_exact": exact_text(m.per_figure),
                "total": to_json(m.total),
                "derived": {k: to_json(v) for k, v in m.derived.items()},
            } for m in u.members],
        } for u in report.units],
    }


def handle(args, registry) -> int:
    from ..engine.costing import explain_lines, singular
    from ..engine.fingerprint import fingerprint
    from ..rules.numbers import fmt, fmt_pct

    opened = open_roster(registry, args.roster)
    notice_version(opened)
    report = opened.report
    if args.json:
        doc = cost_json(report)
        if opened.version_change is not None:
            doc["version_change"] = version_change_json(opened.version_change)
        print_json(doc)
        return EXIT_OK
    out = Out()
    rs = report.ruleset
    ruleset_note(out, rs)
    if opened.version_change is not None:
        print_version_change(out, opened)
        print_findings(out, opened.findings)
        out.line("")
    label = rs.data.points_label
    if not args.brief:
        for u in report.units:
            count = f"{u.figures} {rs.data.count_label if u.figures != 1 else singular(rs.data.count_label)}"
            rows = [[what, working] for what, working in explain_lines(u, rs)]
            rows += [[d.label, d.shown(u.derived.get(d.id, 0))] for d, _ in rs.unit_derived]
            out.table(f"#{u.index + 1} {u.name}: {u.type_name}, {count}", None, rows, fold={1})
            out.line("")
    rows = [[str(u.index + 1), u.name, u.type_name, str(u.figures),
             fmt(u.members[0].per_figure) if len(u.members) == 1 else "mixed", fmt(u.total)] for u in report.units]
    limit = f" of {fmt(report.limit)}" if report.limit is not None else ""
    out.table(f"{report.roster.name} ({rs.name})",
              ["#", "Unit", "Type", rs.data.count_label.capitalize(), "Each", label.capitalize()], rows,
              right={0, 3, 4, 5}, total=["", "Total", "", "", "", f"{fmt(report.total)}{limit}"])
    basis = report.limit or report.total
    out.table(f"{label.capitalize()} by type" + (" (share of the limit)" if report.limit else ""),
              ["Type", label.capitalize(), "Share"],
              [[t.name, fmt(report.by_type[t.id]), fmt_pct(report.by_type[t.id], basis) if basis else "-"]
               for t in rs.data.types], right={1, 2})
    out.line(f"Fingerprint {fingerprint(report).code}")
    return EXIT_OK
