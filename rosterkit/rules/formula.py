"""The formula language: small, safe, exact.

A formula is a Python-like *expression*: numbers, names, ``+ - * / // % **``,
comparisons, ``x if c else y``, ``and``/``or``/``not``, text in quotes (for
comparing choices and naming types), and calls to a fixed set of functions.
It is parsed with :mod:`ast` and checked against a whitelist of node kinds;
names and functions must be known to the context the formula is used in.
Nothing else is reachable: no attributes, subscripts, lambdas,
comprehensions, imports or builtins. Division is exact (fractions), ``**`` is
bounded, and absurd inputs (overlong text, huge literals, deep nesting) are
refused before parsing.

Every formula is compiled once, when its ruleset loads; errors carry the
file, the key and a caret under the column at fault.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from difflib import get_close_matches
from fractions import Fraction
from functools import cached_property
from types import CodeType

from ..errors import FormulaError, Problem
from .numbers import Number, divide, fmt, normalize

MAX_LENGTH = 1000
MAX_DEPTH = 32
MAX_NODES = 400
MAX_INT_LITERAL = 10**12
MAX_TEXT_LITERAL = 200
MAX_POWER_BASE = 10**6
MAX_POWER_EXPONENT = 64
MAX_BITS = 400  # every number a formula makes: |x| < 2**400 (about 10**120), and so its denominator
MAX_TEXT = 1000  # characters of any text a formula makes
MAX_ROUND_DIGITS = 12  # round(x, digits)

_BIN_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)
_UNARY_OPS = (ast.UAdd, ast.USub, ast.Not)
_CMP_OPS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def _number(value: object, what: str) -> Number:
    """The value when it is a number (True and False count as 1 and 0), else a clear error."""
    if type(value) is int or isinstance(value, (int, Fraction)):
        return value  # type: ignore[return-value]
    raise TypeError(f"{what} needs a number, not {_kind(value)}")


def need_number(value: object, what: str) -> Number:
    """For formula functions: the value when it is a number, else the formula's error. Text is
    never read as a number nor repeated by a count (``'1e99999999'`` or a 5,000-character
    text times a million figures): refused before any work is done on it."""
    return _number(value, what)


def joined(parts: Iterable[str], separator: str = ", ") -> str:
    """Texts joined for a formula (item names, repeated values), refused as soon as the result
    would pass :data:`MAX_TEXT`, before it is built."""
    out: list[str] = []
    size = 0
    for part in parts:
        size += len(part) + (len(separator) if out else 0)
        if size > MAX_TEXT:
            raise OverflowError(f"text too long (more than {MAX_TEXT} characters)")
        out.append(part)
    return separator.join(out)


def _kind(value: object) -> str:
    return f"the text {str(value)[:20]!r}" if isinstance(value, str) else type(value).__name__


def _bounded(value: object) -> object:
    """The value when it is within the formula budget: a number under 2**MAX_BITS, text under MAX_TEXT."""
    if type(value) is int:
        if value.bit_length() > MAX_BITS:
            raise OverflowError(f"number too large (more than {MAX_BITS * 3 // 10} digits)")
    elif isinstance(value, Fraction):
        if value.numerator.bit_length() > MAX_BITS or value.denominator.bit_length() > MAX_BITS:
            raise OverflowError(f"number too large or too finely divided (more than {MAX_BITS * 3 // 10} digits)")
    elif isinstance(value, str) and len(value) > MAX_TEXT:
        raise OverflowError(f"text too long (more than {MAX_TEXT} characters)")
    return value


_SMALL = 1 << 62  # results of two ints below this need no size check


def _add(a, b):
    if type(a) is int and type(b) is int and -_SMALL < a < _SMALL and -_SMALL < b < _SMALL:
        return a + b
    if isinstance(a, str) and isinstance(b, str):
        if len(a) + len(b) > MAX_TEXT:
            raise OverflowError(f"text too long (more than {MAX_TEXT} characters)")
        return a + b
    return _bounded(_number(a, "+") + _number(b, "+"))


def _sub(a, b):
    if type(a) is int and type(b) is int and -_SMALL < a < _SMALL and -_SMALL < b < _SMALL:
        return a - b
    return _bounded(_number(a, "-") - _number(b, "-"))


def _mul(a, b):
    if type(a) is int and type(b) is int and -_SMALL < a < _SMALL and -_SMALL < b < _SMALL:
        return _bounded(a * b)
    return _bounded(_number(a, "*") * _number(b, "*"))


def _floordiv(a, b):
    return _bounded(_number(a, "//") // _number(b, "//"))


def _mod(a, b):
    return _bounded(_number(a, "%") % _number(b, "%"))  # never text formatting


def _div(a, b):
    return _bounded(divide(_number(a, "/"), _number(b, "/")))


def _neg(a):
    return -_number(a, "-")


def _round_half_up(value: Number, digits: int = 0) -> Number:
    """Round halves away from zero, as players do (2.5 -> 3), not to even."""
    value = _number(value, "round()")
    digits = _number(digits, "round()'s digits")
    if isinstance(digits, Fraction) or abs(digits) > MAX_ROUND_DIGITS:
        raise ValueError(f"round() takes a whole number of digits from -{MAX_ROUND_DIGITS} to {MAX_ROUND_DIGITS}")
    scale = Fraction(10) ** int(digits)
    scaled = Fraction(value) * scale
    whole = math.floor(abs(scaled) + Fraction(1, 2))
    result = Fraction(whole if scaled >= 0 else -whole) / scale
    return normalize(result)


def _pow(base: Number, exponent: Number) -> Number:
    base, exponent = _number(base, "**"), _number(exponent, "**")
    if abs(base) > MAX_POWER_BASE or abs(exponent) > MAX_POWER_EXPONENT:
        raise OverflowError(
            f"power too large ({fmt(base)} ** {fmt(exponent)}); "
            f"base up to {MAX_POWER_BASE}, exponent up to {MAX_POWER_EXPONENT}"
        )
    if isinstance(exponent, Fraction) and exponent.denominator != 1:
        raise ValueError("powers need a whole-number exponent")
    if base == 0 and exponent < 0:
        raise ZeroDivisionError("zero to a negative power")
    return _bounded(normalize(Fraction(base) ** int(exponent)))


def _min(*args):
    if not args:
        raise TypeError("min() needs at least one value")
    return min(args)


def _max(*args):
    if not args:
        raise TypeError("max() needs at least one value")
    return max(args)


def _clamp(value, low, high):
    return max(low, min(high, value))


# Checks the text arguments of a call where they name something (an item, a stat, a kind of
# item and a formula over it): given the function's name, the argument's place and every
# argument's text (None where it is not text; called for every argument), it returns None when the argument is right, else
# (message, hint, column inside the text or None for the argument as a whole).
TextArgCheck = Callable[[str, int, tuple], "tuple[str, str | None, int | None] | None"]


@dataclass(frozen=True)
class Function:
    """A function formulas may call: the callable and how many arguments it takes."""

    call: Callable[..., object]
    min_args: int
    max_args: int | None  # None: any number
    doc: str = ""


BASE_FUNCTIONS: dict[str, Function] = {
    "min": Function(_min, 1, None, "smallest of the values"),
    "max": Function(_max, 1, None, "largest of the values"),
    "abs": Function(lambda x: abs(_number(x, "abs()")), 1, 1, "value without its sign"),
    "round": Function(_round_half_up, 1, 2, "round halves up (2.5 -> 3); optional decimals"),
    "floor": Function(lambda x: math.floor(_number(x, "floor()")), 1, 1, "round down"),
    "ceil": Function(lambda x: math.ceil(_number(x, "ceil()")), 1, 1, "round up"),
    "clamp": Function(_clamp, 3, 3, "clamp(value, low, high)"),
}


def _char_col(text: str, byte_col: int | None) -> int:
    """ast gives UTF-8 byte offsets; carets need character columns."""
    if byte_col is None:
        return 0
    return len(text.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))


def _did_you_mean(name: str, candidates: Collection[str]) -> str | None:
    close = get_close_matches(name, list(candidates), n=3, cutoff=0.6)
    if close:
        return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"
    return None


def _paren_depth(text: str) -> int:
    depth = deepest = 0
    quote = None
    for ch in text:
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "([":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in ")]":
            depth -= 1
    return deepest


def _const_value(node: ast.AST) -> Number | None:
    """The value of a power of number literals, computed with the power guard; None if not constant."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return normalize(Fraction(repr(node.value))) if isinstance(node.value, float) else node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _const_value(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        base, exponent = _const_value(node.left), _const_value(node.right)
        if base is None or exponent is None:
            return None
        return _pow(base, exponent)
    return None


