"""`rosterkit cards`: options and entry point."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("roster", metavar="ROSTER")
    parser.add_argument("-o", "--output", metavar="PDF", default="cards.pdf")


def run(args, registry) -> int:
    from ..errors import RosterkitError

    raise RosterkitError("card export is not available yet")
