# SPDX-License-Identifier: MIT
"""Imported by the Python tests, as tests/checks.sh is sourced by the shell ones: check(ok, what) counts
a check and, when ok is false, prints "FAIL: what" and counts a failure; tally holds both."""


class _Tally:
    checks = 0
    fails = 0


tally = _Tally()


def check(ok, what):
    tally.checks += 1
    if not ok:
        tally.fails += 1
        print("FAIL: " + what)
    return ok
