"""Counts and articles in sentences of every front-end and of the cards: "1 unit", "2 units",
"1,121 figures", "an ares roster"."""

from __future__ import annotations


def count_of(n: int, one: str, many: str | None = None) -> str:
    """'1 type', '2 types', '0 types', '1,121 figures' (``many`` for irregular plurals: 'ability',
    'abilities')."""
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def article(word: str) -> str:
    """'a' or 'an' for a word, by its first letter as spoken in most cases ('an ares', 'a lego')."""
    return "an" if word[:1].casefold() in "aeiou" and word[:1] else "a"


def with_article(word: str) -> str:
    return f"{article(word)} {word}"
