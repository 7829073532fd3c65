"""The Textual terminal interface."""
