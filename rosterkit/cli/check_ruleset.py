"""`rosterkit check-ruleset`: a ruleset file checked, and the published costs that disagree
with its formulas listed."""

from __future__ import annotations

import sys

from ..visible import visible
from .output import EXIT_ERRORS, EXIT_OK, Out, print_json, print_problems


def handle(args, registry) -> int:
    from ..engine.checks import discrepancies
    from ..engine.designer import designer_report, report_json, report_text
    from ..errors import RosterkitError, UnreadableError
    from ..files.rulesets import load_ruleset_file
    from ..rules.numbers import fmt, to_json

    out = Out()
    code = EXIT_OK
    for file in args.files:
        try:
            rs = load_ruleset_file(file)
        except RosterkitError as exc:
            if isinstance(exc, UnreadableError):
                raise
            print_problems(exc)
            out.line((f"{file}: ", "bold"), (f"{len(exc.problems)} error(s)", "bold red"))
            code = EXIT_ERRORS
            continue
        found, errors = discrepancies(rs)
        designed = designer_report(rs) if args.report else None
        if args.json:
            print_json({"file": file, "id": rs.id, "ok": not errors, "errors": errors,
                        "discrepancies": [{"what": d.what, "name": d.name, "published": to_json(d.published),
                                           "computed": to_json(d.computed), "how": d.how, "note": d.note,
                                           "charged": d.charged}
                                          for d in found],
                        **({"report": report_json(rs, designed)} if designed else {})})
        elif designed:
            for e in errors:
                out.line(("error: ", "bold red"), e)
            sys.stdout.write("".join(visible(line) + "\n" for line in report_text(rs, designed).splitlines()))
        else:
            for e in errors:
                out.line(("error: ", "bold red"), e)
            items = sum(len(getattr(rs.data, k)) for k in ("weapons", "abilities", "equipment"))
            out.line((f"{file}: {rs.id} ({rs.name}) ", "bold"),
                     ("has errors" if errors else "ok", "bold red" if errors else "bold green"),
                     f"; {len(rs.data.stats)} stats, {len(rs.data.types)} types, {items} catalogue items, "
                     f"{len(rs.data.figures)} figures, {len(rs.limits)} limits")
            if found:
                out.table("Published numbers that disagree",
                          ["entry", "printed", "other", "from", "charged", "note"],
                          [[f"{d.what}: {d.name}", fmt(d.published),
                            fmt(d.computed) if d.computed is not None else "-", d.how, d.charged,
                            d.note or "not acknowledged in the data"] for d in found],
                          right={1, 2}, fold={5})
        if errors or (args.strict and found):
            code = EXIT_ERRORS
    return code
