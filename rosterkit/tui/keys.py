"""Every key of the screen in front of the player, for the help screen and the command palette.

Bindings are read from the app, the screen and the rosterkit widgets on it, so the help
and the palette can never disagree with what the keys do.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from textual.app import App
from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode
from textual.screen import Screen

GROUPS = {
    "RosterkitApp": "Everywhere",
    "UnitsList": "Units list",
    "ItemOptions": "Weapons, abilities and equipment lists",
}

TEXT_KEYS = [
    ("home / ctrl+a, end / ctrl+e", "Start or end of the field"),
    ("ctrl+u / ctrl+k", "Delete to the start / to the end"),
    ("ctrl+w", "Delete the word to the left"),
    ("enter", "Next field"),
    ("tab / shift+tab", "Next / previous field or panel"),
    ("up / down, page up / page down", "Move in lists"),
    ("enter or click", "Choose in a list"),
]


@dataclass
class KeyInfo:
    group: str
    keys: list[str]
    description: str
    help: str
    node: DOMNode
    action: str
    order: int = 0
    targets: set = field(default_factory=set)
    key_id: str | None = None  # what a keymap file names it by


def _group(node: DOMNode) -> str:
    name = type(node).__name__
    if name in GROUPS:
        return GROUPS[name]
    title = name.removesuffix("Screen")
    words = "".join(" " + c.lower() if c.isupper() else c for c in title).strip()
    return words[:1].upper() + words[1:] if words else name


def _own_bindings(node: DOMNode) -> list[tuple[str, Binding]]:
    """The bindings rosterkit's own classes declare (not Textual's built-in ones)."""
    out: list[tuple[str, Binding]] = []
    for cls in reversed(type(node).__mro__):
        if cls.__module__.startswith("rosterkit.") and "BINDINGS" in vars(cls):
            out.extend(BindingsMap(vars(cls)["BINDINGS"]))
    return out


def _target(node: DOMNode, action: str, app: App, screen: Screen) -> tuple[int, str]:
    if action.startswith("screen."):
        return id(screen), action[7:]
    if action.startswith("app."):
        return id(app), action[4:]
    return id(node), action


def collect(app: App, screen: Screen) -> list[KeyInfo]:
    nodes: list[DOMNode] = [screen]
    seen_classes: set[type] = {type(screen)}
    for widget in screen.walk_children(with_self=False):
        if type(widget) not in seen_classes and type(widget).__module__.startswith("rosterkit.") and \
                _own_bindings(widget):
            seen_classes.add(type(widget))
            nodes.append(widget)
    nodes.append(app)
    infos: dict[tuple, KeyInfo] = {}
    order = 0
    for node in nodes:
        for key, binding in _own_bindings(node):
            if binding.system or not binding.description:
                continue
            target = _target(node, binding.action, app, screen)
            remapped = getattr(app, "player_keys", {}).get(binding.id or "")
            if remapped is None:
                displays = [app.get_key_display(binding)]
            else:  # (the player's keymap file gives this key's keys)
                displays = [app.get_key_display(replace(binding, key=k.strip(), key_display=None))
                            for k in remapped.split(",")]
            key_id = (id(node), binding.action)
            info = infos.get(key_id)
            if info is None:
                order += 1
                info = KeyInfo(_group(node), [], binding.description, binding.tooltip or "", node, binding.action,
                               order, {target}, binding.id)
                infos[key_id] = info
            for display in displays:
                if display not in info.keys:
                    info.keys.append(display)
    return sorted(infos.values(), key=lambda i: i.order)


def palette_entries(app: App, screen: Screen) -> list[KeyInfo]:
    """One entry per distinct action (the same action on two keys is one command)."""
    out: dict[tuple, KeyInfo] = {}
    for info in collect(app, screen):
        target = next(iter(info.targets))
        if target in out:
            for k in info.keys:
                if k not in out[target].keys:
                    out[target].keys.append(k)
            continue
        out[target] = KeyInfo(info.group, list(info.keys), info.description, info.help, info.node, info.action,
                              info.order, set(info.targets), info.key_id)
    return list(out.values())
