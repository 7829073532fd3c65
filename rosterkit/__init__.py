"""rosterkit: design figures, build armies and print unit cards for tabletop wargames."""

__version__ = "0.1.0"
