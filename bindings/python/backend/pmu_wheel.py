# SPDX-License-Identifier: MIT
"""The build backend of the pmu package (PEP 517 and PEP 660), standard library only.

`pip install bindings/python` needs nothing from the network: the package is
pure Python (ctypes over libpmu.so), so a wheel is a zip of pmu/ with its
metadata, written here. The metadata comes from pyproject.toml's [project]
table; the version from pmu/__init__.py's __version__, which a test
(tests/test-python-package.sh) keeps equal to meson's project version.
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import time
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # bindings/python
PACKAGE = 'pmu'

try:
    import tomllib as _toml          # Python 3.11
except ImportError:                  # pragma: no cover (older Pythons)
    _toml = None


def _parse_value(text):
    text = text.strip()
    if text.startswith('"'):
        return re.match(r'"((?:[^"\\]|\\.)*)"', text).group(1).encode().decode('unicode_escape')
    if text.startswith('['):
        return [_parse_value('"%s"' % s) for s in re.findall(r'"((?:[^"\\]|\\.)*)"', text)]
    if text.startswith('{'):
        return {k: _parse_value(v) for k, v in re.findall(r'([A-Za-z0-9_-]+)\s*=\s*("(?:[^"\\]|\\.)*")', text)}
    raise ValueError('pyproject.toml: unsupported value %r (strings, arrays of strings, '
                     'inline tables of strings)' % text)


def parse_pyproject(text):
    """The TOML subset pyproject.toml uses: [tables], key = "string" | ["array", ...]
    (one or more lines) | {key = "string"}, comments. Equals tomllib's reading of
    the file (checked by tests/test-python-package.sh where tomllib exists)."""
    data = {}
    table = data
    key, buf = None, ''
    for line in text.split('\n'):
        s = line.strip()
        if key is not None:
            buf += ' ' + s
            if s.startswith(']') or s.endswith(']'):
                table[key] = _parse_value(buf)
                key, buf = None, ''
            continue
        if not s or s.startswith('#'):
            continue
        m = re.match(r'^\[([A-Za-z0-9_.-]+)\]$', s)
        if m:
            table = data
            for part in m.group(1).split('.'):
                table = table.setdefault(part, {})
            continue
        m = re.match(r'^([A-Za-z0-9_-]+)\s*=\s*(.*)$', s)
        if not m:
            raise ValueError('pyproject.toml: cannot read line %r' % line)
        k, v = m.group(1), re.sub(r'\s+#[^"\]}]*$', '', m.group(2))
        if v.startswith('[') and not v.rstrip().endswith(']'):
            key, buf = k, v
            continue
        table[k] = _parse_value(v)
    return data


def _project():
    with open(os.path.join(HERE, 'pyproject.toml'), encoding='utf-8') as f:
        text = f.read()
    data = _toml.loads(text) if _toml else parse_pyproject(text)
    return data['project']


def version():
    """__version__ of pmu/__init__.py (read, not imported: importing loads libpmu.so)."""
    with open(os.path.join(HERE, PACKAGE, '__init__.py'), encoding='utf-8') as f:
        m = re.search(r'^__version__\s*=\s*["\']([^"\']+)["\']', f.read(), re.M)
    if not m:
        raise RuntimeError('pmu/__init__.py has no __version__ = "..." line')
    return m.group(1)


def _name(p):
    return re.sub(r'[-_.]+', '_', p['name']).lower()


def metadata():
    p = _project()
    lines = ['Metadata-Version: 2.1', 'Name: %s' % p['name'], 'Version: %s' % version()]
    if 'description' in p:
        lines.append('Summary: %s' % p['description'])
    lic = p.get('license')
    if isinstance(lic, dict) and 'text' in lic:
        lines.append('License: %s' % lic['text'])
    if 'requires-python' in p:
        lines.append('Requires-Python: %s' % p['requires-python'])
    for c in p.get('classifiers', []):
        lines.append('Classifier: %s' % c)
    for k, url in sorted(p.get('urls', {}).items()):
        lines.append('Project-URL: %s, %s' % (k, url))
    for d in p.get('dependencies', []):
        lines.append('Requires-Dist: %s' % d)
    body = ''
    readme = p.get('readme')
    if isinstance(readme, str):
        with open(os.path.join(HERE, readme), encoding='utf-8') as f:
            body = f.read()
        lines.append('Description-Content-Type: %s' %
                     ('text/markdown' if readme.endswith('.md') else 'text/plain'))
    return '\n'.join(lines) + '\n\n' + body


def _wheel_text(tag='py3-none-any'):
    return 'Wheel-Version: 1.0\nGenerator: pmu_wheel\nRoot-Is-Purelib: true\nTag: %s\n' % tag


def _package_files():
    out = []
    root = os.path.join(HERE, PACKAGE)
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x != '__pycache__')
        for f in sorted(files):
            if not f.endswith(('.pyc', '.pyo')):
                full = os.path.join(d, f)
                out.append((os.path.relpath(full, HERE).replace(os.sep, '/'), full))
    return out


def _timestamp():
    t = int(os.environ.get('SOURCE_DATE_EPOCH', '315532800'))   # 1980-01-01: zip's earliest
    return time.gmtime(max(t, 315532800))[:6]


def _write_wheel(directory, entries):
    """entries: (archive name, bytes); RECORD is added last."""
    base = '%s-%s' % (_name(_project()), version())
    dist_info = base + '.dist-info'
    entries = list(entries) + [(dist_info + '/METADATA', metadata().encode()),
                               (dist_info + '/WHEEL', _wheel_text().encode())]
    record = []
    for name, data in entries:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()
        record.append('%s,sha256=%s,%d' % (name, digest, len(data)))
    record.append(dist_info + '/RECORD,,')
    entries.append((dist_info + '/RECORD', ('\n'.join(record) + '\n').encode()))
    filename = base + '-py3-none-any.whl'
    with zipfile.ZipFile(os.path.join(directory, filename), 'w', zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, _timestamp())
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return filename


def _read(path):
    with open(path, 'rb') as f:
        return f.read()


# --- PEP 517 ------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    dist_info = '%s-%s.dist-info' % (_name(_project()), version())
    path = os.path.join(metadata_directory, dist_info)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, 'METADATA'), 'w', encoding='utf-8') as f:
        f.write(metadata())
    with open(os.path.join(path, 'WHEEL'), 'w', encoding='utf-8') as f:
        f.write(_wheel_text())
    return dist_info


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, [(name, _read(full)) for name, full in _package_files()])


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """PEP 660: a .pth file that puts this directory on sys.path (pip install -e)."""
    return _write_wheel(wheel_directory, [('_pmu_editable.pth', (HERE + '\n').encode())])


def build_sdist(sdist_directory, config_settings=None):
    base = '%s-%s' % (_name(_project()), version())
    filename = base + '.tar.gz'
    files = [('pyproject.toml', os.path.join(HERE, 'pyproject.toml')),
             ('README.md', os.path.join(HERE, 'README.md')),
             ('backend/pmu_wheel.py', os.path.abspath(__file__))] + _package_files()
    mtime = int(os.environ.get('SOURCE_DATE_EPOCH', '0'))
    with tarfile.open(os.path.join(sdist_directory, filename), 'w:gz', format=tarfile.PAX_FORMAT) as t:
        members = [('PKG-INFO', metadata().encode())] + [(n, _read(f)) for n, f in files]
        for name, data in members:
            info = tarfile.TarInfo('%s/%s' % (base, name))
            info.size, info.mtime, info.mode = len(data), mtime, 0o644
            t.addfile(info, io.BytesIO(data))
    return filename
