# SPDX-License-Identifier: MIT
"""The exception: PmuError, libpmu's errno and its sentence naming the cause and the fix."""

import os

from ._libpmu import _strerror


class PmuError(OSError):
    """A libpmu call failed.

    ``errno`` is the positive errno (``errno.ENOENT`` for an unknown event,
    ``EINVAL`` for bad syntax, ``EACCES``/``EPERM`` when not permitted, ...);
    ``strerror`` (also ``str(e)``) is libpmu's sentence naming the event, the
    cause and the fix; ``function`` is the C function that failed.
    """

    def __init__(self, err, message, function=None):
        super().__init__(err, message)
        self.function = function

    def __str__(self):
        return self.strerror


def _fail(rc, function):
    """Build the PmuError for a negative return code; call right after the failing call."""
    msg = _strerror(rc)                 # same thread, before any other libpmu call
    msg = msg.decode("utf-8", "replace") if msg else os.strerror(-rc)
    return PmuError(-rc, msg, function)


def _check(rc, function):
    if rc < 0:
        raise _fail(rc, function)
    return rc

