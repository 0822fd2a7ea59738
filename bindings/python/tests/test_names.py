# SPDX-License-Identifier: MIT
"""The names of the public enums and flags come from the library (pmu_*_name,
pmu_flags_format), and every value <pmu.h> declares has one.

Oracle: the enum members as <pmu.h>'s text declares them (parsed here, not
through the library) and the names written by hand below, which are the
names the documentation (README, bindings/python/README.md, pmu-resolve(1))
promises."""
import ctypes
import os
import re

import pmu
from pmu import _lib  # the loaded libpmu.so

SRC = os.environ.get("PMU_TEST_SRCDIR", os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def header_enum(name):
    """{member: value} of `enum NAME { ... }` in include/pmu.h (values written as N or Nu << M)."""
    with open(os.path.join(SRC, "include", "pmu.h")) as f:
        text = f.read()
    body = re.search(r"enum %s \{(.*?)\};" % name, text, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    out = {}
    for m in re.finditer(r"(PMU_\w+)\s*=\s*(\d+)u?(?:\s*<<\s*(\d+))?", body):
        out[m.group(1)] = int(m.group(2)) << int(m.group(3) or 0)
    return out


def cname(fn, v):
    f = getattr(_lib, fn)
    f.restype, f.argtypes = ctypes.c_char_p, [ctypes.c_int]
    return f(v).decode()


def flags(v, size=512):
    f = _lib.pmu_flags_format
    f.restype, f.argtypes = ctypes.c_int, [ctypes.c_uint, ctypes.c_char_p, ctypes.c_size_t]
    buf = ctypes.create_string_buffer(size) if size else None
    n = f(v, buf, size)
    return n, (buf.value.decode() if size else None)


def test_every_source_has_its_documented_name():
    want = {"PMU_SRC_SYSFS": "sysfs", "PMU_SRC_GENERIC": "generic", "PMU_SRC_RAW": "raw",
            "PMU_SRC_TABLE": "table", "PMU_SRC_LIBPFM": "libpfm4", "PMU_SRC_TRACEPOINT": "tracepoint",
            "PMU_SRC_TOOL": "tool"}
    members = header_enum("pmu_source")
    assert set(members) == set(want), "a source was added to <pmu.h>: give it a name in lib/names.c and here"
    for m, v in members.items():
        assert cname("pmu_source_name", v) == want[m]
    assert cname("pmu_source_name", 0) == "unknown"
    assert cname("pmu_source_name", max(members.values()) + 1) == "unknown"
    assert cname("pmu_source_name", -1) == "unknown"


def test_every_constant_source_has_its_documented_name():
    want = {"PMU_CONST_PARAM": "param", "PMU_CONST_MACHINE": "machine"}
    members = header_enum("pmu_constant_source")
    assert set(members) == set(want), "a constant source was added to <pmu.h>: name it in lib/names.c and here"
    for m, v in members.items():
        assert cname("pmu_constant_source_name", v) == want[m]
    assert cname("pmu_constant_source_name", 0) == "unknown"
    assert cname("pmu_constant_source_name", 3) == "unknown"


def test_every_kind_and_arch_has_its_documented_name():
    kinds = {"PMU_ENTRY_KERNEL": "kernel", "PMU_ENTRY_SYSFS": "sysfs", "PMU_ENTRY_STANDARD": "standard",
             "PMU_ENTRY_NATIVE": "native", "PMU_ENTRY_METRIC": "metric", "PMU_ENTRY_LIBPFM": "libpfm4",
             "PMU_ENTRY_TOOL": "tool", "PMU_ENTRY_PAPI": "papi"}
    members = header_enum("pmu_entry_kind")
    assert set(members) == set(kinds)
    for m, v in members.items():
        assert cname("pmu_kind_name", v) == kinds[m]
    arch = {"PMU_ARCH_UNKNOWN": "unknown", "PMU_ARCH_X86": "x86", "PMU_ARCH_ARM64": "arm64",
            "PMU_ARCH_RISCV": "riscv"}
    members = header_enum("pmu_arch")
    assert set(members) == set(arch)
    for m, v in members.items():
        assert cname("pmu_arch_name", v) == arch[m]
    assert cname("pmu_arch_name", 99) == "unknown"


def test_every_flag_has_a_distinct_name():
    members = header_enum("pmu_event_flags")
    assert len(members) >= 15
    seen = set()
    for m, v in members.items():
        n, s = flags(v)
        assert n == len(s) and s and "," not in s, (m, s)
        assert s not in seen, (m, s)
        seen.add(s)
    # precise_ip is a 2-bit field: its value is named, not its bits
    p = members["PMU_EVF_PRECISE"]
    assert [flags(p & (k << 14))[1] for k in (1, 2, 3)] == ["precise=1", "precise=2", "precise=3"]


def test_flags_format_lists_and_cuts_as_snprintf():
    v = (1 << 0) | (1 << 9) | (2 << 14)  # software, :u's exclude-kernel, :pp
    whole = "software,exclude-kernel,precise=2"  # 8 + 1 + 14 + 1 + 9 = 33 characters
    assert flags(v) == (33, whole)
    assert flags(v, 10) == (33, whole[:9])
    assert flags(v, 0) == (33, None)
    assert flags(0) == (0, "")
    assert flags(1 << 7) == (0, "")  # a bit no flag has


def test_binding_uses_the_library_names():
    ctx = pmu.Context()
    e = ctx.resolve("task-clock:u")
    assert e["source"] == "generic"
    assert e["flags"] == ["software", "exclude-kernel", "exclude-hv"]
    t = ctx.resolve("duration_time")
    assert t["source"] == "tool" and "tool" in t["flags"]
