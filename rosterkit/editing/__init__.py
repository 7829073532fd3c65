"""Editing rosters without any interface: documents, edits, recovered work, recent rosters."""
