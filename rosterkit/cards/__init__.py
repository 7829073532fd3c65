"""Unit record cards as PDF (reportlab), for the command line and the terminal interface.

- ``pdf``: the entry point, ``export_cards(report, validation, out_path, options, progress)``;
- ``content``: what goes on each card, from the costed roster (no drawing), and the army
  and reference cards;
- ``plan``: which cards an export prints, with what on each, at which one body size;
- ``layout``: the card's fixed structure, one body size for the whole export, and cards
  continued when one is not enough; its tables (the stat band, the weapon table, a chart) in
  ``tables``, its tracking boxes in ``boxes``, the type sizes, colours and rows they share in
  ``style``;
- ``draw``: the card, its back and the cut marks on the page (reportlab's public canvas API);
- ``shaping``: right-to-left scripts shaped and put in reading order;
- ``summary``: the summary page; ``sizes``: card and paper sizes, sheets;
- ``fonts``: the embedded DejaVu Sans (and Condensed), a font of the user's own, and the
  check for characters the font lacks;
- ``command``: ``rosterkit cards``.
"""
