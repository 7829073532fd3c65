"""Undo and redo for the screens that edit a roster session."""

from __future__ import annotations

from ...editing.document import Change


class HistoryActions:
    """ctrl+z / ctrl+y on a screen with a ``session``; the screen says what to show after a step."""

    def _before_undo(self) -> None:
        """Finish an edit still being typed, so that it is undone too."""

    def action_undo(self) -> None:
        self._before_undo()
        self._step(self.session.undo(), "Nothing to undo")  # type: ignore[attr-defined]

    def action_redo(self) -> None:
        self._step(self.session.redo(), "Nothing to redo")  # type: ignore[attr-defined]

    def _step(self, change: Change | None, nothing: str) -> None:
        if change is None:
            self.notify(nothing, timeout=2)  # type: ignore[attr-defined]
            return
        self._after_history(change)

    def _after_history(self, change: Change) -> None:
        raise NotImplementedError
