# bash completion for pmu(1), the libpmu command            -*- shell-script -*-
# SPDX-License-Identifier: MIT
#
# Nothing about the command is written here: subcommands, options and what
# their arguments are come from the command's own help when TAB is pressed,
# so the completion follows the pmu being completed (the one the command line
# names) and never drifts from it:
#   - subcommands: the words indented by at most four spaces in `pmu --help`;
#   - options of CMD: the lines of `pmu CMD --help` that start with '-'
#     ("-e, --events=EVENTS   ..."); where CMD has no --help, the options in
#     the lines of `pmu --help` that start with CMD;
#   - what an option's argument or a positional argument is, from its
#     placeholder: EVENT(S)/NAME an event name (several after commas
#     and braces), METRIC(S) a metric name, FILE a file (FILE.json: *.json),
#     DIR a directory, PID a process, CMD a command (after `--`),
#     KIND/PATTERN/PREFIX (pmu list) any event or metric name, GROUP a
#     performance group of this CPU (or a group file, for a word with a '/');
#     other placeholders (N, MS, NAME=VALUE) get nothing;
#   - event and metric names: `pmu list --json PREFIX` (its "name" and "kind");
#     group names: `pmu list groups --no-desc` (a name a line).
# Installed as share/bash-completion/completions/pmu (loaded on first use).

# _pmu_run PMU ARGS...: run the command, quietly, for at most 3 seconds
_pmu_run() {
	if command -v timeout >/dev/null 2>&1; then
		timeout 3 "$@" 2>&1 </dev/null
	else
		"$@" 2>&1 </dev/null
	fi
}

# _pmu_commands PMU: the subcommands named in `pmu --help`
_pmu_commands() {
	local out
	out=$(_pmu_run "$1" --help | sed -n -E 's/^ {1,4}([a-z][a-z0-9-]*)([ ,]|$).*/\1/p' | sort -u)
	# without a help text: the fixed subcommands of the design (DESIGN.md)
	[ -n "$out" ] || out="info list resolve stat report check-tables"
	printf '%s\n' $out
}

