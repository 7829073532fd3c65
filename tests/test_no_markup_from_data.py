"""Text built from data never reaches Rich or Textual where it would be read as markup.

Rich and Textual read a ``str`` as markup in many places: a Rich table's cells, headers and
title; a Static or Label made without ``markup=False``; a widget's ``update``; an option's
prompt; a tooltip; a border title; ``console.print``. A name from a shared file written as
``[@click=app.quit]`` there becomes an action, ``[/]`` a crash, ``[link=...]`` a hyperlink.
The interface and the command line pass such text as a Rich ``Text`` (``rosterkit.visible.plain``)
or a Textual ``Content``, which are never parsed.

This test reads the source of every front-end module and flags each place where a string built
from data (an f-string with a name in it, a concatenation, ``str()``, ``.join``, an attribute
such as ``unit.name``, a function that returns ``str``) is handed to one of those places. Rich
tables have no way to turn markup off, so their cells must be shown to be plain: a literal, a
``Text``/``plain(...)``, a number formatted by ``fmt``, or a name bound only to such.
"""

from __future__ import annotations

import ast
import functools

import pytest
from conftest import ROOT

PACKAGE = ROOT / "rosterkit"
FRONT_ENDS = sorted([*(PACKAGE / "tui").rglob("*.py"), *(PACKAGE / "cli").rglob("*.py"), PACKAGE / "cards" / "command.py"])

SAFE, UNKNOWN, DATA = 0, 1, 2  # what an expression is known to be, from safest to worst

# calls whose result is never read as markup, whatever they are given
PLAIN_MAKERS = {"Text", "Text.assemble", "Text.styled", "Content", "Content.assemble", "Content.styled", "plain",
                "Group", "Table", "Table.grid", "Strip", "partial"}
# calls that make a number into text (digits, signs, a fraction bar, a percent sign: no markup)
NUMBERS = {"len", "fmt", "fmt_pct", "int", "round", "count_of", "short_points"}
MARKUP_READERS = {"from_markup", "render_str"}
STR_METHODS = {"join", "format", "capitalize", "lower", "upper", "title", "strip", "lstrip", "rstrip", "replace",
               "ljust", "rjust", "center", "removeprefix", "removesuffix", "casefold"}
# a return annotation naming one of these (and not str) gives a renderable, never parsed
RENDERABLES = ("Text", "Content", "Group", "Table", "Strip", "RenderableType")