_OP_HELPERS = {ast.Add: "__add", ast.Sub: "__sub", ast.Mult: "__mul", ast.Div: "__div", ast.FloorDiv: "__floordiv",
               ast.Mod: "__mod", ast.Pow: "__pow"}


class _Rewriter(ast.NodeTransformer):
    """Arithmetic through checked helpers (exact division, numbers and text within the formula
    budget, no text repetition or formatting), exact decimal literals."""

    def __init__(self) -> None:
        self.constants: dict[str, object] = {}

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        helper = _OP_HELPERS[type(node.op)]
        call = ast.Call(func=ast.Name(id=helper, ctx=ast.Load()), args=[node.left, node.right], keywords=[])
        return ast.copy_location(call, node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.op, ast.USub):
            return node
        return ast.copy_location(ast.Call(func=ast.Name(id="__neg", ctx=ast.Load()), args=[node.operand],
                                          keywords=[]), node)

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, float):
            key = f"__c{len(self.constants)}"
            self.constants[key] = normalize(Fraction(repr(node.value)))
            return ast.copy_location(ast.Name(id=key, ctx=ast.Load()), node)
        return node


@dataclass(frozen=True)
class Formula:
    """A compiled formula. Call :meth:`evaluate` with the values of its names."""

    text: str
    file: str | None
    key: str | None
    names: frozenset[str]
    functions: frozenset[str]
    tree: ast.Expression = field(repr=False, compare=False)
    code: CodeType = field(repr=False, compare=False)
    constants: Mapping[str, object] = field(repr=False, compare=False)

    def evaluate(
        self,
        env: Mapping[str, object],
        functions: Mapping[str, Function] | None = None,
        context: str | None = None,
    ) -> object:
        """Evaluate with ``env`` giving every name; ``context`` names the unit for errors."""
        # Formulas are expressions: evaluating one cannot change either mapping, so the
        # prepared globals and the caller's values are used as they are, without copies.
        local = env
        if functions and self.functions:
            local = dict(env)
            for name in self.functions:
                if name in functions:
                    local[name] = functions[name].call
        try:
            return _bounded(eval(self.code, self._base_scope, local))  # noqa: S307 - whitelisted AST, no builtins
        except FormulaError:
            raise
        except ZeroDivisionError:
            raise self.error("division by zero", context) from None
        except NameError as exc:
            raise self.error(f"no value for {exc.name or 'a name'} here", context) from None
        except (TypeError, ValueError, OverflowError, ArithmeticError, KeyError) as exc:
            raise self.error(str(exc) or type(exc).__name__, context) from None
        except AttributeError:  # a function given a number where it takes a name
            raise self.error("a number where a name in quotes is needed", context) from None
        except RecursionError:
            raise self.error("formula too deep to evaluate", context) from None

    def evaluate_number(self, env: Mapping[str, object], functions: Mapping[str, Function] | None = None,
                        context: str | None = None) -> Number:
        """Evaluate where a number is needed (a cost, a measure): text or anything else is the
        formula's error, naming it and the unit."""
        value = self.evaluate(env, functions, context)
        if type(value) is int:
            return value
        if isinstance(value, (int, Fraction)):
            return normalize(value) if isinstance(value, Fraction) else int(value)
        raise self.error(f"gives {_kind(value)} where a number is needed", context)

    def error(self, message: str, context: str | None = None) -> FormulaError:
        where = f" for {context}" if context else ""
        return FormulaError(
            Problem(
                f"{message}{where} in formula `{self.text}`",
                file=self.file,
                key=self.key,
            )
        )

    @cached_property
    def _base_scope(self) -> dict[str, object]:
        scope: dict[str, object] = {"__builtins__": {}, "__add": _add, "__sub": _sub, "__mul": _mul, "__div": _div,
                                    "__floordiv": _floordiv, "__mod": _mod, "__pow": _pow, "__neg": _neg}
        scope.update(self.constants)
        for name, fn in BASE_FUNCTIONS.items():
            scope[name] = fn.call
        return scope

    @cached_property
    def _display_parts(self) -> tuple[str, ...]:
        """The formula as text, split around its names: ("", "dice", " * ", "die", "")."""
        marker = "\x00"

        class Mark(ast.NodeTransformer):
            def visit_Name(self, node: ast.Name) -> ast.AST:
                return ast.Name(id=f"{marker}{node.id}{marker}", ctx=ast.Load())

        text = ast.unparse(Mark().visit(ast.parse(self.text.strip(), mode="eval")))
        return tuple(text.split(marker))

    def substituted(self, env: Mapping[str, object]) -> str:
        """The formula with its names replaced by their values (for explanations): "1 * 6 * 6"."""
        parts = self._display_parts
        out = list(parts)
        for i in range(1, len(parts), 2):
            name = parts[i]
            if name in env:
                value = env[name]
                out[i] = str(value) if type(value) is int else repr(value) if isinstance(value, str) else fmt(value)
        return "".join(out)


