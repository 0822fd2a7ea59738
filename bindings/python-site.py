# SPDX-License-Identifier: MIT
"""Where `meson install` puts the pmu package (bindings/meson.build says why).

    python3 python-site.py PREFIX MESON_DIR

Prints MESON_DIR if this interpreter's sys.path has it, else the first
site-packages or dist-packages directory of sys.path under PREFIX, else
MESON_DIR and, on a second line, a warning for meson to show (the package
will need PYTHONPATH).
"""
import os
import sys

prefix, meson_dir = os.path.normpath(sys.argv[1]), os.path.normpath(sys.argv[2])
sites = [os.path.normpath(p) for p in sys.path if os.path.basename(p) in ('site-packages', 'dist-packages')]
if meson_dir in sites:
    print(meson_dir)
else:
    under = [p for p in sites if p.startswith(prefix.rstrip('/') + '/')]
    if under:
        print(under[0])
    else:
        print(meson_dir)
        print('%s does not import from %s: the pmu package installed there needs PYTHONPATH=%s '
              '(or set -Dpython.purelibdir=DIR)' % (sys.executable, meson_dir, meson_dir))
