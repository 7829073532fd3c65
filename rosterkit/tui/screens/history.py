"""Undo and redo for the screens that edit a roster document."""

from __future__ import annotations

from textual.screen import Screen

from ...editing.document import Change, Document


class HistoryActions(Screen):
    """ctrl+z / ctrl+y on a screen editing a document; the screen says what to show after a step."""

    session: Document

    def _before_undo(self) -> None:
        """Finish an edit still being typed, so that it is undone too."""

    def action_undo(self) -> None:
        self._before_undo()
        self._step(self.session.undo(), "Nothing to undo")

    def action_redo(self) -> None:
        self._step(self.session.redo(), "Nothing to redo")

    def _step(self, change: Change | None, nothing: str) -> None:
        if change is None:
            self.notify(nothing, timeout=2)
            return
        self._after_history(change)

    def _after_history(self, change: Change) -> None:
        raise NotImplementedError