_NOT_ALLOWED = {
    ast.Subscript: "indexing ('[...]')",
    ast.Lambda: "lambda",
    ast.ListComp: "comprehension",
    ast.GeneratorExp: "comprehension",
    ast.SetComp: "comprehension",
    ast.DictComp: "comprehension",
    ast.NamedExpr: "assignment (':=')",
    ast.JoinedStr: "f-string",
    ast.Await: "await",
    ast.Yield: "yield",
}


def _arity(spec: Function) -> str:
    """How many values a function takes, as its error says: "1", "at least 1", "2 to 3"."""
    if spec.max_args == spec.min_args:
        return f"{spec.min_args}"
    if spec.max_args is None:
        return f"at least {spec.min_args}"
    return f"{spec.min_args} to {spec.max_args}"


class _Checker:
    """Walks a parsed formula and refuses what formulas may not hold. Each kind of node allowed
    has its method ``_check_<kind>`` (found by the node's class name); any other kind is refused
    with its name from ``_NOT_ALLOWED``. Records the names and functions used."""

    def __init__(self, text: str, names: Collection[str], functions: Mapping[str, Function],
                 fail: Callable[..., FormulaError], text_args: TextArgCheck | None = None):
        self.text_args = text_args
        self.source = text.strip()
        self.lead = len(text) - len(text.lstrip())
        self.names = names
        self.functions = functions
        self.fail = fail
        self.count = 0
        self.used_names: set[str] = set()
        self.used_functions: set[str] = set()

    def check(self, node: ast.AST, depth: int) -> None:
        self.count += 1
        if self.count > MAX_NODES:
            raise self.fail(f"formula too large (more than {MAX_NODES} parts)")
        if depth > MAX_DEPTH * 2:
            raise self.fail("formula nested too deeply")
        col = self._column(getattr(node, "col_offset", None))
        method = getattr(self, f"_check_{type(node).__name__}", None)
        if method is None:
            what = _NOT_ALLOWED.get(type(node), type(node).__name__)
            raise self.fail(f"not allowed in a formula: {what}", col)
        method(node, depth, col)

    def _column(self, byte_col: int | None) -> int:
        """The column in the text as written of an offset in the stripped text."""
        return _char_col(self.source, byte_col) + self.lead

    def _check_Expression(self, node: ast.Expression, depth: int, col: int) -> None:
        self.check(node.body, depth + 1)

    def _check_BinOp(self, node: ast.BinOp, depth: int, col: int) -> None:
        if not isinstance(node.op, _BIN_OPS):
            raise self.fail(f"operator not allowed: {type(node.op).__name__}", col)
        self.check(node.left, depth + 1)
        self.check(node.right, depth + 1)
        if isinstance(node.op, ast.Pow):
            try:
                _const_value(node)
            except (OverflowError, ValueError, ZeroDivisionError) as exc:
                raise self.fail(str(exc), col) from None

    def _check_UnaryOp(self, node: ast.UnaryOp, depth: int, col: int) -> None:
        if not isinstance(node.op, _UNARY_OPS):
            raise self.fail(f"operator not allowed: {type(node.op).__name__}", col)
        self.check(node.operand, depth + 1)

    def _check_BoolOp(self, node: ast.BoolOp, depth: int, col: int) -> None:
        for value in node.values:
            self.check(value, depth + 1)

    def _check_Compare(self, node: ast.Compare, depth: int, col: int) -> None:
        for op in node.ops:
            if not isinstance(op, _CMP_OPS):
                raise self.fail(f"comparison not allowed: {type(op).__name__} (use == != < <= > >=)", col)
        self.check(node.left, depth + 1)
        for comp in node.comparators:
            self.check(comp, depth + 1)

    def _check_IfExp(self, node: ast.IfExp, depth: int, col: int) -> None:
        self.check(node.test, depth + 1)
        self.check(node.body, depth + 1)
        self.check(node.orelse, depth + 1)

    def _check_Call(self, node: ast.Call, depth: int, col: int) -> None:
        if not isinstance(node.func, ast.Name):
            self.check(node.func, depth + 1)
            raise self.fail("only named functions can be called", col)
        fname = node.func.id
        if fname.startswith("_"):
            raise self.fail(f"names starting with '_' are not allowed: '{fname}'", col)
        if fname not in self.functions:
            hint = _did_you_mean(fname, self.functions)
            known = ", ".join(sorted(self.functions))
            raise self.fail(f"unknown function '{fname}'", col, hint or f"known functions: {known}")
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise self.fail(f"{fname}() takes plain values only", col)
        spec = self.functions[fname]
        n = len(node.args)
        if n < spec.min_args or (spec.max_args is not None and n > spec.max_args):
            raise self.fail(f"{fname}() takes {_arity(spec)} value(s), got {n}", col)
        self.used_functions.add(fname)
        for arg in node.args:
            self.check(arg, depth + 1)
        if self.text_args is not None:
            texts = tuple(a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
                          for a in node.args)
            for i, arg in enumerate(node.args):
                wrong = self.text_args(fname, i, texts)
                if wrong is not None:
                    message, hint, inner = wrong
                    col = self._column(arg.col_offset)
                    raise self.fail(message, col if inner is None else col + 1 + inner, hint)

    def _check_Name(self, node: ast.Name, depth: int, col: int) -> None:
        name = node.id
        if name.startswith("_"):
            raise self.fail(f"names starting with '_' are not allowed: '{name}'", col)
        if name not in self.names:
            if name in self.functions:
                raise self.fail(f"'{name}' is a function: call it as {name}(...)", col)
            hint = _did_you_mean(name, self.names)
            known = ", ".join(sorted(self.names)) if len(self.names) <= 40 else None
            raise self.fail(f"unknown name '{name}'", col, hint or (f"known names: {known}" if known else None))
        self.used_names.add(name)

    def _check_Constant(self, node: ast.Constant, depth: int, col: int) -> None:
        value = node.value
        if value is None:
            raise self.fail("None is not a value here", col)
        if isinstance(value, bool):
            return
        if isinstance(value, int):
            too_large = abs(value) > MAX_INT_LITERAL
        elif isinstance(value, float):
            too_large = not math.isfinite(value) or abs(value) > MAX_INT_LITERAL
        elif isinstance(value, str):
            if len(value) > MAX_TEXT_LITERAL:
                raise self.fail(f"text too long (at most {MAX_TEXT_LITERAL} characters)", col)
            return
        else:
            raise self.fail(f"value not allowed: {type(value).__name__}", col)
        if too_large:
            raise self.fail(f"number too large (at most {MAX_INT_LITERAL})", col)

    def _check_Attribute(self, node: ast.Attribute, depth: int, col: int) -> None:
        self.check(node.value, depth + 1)
        dot = self._column(node.value.end_col_offset)
        raise self.fail(f"not allowed in a formula: attribute access ('.{node.attr}')", dot)


