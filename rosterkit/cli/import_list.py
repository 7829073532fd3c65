"""`rosterkit import`: a list read back from its text into a roster file."""

from __future__ import annotations

from pathlib import Path

from ..words import count_of
from .output import EXIT_OK, Out


def handle(args, registry) -> int:
    from ..files.listtext import import_list
    from ..rules.numbers import fmt

    done = import_list(args.file, Path(args.output), registry, force=args.force)
    out, roster, report = Out(), done.read.roster, done.report
    out.line(f"Created {done.path}: {roster.name} ({report.ruleset.name}, "
             f"{count_of(len(roster.units), 'unit')}, {fmt(report.total)} {report.ruleset.data.points_label})")
    for note in done.read.notes:
        out.line(f"note: {note}")
    for f in done.unknown:
        out.line(f"kept as written: {f.where()}: {f.message}"
                 + (f" ({f.hint})" if f.hint else ""))
    differs = done.fingerprint_differs
    if differs is not None:
        out.line(f"Fingerprint {done.fingerprint}, not the {done.read.written_fingerprint or ''} the text "
                 f"gives: the list was changed ({', '.join(differs)})")
    else:
        out.line(f"Fingerprint: {done.fingerprint}")
    return EXIT_OK
