# SPDX-License-Identifier: MIT
"""The package's shape: the names `pmu` offered as one file are all still there,
and its modules form layers (no import circle), each with a one-line docstring.

Oracles: the list of public names written below, recorded from dir(pmu) of the
single-file pmu/__init__.py (commit df8e03d) before it was split; <pmu.h>'s text
for the constants; the layer list in pmu/__init__.py's docstring for the imports
(read here with ast, not by importing)."""
import ast
import ctypes
import glob
import os
import re

import pmu

SRC = os.environ.get("PMU_TEST_SRCDIR", os.path.join(os.path.dirname(__file__), "..", "..", ".."))
PKG = os.path.dirname(os.path.abspath(pmu.__file__))

# dir(pmu) of the single file, names without a leading underscore, with the type of each
BEFORE = {
    "Context": "class", "PmuError": "class", "Set": "class", "Value": "class",
    "LOG_DEBUG": "int", "LOG_ERR": "int", "LOG_INFO": "int", "LOG_WARN": "int",
    "PMU_NAME_MAX": "int", "PMU_UNKNOWN": "int", "library_path": "str",
    "confidence": "function", "delta": "function", "have_regions": "function", "region": "function",
    "region_configure": "function", "region_overhead": "function", "region_report": "function",
    "region_reset": "function", "region_results": "function", "scale": "function", "version": "function",
}
# added since, each with its type: Plan (pmu_plan_*, issue 41)
ADDED = {"Plan": "class"}
# also in that dir(pmu), not kept: the standard library the single file imported for itself
NOT_KEPT = {"contextlib", "ctypes", "math", "namedtuple", "os", "weakref"}
ALL_BEFORE = [
    "PmuError", "Context", "Set", "Value", "version", "delta", "scale", "confidence",
    "region", "region_configure", "region_report", "region_reset", "region_results", "region_overhead",
    "have_regions", "library_path",
]


def kind(o):
    if isinstance(o, type):
        return "class"
    if callable(o):
        return "function"
    return type(o).__name__


def test_every_public_name_of_the_single_file_is_still_there():
    public = {n for n in dir(pmu) if not n.startswith("_")}
    assert set(BEFORE) <= public, "lost: %s" % sorted(set(BEFORE) - public)
    for n, k in BEFORE.items():
        assert kind(getattr(pmu, n)) == k, n
    assert not NOT_KEPT & public
    for n, k in ADDED.items():
        assert kind(getattr(pmu, n)) == k, n
    # what is new is the submodules and the names added since, nothing else
    new = public - set(BEFORE) - set(ADDED)
    assert all(type(getattr(pmu, n)).__name__ == "module" for n in new), sorted(new)
    assert [n for n in pmu.__all__ if n not in ADDED] == ALL_BEFORE and set(pmu.__all__) - set(ALL_BEFORE) == set(ADDED)
    assert isinstance(pmu._lib, ctypes.CDLL)          # the loaded libpmu.so (tests/test_names.py uses it)


def test_classes_still_say_pmu():
    # tracebacks print "pmu.PmuError: ...", pickles name pmu.Value: as when they were defined in __init__.py
    for c in (pmu.PmuError, pmu.Context, pmu.Plan, pmu.Set, pmu.Value):
        assert c.__module__ == "pmu" and getattr(pmu, c.__qualname__) is c


def test_constants_equal_the_header():
    with open(os.path.join(SRC, "include", "pmu.h")) as f:
        h = f.read()
    assert pmu.PMU_UNKNOWN == int(re.search(r"#define PMU_UNKNOWN \((-?\d+)\)", h).group(1))
    assert pmu.PMU_NAME_MAX == int(re.search(r"#define PMU_NAME_MAX (\d+)", h).group(1))
    for lvl in ("ERR", "WARN", "INFO", "DEBUG"):
        assert getattr(pmu, "LOG_" + lvl) == int(re.search(r"PMU_LOG_%s = (\d+)" % lvl, h).group(1))


def layers():
    """{module: layer number} from the numbered list in pmu/__init__.py's docstring."""
    out, n = {}, None
    for line in pmu.__doc__.split("\n"):
        m = re.match(r"^(?:(\d+)\.)?\s+``(\w+)``\s", line)
        if m:
            n = int(m.group(1)) if m.group(1) else n
            out[m.group(2)] = n
    return out


def imports(path):
    """The package's modules that the file imports (relative imports)."""
    with open(path) as f:
        tree = ast.parse(f.read())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            out.update([node.module] if node.module else [a.name for a in node.names])
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pmu"):
            raise AssertionError("%s: import within the package as `from .x import`" % path)
    return out


def test_modules_form_layers():
    lay = layers()
    files = {os.path.basename(p)[:-3] for p in glob.glob(os.path.join(PKG, "*.py"))} - {"__init__"}
    assert files == set(lay), "pmu/__init__.py's layer list and pmu/*.py differ: %s" % sorted(files ^ set(lay))
    for m, n in lay.items():
        for dep in imports(os.path.join(PKG, m + ".py")):
            assert lay[dep] < n, "%s (layer %d) imports %s (layer %d): a module imports only from below" % (
                m, n, dep, lay[dep])
    assert imports(os.path.join(PKG, "__init__.py")) <= set(lay)


def test_every_module_says_its_concept_in_one_line():
    for p in sorted(glob.glob(os.path.join(PKG, "*.py"))):
        with open(p) as f:
            doc = ast.get_docstring(ast.parse(f.read()))
        assert doc, "%s has no docstring" % p
        if not p.endswith("__init__.py"):
            assert "\n" not in doc and len(doc) <= 100, "%s: the docstring is one line, its concept" % p