def compile_formula(
    text: str,
    names: Collection[str],
    functions: Mapping[str, Function] | None = None,
    *,
    file: str | None = None,
    key: str | None = None,
    text_args: TextArgCheck | None = None,
) -> Formula:
    """Check and compile ``text``. Raises :class:`FormulaError` with a caret; ``text_args``
    checks the text arguments of calls that name things."""
    functions = dict(functions or {})
    all_functions = {**BASE_FUNCTIONS, **functions}

    def fail(message: str, column: int | None = None, hint: str | None = None) -> FormulaError:
        return FormulaError(
            Problem(message, file=file, key=key, column=column, source=text if column is not None else None, hint=hint)
        )

    if not isinstance(text, str):
        raise fail(f"expected a formula as text, got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise fail(f"formula too long ({len(text)} characters; at most {MAX_LENGTH})")
    if not text.strip():
        raise fail("formula is empty")
    if "\n" in text.strip() or "\r" in text:
        raise fail("a formula must be on one line")
    if _paren_depth(text) > MAX_DEPTH:
        raise fail(f"formula nested too deeply (more than {MAX_DEPTH} levels of brackets)")
    lead = len(text) - len(text.lstrip())
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        col = (exc.offset or 1) - 1 + lead
        msg = (exc.msg or "invalid syntax").replace("invalid syntax. ", "")
        if "forgot a comma" in msg and ("'" in text or '"' in text):
            # 'kind == 'E'' closes the outer text early: Python's guess of a missing comma misleads
            msg = ("text in quotes inside text in the same quotes; write the inner text in the other kind: "
                   "items('weapons', 'kind == \"E\"')")
        raise fail(f"syntax error: {msg}", min(max(col, 0), len(text))) from None
    except (RecursionError, MemoryError, ValueError):
        raise fail("formula cannot be parsed (too deep or too large)") from None

    checker = _Checker(text, names, all_functions, fail, text_args)
    try:
        checker.check(tree, 0)
    except RecursionError:
        raise fail("formula nested too deeply") from None

    rewriter = _Rewriter()
    rewritten = ast.fix_missing_locations(rewriter.visit(tree))
    code = compile(rewritten, f"<formula {key or ''}>", "eval")
    return Formula(
        text=text,
        file=file,
        key=key,
        names=frozenset(checker.used_names),
        functions=frozenset(checker.used_functions),
        tree=tree,
        code=code,
        constants=dict(rewriter.constants),
    )


@dataclass(frozen=True)
class Template:
    """Text with ``{formula}`` parts, e.g. a limit's message. ``{{`` is a brace."""

    parts: tuple[str | Formula, ...]

    def render(self, env: Mapping[str, object], functions: Mapping[str, Function] | None = None,
               context: str | None = None) -> str:
        out = []
        for part in self.parts:
            if isinstance(part, str):
                out.append(part)
            else:
                out.append(fmt(part.evaluate(env, functions, context)))
        return "".join(out)


def compile_template(
    text: str,
    names: Collection[str],
    functions: Mapping[str, Function] | None = None,
    *,
    file: str | None = None,
    key: str | None = None,
    text_args: TextArgCheck | None = None,
) -> Template:
    parts: list[str | Formula] = []
    buf: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "{" and text.startswith("{{", i):
            buf.append("{")
            i += 2
        elif ch == "}" and text.startswith("}}", i):
            buf.append("}")
            i += 2
        elif ch == "{":
            end = text.find("}", i)
            if end < 0:
                raise FormulaError(Problem("unclosed '{' in message", file=file, key=key, source=text, column=i))
            if buf:
                parts.append("".join(buf))
                buf = []
            inner = text[i + 1:end]
            try:
                parts.append(compile_formula(inner, names, functions, file=file, key=key, text_args=text_args))
            except FormulaError as exc:
                p = exc.problems[0]
                col = None if p.column is None else p.column + i + 1
                raise FormulaError(
                    Problem(p.message, file=file, key=key, source=text if col is not None else None,
                            column=col, hint=p.hint)
                ) from None
            i = end + 1
        else:
            buf.append(ch)
            i += 1
    if buf:
        parts.append("".join(buf))
    return Template(tuple(parts))