def _name(node: ast.AST) -> str:
    """Dotted name of a called function: "Text.assemble", "plain", "self.query_one"."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _name(node.value)
        return f"{inner}.{node.attr}" if inner else node.attr
    return ""


def _kind_of_annotation(text: str | None) -> int:
    if not text:
        return UNKNOWN
    words = set(text.replace("[", " ").replace("]", " ").replace("|", " ").replace(",", " ").split())
    if "str" in words:
        return DATA
    if words & set(RENDERABLES):
        return SAFE
    return UNKNOWN


def _returns(trees) -> dict[str, int]:
    """Every function and method in ``trees`` by name: what its return annotation says it gives."""
    out: dict[str, int] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                kind = _kind_of_annotation(ast.unparse(node.returns) if node.returns else None)
                out[node.name] = max(out.get(node.name, SAFE), kind)  # the same name twice: the worst
    return out


@functools.cache
def package_returns() -> dict[str, int]:
    """What each function of the package returns (read once per test process, when first needed)."""
    return _returns(ast.parse(path.read_text(encoding="utf-8")) for path in PACKAGE.rglob("*.py"))


class Checker:
    def __init__(self, where: str, source: str) -> None:
        self.where = where
        self.source = source
        self.tree = ast.parse(source)
        self.own = _returns([self.tree])  # a method called on self is the module's own
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
        self.problems: list[str] = []

    # ------------------------------------------------------------ what an expression is

    def _scope(self, node: ast.AST) -> ast.AST:
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)):
                return node
        return self.tree

    @staticmethod
    def _own_nodes(scope: ast.AST):
        """The nodes of a scope, not those of the functions defined in it (their names are their own)."""
        todo = list(ast.iter_child_nodes(scope))
        while todo:
            node = todo.pop()
            yield node
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                todo.extend(ast.iter_child_nodes(node))

    def _bindings(self, name: str, at: ast.AST) -> list[tuple[str, object]]:
        """How ``name`` is bound where ``at`` uses it: ("value", expr), ("concatenated", expr),
        ("annotation", text) or ("unknown", None); a name a function does not bind is looked up
        in the scope around it."""
        node = at
        while node in self.parents:  # a comprehension's own variable: one element of what it reads
            node = self.parents[node]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                break
            if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)) and any(
                    isinstance(n, ast.Name) and n.id == name for gen in node.generators for n in ast.walk(gen.target)):
                return [("unknown", None)]
        scope = self._scope(at)
        while True:
            found = self._bound_in(name, scope)
            if found or scope is self.tree:
                return found or [("unknown", None)]
            scope = self._scope(scope)

    def _bound_in(self, name: str, scope: ast.AST) -> list[tuple[str, object]]:
        found: list[tuple[str, object]] = []
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = scope.args
            for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs, *([a.vararg] if a.vararg else []),
                        *([a.kwarg] if a.kwarg else [])]:
                if arg.arg == name:
                    found.append(("annotation", ast.unparse(arg.annotation) if arg.annotation else ""))
        for node in self._own_nodes(scope):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id == name:
                        found.append(("value", node.value))
                    elif any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(target)):
                        found.append(("unknown", None))  # unpacked from a tuple
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
                found.append(("value", node.value) if node.value is not None else ("unknown", None))
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
                found.append(("concatenated", node.value))
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.With, ast.NamedExpr)):
                targets = [node.target] if not isinstance(node, ast.With) else \
                    [i.optional_vars for i in node.items if i.optional_vars is not None]
                if any(isinstance(n, ast.Name) and n.id == name for t in targets for n in ast.walk(t)):
                    found.append(("unknown", None))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
                found.append(("unknown", None))
        return found

    def kind(self, node: ast.AST | None, seen: frozenset = frozenset()) -> int:
        if node is None:
            return UNKNOWN
        if isinstance(node, ast.Constant):
            return SAFE
        if isinstance(node, ast.JoinedStr):
            parts = [self._number(v.value) for v in node.values if isinstance(v, ast.FormattedValue)]
            return SAFE if all(parts) else DATA
        if isinstance(node, ast.BinOp):
            sides = [self.kind(node.left, seen), self.kind(node.right, seen)]
            return SAFE if max(sides) == SAFE else DATA
        if isinstance(node, ast.IfExp):
            return max(self.kind(node.body, seen), self.kind(node.orelse, seen))
        if isinstance(node, ast.BoolOp):
            return max(self.kind(v, seen) for v in node.values)
        if isinstance(node, (ast.List, ast.Tuple)):
            return max((self.kind(e, seen) for e in node.elts), default=SAFE)
        if isinstance(node, ast.Starred):
            return self.kind(node.value, seen)
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            return self.kind(node.elt, seen)
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.Subscript):
            return DATA
        if isinstance(node, ast.Attribute):  # a field of a file's data, or a method (a callable: unknown)
            if node.attr in package_returns():
                return UNKNOWN
            return DATA
        if isinstance(node, ast.Name):
            key = (node.id, id(self._scope(node)))
            if key in seen:
                return UNKNOWN
            worst = SAFE
            for how, value in self._bindings(node.id, node):
                if how == "value":
                    worst = max(worst, self.kind(value, seen | {key}))
                elif how == "concatenated":
                    worst = max(worst, SAFE if self.kind(value, seen | {key}) == SAFE else DATA)
                elif how == "annotation":
                    worst = max(worst, _kind_of_annotation(value) if value else UNKNOWN)
                else:
                    worst = max(worst, UNKNOWN)
            return worst
        return UNKNOWN

    def _number(self, node: ast.AST) -> bool:
        return isinstance(node, ast.Constant) or isinstance(node, ast.Call) and _name(node.func).split(".")[-1] in NUMBERS

    def _call(self, node: ast.Call) -> int:
        name = _name(node.func)
        last = name.split(".")[-1]
        if last in MARKUP_READERS:
            return DATA
        if name in PLAIN_MAKERS or last in PLAIN_MAKERS and name.startswith(("Text.", "Content.")):
            return SAFE
        if last in NUMBERS:
            return SAFE
        if name in ("str", "repr", "format") or isinstance(node.func, ast.Attribute) and last in STR_METHODS:
            return DATA
        if isinstance(node.func, ast.Attribute) and _name(node.func.value) == "self" and last in self.own:
            return self.own[last]
        return package_returns().get(last, UNKNOWN)

    # ------------------------------------------------------------ where text is read as markup

    def flag(self, node: ast.AST, what: str) -> None:
        line = ast.get_source_segment(self.source, node) or ast.unparse(node)
        self.problems.append(f"{self.where}:{node.lineno}: {what}: {line.splitlines()[0][:100]}")

    def strict(self, node: ast.AST, what: str) -> None:
        """Text a Rich table or console reads as markup: it must be shown to be plain."""
        if self.kind(node) != SAFE:
            self.flag(node, what)

    def lenient(self, node: ast.AST, what: str) -> None:
        """Text a widget may read as markup: it must not be a string built from data."""
        if self.kind(node) == DATA:
            self.flag(node, what)

    def run(self) -> list[str]:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Call):
                self._check_call(node)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Attribute) and t.attr in ("tooltip", "border_title", "border_subtitle",
                                                                    "sub_title", "label") and node.value is not None:
                        self.lenient(node.value, t.attr)
        return self.problems

    def _check_call(self, node: ast.Call) -> None:
        name = _name(node.func)
        last = name.split(".")[-1]
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        markup = keywords.get("markup")
        if isinstance(markup, ast.Constant) and markup.value is True:
            self.flag(node, "markup=True")
        if last in MARKUP_READERS and not (node.args and isinstance(node.args[0], ast.Constant)):
            self.flag(node, f"{last} of text that is not a literal")
        if last in ("add_row", "add_column"):
            for arg in node.args:
                self.strict(arg, f"Rich table {'cell' if last == 'add_row' else 'header'}")
            if "header" in keywords:
                self.strict(keywords["header"], "Rich table header")
        if name in ("Table", "Table.grid"):
            for key in ("title", "caption"):
                if key in keywords:
                    self.strict(keywords[key], f"Rich table {key}")
        if last == "print" and "console" in name.lower():
            for arg in node.args:
                self.strict(arg, "console.print")
        if last in ("Static", "Label") and node.args and \
                not (isinstance(markup, ast.Constant) and markup.value is False):
            self.strict(node.args[0], f"{last} without markup=False")
        if name == "Group":  # (Rich reads a str part of a group as markup)
            for arg in node.args:
                self.lenient(arg, "Group part")
        if last in ("Option", "Button", "Tab", "TabPane") and node.args:
            self.lenient(node.args[0], f"{last} label")
        if last == "update" and len(node.args) == 1 and not node.keywords:
            self.lenient(node.args[0], "widget update")
        if "tooltip" in keywords:
            self.lenient(keywords["tooltip"], "tooltip")
        if last in ("Select", "SelectionList", "set_options"):
            for arg in node.args:
                options = arg.value if isinstance(arg, ast.Starred) else arg
                elts = options.elts if isinstance(options, (ast.List, ast.Tuple)) else \
                    [options.elt] if isinstance(options, (ast.ListComp, ast.GeneratorExp)) else []
                for elt in elts:
                    if isinstance(elt, ast.Tuple) and elt.elts:
                        self.lenient(elt.elts[0], f"{last} option")


@pytest.mark.parametrize("path", FRONT_ENDS, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_markup_is_built_from_data(path):
    problems = Checker(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")).run()
    assert not problems, "text from data where markup is read (wrap it in plain(...) or Text(...)):\n" + \
        "\n".join(problems)


def test_notifications_are_never_read_as_markup():
    """Every screen's notify goes through the app's, which turns markup off whatever it is asked."""
    tree = ast.parse((PACKAGE / "tui" / "app.py").read_text(encoding="utf-8"))
    notify = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "notify")
    calls = [c for c in ast.walk(notify) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
             and c.func.attr == "notify" and isinstance(c.func.value, ast.Call) and _name(c.func.value.func) == "super"]
    assert calls and all(any(k.arg == "markup" and isinstance(k.value, ast.Constant) and k.value.value is False
                             for k in c.keywords) for c in calls)


# ---------------------------------------------------------------- the checker itself

def _problems(source: str) -> list[str]:
    return Checker("probe.py", source).run()


@pytest.mark.parametrize("source", [
    "table.add_row(u.name, 'x')",  # a file's field as a cell
    "def f(rows):\n    for row in rows:\n        table.add_row(*row)",  # cells of unknown kind
    "table.add_column(header[i] if header else '')",
    "def f(*columns: str):\n    for c in columns:\n        table.add_column(c)",
    "grid.add_row(*[value for _, value in line])",
    "grid.add_row('Stats', item_stats_text(s, k, x) or '-')",  # a function that returns str
    "Table(title=f'{roster.name} army')",
    "Static(f'{unit.name}')",
    "box.update(', '.join(names))",
    "field.tooltip = self.stat.label",
    "Select([(f'Per {per} (ruleset)', 'default')])",
    "Text.from_markup(name)",
    "self.notify(name, markup=True)",
    "console.print(name)",
    "Group(Text('x'), f'{fig.name} is yours')",
])
def test_the_checker_flags_markup_from_data(source):
    assert _problems(source)


@pytest.mark.parametrize("source", [
    "table.add_row(plain(u.name), Text(u.type), 'literal', fmt(u.total))",
    "table.add_row(*[plain(c) for c in row])",
    "Static(f'{unit.name}', markup=False)",
    "Label(self.title_text, markup=False)",
    "box.update(Text.assemble((name, 'bold'), f' {note}'))",
    "self.border_title = f'Units ({len(units)})'",
    "x = Text(name)\ngrid.add_row('Cost', x)",
    "self.notify(f'Saved {name}')",
])
def test_the_checker_passes_plain_text(source):
    assert not _problems(source)