# _pmu_options PMU CMD: "OPTION PLACEHOLDER" lines (placeholder "-" when the option takes none)
_pmu_options() {
	local pmu=$1 cmd=$2 text
	# the option part of each line that starts with '-' (the description follows two spaces)
	text=$(_pmu_run "$pmu" $cmd --help | sed -n -E 's/^[[:space:]]*(-.*)$/\1/p' | sed -E 's/(  |\t).*$//')
	if [ -z "$text" ] && [ -n "$cmd" ]; then
		# no `pmu CMD --help`: the syntax on CMD's lines of `pmu --help`
		text=$(_pmu_run "$pmu" --help | sed -n -E "s/^ {1,4}$cmd( .*)?\$/\\1/p" | sed -E 's/ {2,}.*$//' |
			tr '[]|' '   ')
	fi
	printf '%s\n' "$text" | awk '
		{
			line = $0; n = 0
			while (match(line, /--?[A-Za-z0-9?][A-Za-z0-9-]*/)) {
				pre = substr(line, 1, RSTART - 1); opt = substr(line, RSTART, RLENGTH)
				line = substr(line, RSTART + RLENGTH); c = substr(line, 1, 1)
				# not an option: inside a word ("set-up", "+-") or "-r:" in prose
				if ((pre != "" && pre !~ /[ ,]$/) || (c != "" && c !~ /[ ,=[]/)) continue
				arg = ""
				if (match(line, /^(\[?=| )[A-Z][A-Za-z0-9_.=]*/)) {
					arg = substr(line, RSTART, RLENGTH); sub(/^(\[?=| )/, "", arg)
					line = substr(line, RSTART + RLENGTH)
				}
				alias[++n] = opt
				# "-e, --events=EVENTS": the aliases before a comma share the placeholder
				if (arg != "" || substr(line, 1, 1) != ",") {
					for (i = 1; i <= n; i++) {
						o = alias[i]
						if (!(o in a)) order[++m] = o
						if (!(o in a) || a[o] == "-") a[o] = (arg == "" ? "-" : arg)
					}
					n = 0
				}
			}
		}
		END { for (i = 1; i <= m; i++) print order[i], a[order[i]] }'
}

# _pmu_positional PMU CMD: the placeholder of CMD's positional arguments ("" if none)
_pmu_positional() {
	local pmu=$1 cmd=$2
	{
		_pmu_run "$pmu" "$cmd" --help | sed -n -E "s/^[Uu]sage: *[^ ]*pmu $cmd( .*)?\$/\\1/p"
		_pmu_run "$pmu" --help | sed -n -E "s/^ {1,4}$cmd( .*)?\$/\\1/p"
	} | sed -E 's/ {2,}.*$//; s/[][|]/ & /g' | awk '
		{
			for (i = 1; i <= NF; i++) {
				if ($i == "--") break
				# brackets and bars stay words: in "[--json] NAME" the "]" ends --json, NAME is not its argument
				if ($i == "[" || $i == "]" || $i == "|") continue
				if ($i ~ /^-/) { if ($i !~ /=/ && i < NF && $(i + 1) ~ /^[A-Z]/) i++; continue }
				if ($i ~ /^[A-Z]/ && $i !~ /^OPTIONS?$/) { sub(/\.\.\.$/, "", $i); print $i; exit }
			}
		}' | head -n 1
}

# _pmu_names PMU KIND FRAGMENT: event ("event") or metric ("metric") names starting with FRAGMENT
_pmu_names() {
	local pmu=$1 kind=$2 frag=$3
	_pmu_run "$pmu" list --json "$frag" | awk -v want="$kind" '
		BEGIN { RS = "}" }
		{
			n = ""; k = ""
			if (match($0, /"name"[[:space:]]*:[[:space:]]*"[^"]*"/)) {
				n = substr($0, RSTART, RLENGTH); sub(/^"name"[[:space:]]*:[[:space:]]*"/, "", n); sub(/"$/, "", n)
			}
			if (match($0, /"kind"[[:space:]]*:[[:space:]]*"[^"]*"/)) {
				k = substr($0, RSTART, RLENGTH); sub(/^"kind"[[:space:]]*:[[:space:]]*"/, "", k); sub(/"$/, "", k)
			}
			if (n == "") next
			if (want == "metric" && k != "metric") next
			if (want == "event" && k == "metric") next
			print n
		}'
}

# _pmu_groups PMU: the performance groups of this CPU, a name a line (`pmu list groups --no-desc`, which
# prints no line where there are none; anything not a name is left out)
_pmu_groups() {
	_pmu_run "$1" list groups --no-desc | grep -E '^[A-Za-z0-9_.+-]+$'
}

# _pmu_complete_kind PMU PLACEHOLDER CUR: fill COMPREPLY for an argument of that placeholder
_pmu_complete_kind() {
	local pmu=$1 ph=$2 cur=$3 pre frag kind
	case $ph in
	EVENT|EVENTS|NAME|NAMES) kind=event ;;
	# pmu list's KIND | PATTERN | PREFIX: every name, events and metrics
	PREFIX|KIND|PATTERN) kind=all ;;
	METRIC|METRICS) kind=metric ;;
	*.json|*.JSON) COMPREPLY=($(compgen -f -X '!*.[jJ][sS][oO][nN]' -- "$cur") $(compgen -d -S / -- "$cur"))
		compopt -o filenames -o nospace 2>/dev/null; return ;;
	FILE|FILES|PATH|OUTPUT) COMPREPLY=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null; return ;;
	DIR|DIRECTORY) COMPREPLY=($(compgen -d -- "$cur")); compopt -o filenames 2>/dev/null; return ;;
	PID) COMPREPLY=($(compgen -W "$(command ls /proc 2>/dev/null | grep -E '^[0-9]+$')" -- "$cur")); return ;;
	CMD|COMMAND) COMPREPLY=($(compgen -c -- "$cur")); return ;;
	# a group's name, or with a '/' a group file (pmu stat -g my/GROUP.txt)
	GROUP|GROUPS)
		if [[ $cur == */* || $cur == [.~]* ]]; then
			COMPREPLY=($(compgen -f -X '!*.txt' -- "$cur") $(compgen -d -S / -- "$cur"))
			compopt -o filenames -o nospace 2>/dev/null
		else
			COMPREPLY=($(compgen -W "$(_pmu_groups "$pmu")" -- "$cur"))
		fi
		return ;;
	*) return ;;
	esac
	# a list: complete the name after the last ',' or '{'
	pre=${cur%"${cur##*[,\{]}"}
	frag=${cur##*[,\{]}
	local IFS=$'\n'
	COMPREPLY=($(compgen -P "$pre" -W "$(_pmu_names "$pmu" "$kind" "$frag")" -- "$frag"))
}

_pmu() {
	local cur prev words cword split=false
	if declare -F _init_completion >/dev/null 2>&1; then
		_init_completion -s -n : || return
	else
		cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
		words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
		# readline splits "--events=cy" into "--events" "=" "cy"
		if [ "$cur" = "=" ]; then
			prev=${COMP_WORDS[COMP_CWORD - 1]} cur="" split=true
		elif [ "$prev" = "=" ] && [ "$cword" -ge 2 ]; then
			prev=${COMP_WORDS[COMP_CWORD - 2]} split=true
		fi
	fi
	local pmu=${words[0]} cmd="" ci i
	command -v "$pmu" >/dev/null 2>&1 || return 0
	# the subcommand: the first word after pmu's own options
	for ((i = 1; i < cword; i++)); do
		if [[ ${words[i]} != -* ]]; then cmd=${words[i]} ci=$i; break; fi
	done
	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$(_pmu_options "$pmu" "" | awk '{print $1}')" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_pmu_commands "$pmu")" -- "$cur"))
		fi
		return 0
	fi
	_pmu_commands "$pmu" | grep -qx -- "$cmd" || return 0
	# after "--": a command and its arguments
	for ((i = ci + 1; i < cword; i++)); do
		if [ "${words[i]}" = -- ]; then
			if declare -F _command_offset >/dev/null 2>&1; then
				_command_offset $((i + 1))
			elif [ $((i + 1)) = "$cword" ]; then
				COMPREPLY=($(compgen -c -- "$cur"))
			else
				COMPREPLY=($(compgen -f -- "$cur"))
			fi
			return 0
		fi
	done
	# pmu help COMMAND: pmu's own commands, not the shell's
	if [ "$cmd" = help ]; then
		[ "$cword" = $((ci + 1)) ] && COMPREPLY=($(compgen -W "$(_pmu_commands "$pmu")" -- "$cur"))
		return 0
	fi
	local opts
	opts=$(_pmu_options "$pmu" "$cmd")
	# a command to run (pmu stat ls /tm): the first word that is no option nor an option's argument starts
	# it, and the rest is completed as that command's
	if _pmu_run "$pmu" "$cmd" --help | grep -qE "^[Uu]sage: *[^ ]*pmu $cmd .*(CMD|COMMAND)( |\]|$)"; then
		for ((i = ci + 1; i < cword; i++)); do
			local w=${words[i]} ph
			if [[ $w == -* ]]; then
				ph=$(printf '%s\n' "$opts" | awk -v o="$w" '$1 == o { print $2; exit }')
				[[ $w != *=* && -n $ph && $ph != - ]] && i=$((i + 1)) # its argument
				continue
			fi
			if declare -F _command_offset >/dev/null 2>&1; then
				_command_offset "$i"
			else
				COMPREPLY=($(compgen -f -- "$cur"))
			fi
			return 0
		done
	fi
	# the argument of an option
	if [[ $prev == -* ]]; then
		local ph
		ph=$(printf '%s\n' "$opts" | awk -v o="$prev" '$1 == o { print $2; exit }')
		if [ -n "$ph" ] && [ "$ph" != - ]; then
			_pmu_complete_kind "$pmu" "$ph" "$cur"
			declare -F __ltrim_colon_completions >/dev/null 2>&1 && __ltrim_colon_completions "$cur"
			return 0
		fi
	fi
	$split && return 0
	if [[ $cur == -* ]]; then
		local list
		list=$(printf '%s\n' "$opts" | awk '{print $1}')
		COMPREPLY=($(compgen -W "$list" -- "$cur"))
		return 0
	fi
	_pmu_complete_kind "$pmu" "$(_pmu_positional "$pmu" "$cmd")" "$cur"
	declare -F __ltrim_colon_completions >/dev/null 2>&1 && __ltrim_colon_completions "$cur"
	return 0
} &&
	complete -F _pmu pmu
