"""Unit record cards as PDF (reportlab), for the command line and the terminal interface.

- ``pdf``: the entry point, ``export_cards(report, validation, out_path, options, progress)``;
- ``content``: what goes on each card, from the costed roster (no drawing);
- ``layout``: fitting a card's text into its frame: shrink, then continue on another card;
- ``draw`` and ``pdfops``: the card's chrome and text written onto the page;
- ``summary``: the summary and glossary pages; ``sizes``: card and paper sizes;
- ``fonts``: the embedded DejaVu Sans and the check for characters it lacks;
- ``command``: ``rosterkit cards``.
"""
