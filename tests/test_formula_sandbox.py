"""The formula sandbox: escape attempts known from other expression evaluators (simpleeval's and
asteval's issue trackers, CTF write-ups) are refused with the project's own error."""

from __future__ import annotations

import pytest

from rosterkit.errors import FormulaError
from rosterkit.rules.formula import BASE_FUNCTIONS, compile_formula

NAMES = {"x", "t"}
ENV = {"x": 3, "t": "word"}

PAYLOADS = [
    "__import__('os').system('id')", "__import__", "__builtins__", "__builtins__['eval']('1')",
    "().__class__", "().__class__.__bases__[0].__subclasses__()", "''.__class__.__mro__[1].__subclasses__()",
    "[c for c in ().__class__.__base__.__subclasses__()]", "(lambda: 1)()", "lambda: 0",
    "open('/etc/passwd').read()", "eval('1')", "exec('x = 1')", "compile('1', '', 'eval')", "globals()",
    "locals()", "vars()", "dir()", "getattr(1, '__class__')", "setattr(x, 'a', 1)", "type(1)", "type(x)('1')",
    "'{0.__class__}'.format(1)", "t.format(1)", "t.__class__", "t.upper()", "f'{x}'", "f'{x!r:>{10}}'",
    "x.__dict__", "x.real", "[1][0]", "{'a': 1}['a']", "(1, 2)[0]", "t[0]", "t[::-1]", "print(1)", "help()",
    "breakpoint()", "input()", "(y := 1)", "[*()]", "{**{}}", "{1, 2}", "[1, 2]", "(1, 2)", "{}",
    "'%s' % ().__class__", "max.__self__", "round.__globals__", "min.__module__", "min(__builtins__)",
    "x if __loader__ else 0", "__spec__", "__name__", "__file__", "_x", "x._y", "chr(65)", "ord('a')",
    "bytes(1)", "bytearray(8)", "memoryview(b'a')", "id(x)", "hash(t)", "iter(t)", "next(iter(t))",
    "range(10**9)", "len(t)", "sum([1])", "sorted(t)", "map(abs, [1])", "filter(None, [1])", "zip()",
    "object()", "super()", "classmethod", "staticmethod", "property", "isinstance(x, int)", "issubclass",
    "quit()", "exit()", "copyright", "credits", "license", "NotImplemented", "Ellipsis", "...",
    "b'bytes'", "1j", "None", "x.__class__.__init__.__globals__", "abs.__call__(1)", "abs.__doc__",
    "(yield 1)", "await x", "not not __import__", "x or __import__('os')", "[x for x in t]",
    "{x: 1 for x in t}", "(x for x in t)", "ｅｖａｌ('1')", "\N{LATIN SMALL LETTER E}val('1')",
    "x; __import__('os')", "x\n__import__('os')", "# comment", "", "   ", "1 +", "if x: 1",
    "import os", "from os import system", "del x", "global x", "x = 1", "x += 1", "assert x", "raise x",
    "with x: 1", "try: 1\nexcept: 2", "def f(): 1", "class A: 1", "for i in t: 1", "while 1: 1",
    "round.__class__", "min.__class__.__call__", "max(*t)", "max(**{})", "abs(x=1)", "round(x, ndigits=1)",
    "clamp.__wrapped__", "floor.__self__", "ceil.__self__.system", "x @ x", "x << 2", "x >> 1", "x & 1",
    "x | 1", "x ^ 1", "~x", "x is x", "x is not x", "x in t", "t not in t", "1 < x < t.__len__()",
]


@pytest.mark.parametrize("text", PAYLOADS)
def test_escape_attempts_are_refused(text):
    functions = dict(BASE_FUNCTIONS)
    try:
        formula = compile_formula(text, NAMES, functions)
    except FormulaError:
        return
    with pytest.raises(FormulaError):
        value = formula.evaluate(ENV)
        assert isinstance(value, (int, str, bool)), f"{text!r} gave {value!r}"
        raise FormulaError(f"{text!r} evaluated to {value!r}")  # nothing here should evaluate at all

