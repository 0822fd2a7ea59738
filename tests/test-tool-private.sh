#!/bin/sh
# Issue 41: the pmu command uses libpmu's public API (include/) and the helpers it shares with the
# library (tools/helpers/meson.build names them: textfmt, outtext, resultfile, namelist, editdist,
# jsonparse), nothing else of lib/. Checked three ways: every #include "..." of tools/ is a file of
# tools/ or a helper's header; no file of the command or its reader is compiled with lib/ on the include
# path (compile_commands.json); every pmu__ symbol their objects use is declared in a helper's header.
#   tests/test-tool-private.sh SRCDIR BUILDDIR
set -eu
src=$1 build=$2
status=0
helpers=$(sed -n "s/^tool_helper_names = \[\(.*\)\]/\1/p" "$src/tools/helpers/meson.build" | tr -d "'" | tr ',' ' ')
[ -n "$helpers" ] || { echo "FAIL: no tool_helper_names in tools/helpers/meson.build"; exit 1; }
allowed_fn=$(for h in $helpers; do grep -ho 'pmu__[a-z0-9_]*(' "$src/lib/$h.h" | tr -d '('; done | sort -u)

# 1. includes
for f in "$src"/tools/*.c "$src"/tools/*.h; do
	for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
		ok=false
		[ -f "$src/tools/$inc" ] && case $inc in */*) ;; *) ok=true ;; esac
		for h in $helpers; do [ "$inc" = "$h.h" ] && ok=true; done
		if ! $ok; then
			echo "FAIL: ${f#"$src"/} includes \"$inc\": neither a file of tools/ nor a helper's header"
			status=1
		fi
	done
done

# the helpers' headers, copied for the command, must not reach further into lib/
for h in $helpers; do
	if grep -q '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$src/lib/$h.h"; then
		echo "FAIL: lib/$h.h, a helper's header, includes a header of lib/"
		status=1
	fi
done

# 2. include paths of the command's and its reader's compilations
if [ -f "$build/compile_commands.json" ]; then
	python3 - "$src" "$build" <<'PY' || status=1
import json, os, shlex, sys
src, build = (os.path.realpath(p) for p in sys.argv[1:3])
lib = {os.path.join(src, 'lib'), os.path.join(build, 'lib')}
bad = n = 0
for e in json.load(open(os.path.join(build, 'compile_commands.json'))):
    out = e['output']
    if not out.startswith('tools/') or out.startswith('tools/libpmu-helpers.a.p/'):
        continue
    n += 1
    for a in shlex.split(e['command']):
        if a.startswith('-I') and os.path.realpath(os.path.join(e['directory'], a[2:])) in lib:
            print('FAIL: %s is compiled with %s: lib/ on the include path' % (out, a)); bad = 1
print('include paths: %d compilations of tools/, none with lib/' % n if not bad else '')
sys.exit(bad)
PY
else
	echo "include paths: not checked (no compile_commands.json: not a ninja build)"
fi

# 3. pmu__ symbols the command's objects use or define
objs=$(find "$build/tools" -path '*/libpmu-helpers.a.p' -prune -o -path '*.p/*.o' -print)
[ -n "$objs" ] || { echo "FAIL: no objects of tools/ under $build/tools"; exit 1; }
used=$(nm $objs | awk '$NF ~ /^pmu__/ { print $NF }' | sort -u)
for s in $used; do
	if ! echo "$allowed_fn" | grep -qx "$s"; then
		echo "FAIL: the command uses $s, which no helper's header declares"
		status=1
	fi
done
[ $status = 0 ] && echo "tools/: includes public and helpers' headers only; uses $(echo "$used" | grep -c .) pmu__ functions, all the helpers' ($(echo $helpers))"
exit $status
