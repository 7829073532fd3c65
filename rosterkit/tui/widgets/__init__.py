"""Widgets of the terminal interface, one per file."""
