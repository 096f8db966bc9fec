# SPDX-License-Identifier: GPL-2.0
# docs_examples.sh - run the examples of a Documentation/trace/*.rst guide.
#
# Sourced (not run) by the docs_*.tc tests, which call
#     docs_run_examples RST TAG MODE
# An example is the first literal block after a comment line
#     .. TAG example: NAME
#     .. TAG example: NAME (series-only)
# MODE "base" runs the examples without "(series-only)" and skips the
# others, MODE "series" runs only those.  In the block, a line "# CMD" is
# a command run in the tracefs directory (a following "> MORE" line goes
# on with it, as the shell's prompt shows it), and the lines after it are
# what the command must print, stdout and stderr together:
#     ...        on a line of its own: any number of lines
#     a...b      inside a line: any text in place of the dots
# Before comparing, both sides get tabs expanded and trailing blanks cut,
# and trace lines lose what changes from run to run: the PID, the CPU,
# the flags and the timestamp ("cat-97  [001] ..... 12.5: " becomes
# "cat-PID [CPU] FLAGS TIME: "), and "SYM+0x1f/0x80" loses the offset and
# size, which change from build to build ("SYM+OFF/SIZE"), and so does
# the caller a return record names, which inlining decides ("(CALLER+OFF/
# SIZE <- FUNC)"; fetch_retprobe.tc checks the caller); error_log
# timestamps become "[TIME]".  What shells say about a failed write or
# open differs: both sides become "sh: write error: ERROR" and
# "sh: FILE: ERROR".  The commands of one example run in one shell, one
# after the other; the tracing state is reset between examples.  A
# mismatch prints both sides and fails the test at the end, after the
# other examples have run.

# Split RST into $2/N.sh (the commands, with separators) and $2/N.exp (the
# expected lines, with the same separators), one pair per example; $2/list
# gets "N NAME KIND" lines (KIND: base or series).
docs_extract() { # rst tag dir
	awk -v tag="$2" -v dir="$3" '
	function indent_of(s) { match(s, /^ */); return RLENGTH }
	function flush_cmd() {
		if (cmd == "")
			return
		ncmd++
		printf("echo \"@@CMD %d\"\n%s\n", ncmd, cmd) > shf
		printf("@@CMD %d\n", ncmd) > outf
		cmd = ""
	}
	function finish() {
		flush_cmd()
		if (ncmd == 0)
			printf("no commands\n") > (dir "/" n ".bad")
		close(shf); close(outf)
		state = 0
	}
	BEGIN { marker = "^\\.\\. " tag " example: "; n = 0; state = 0 }
	{
		line = $0
		if (state == 2) {		# inside the literal block
			if (line ~ /^[ \t]*$/) { blanks++; next }
			if (indent_of(line) <= para) {
				finish()
			} else {
				if (blk < 0)
					blk = indent_of(line)
				for (; blanks > 0; blanks--)
					if (ncmd || cmd != "")
						pending[++np] = ""
				blanks = 0
				text = substr(line, blk + 1)
				if (text ~ /^# / || text == "#") {
					flush_cmd()
					for (i = 1; i <= np; i++) delete pending[i]
					np = 0
					cmd = substr(text, 3)
					incmd = 1
				} else if (incmd && text ~ /^> /) {
					cmd = cmd "\n" substr(text, 3)
				} else {
					if (cmd == "" && ncmd == 0)
						printf("output before a command: %s\n", text) > (dir "/" n ".bad")
					flush_cmd()
					for (i = 1; i <= np; i++) print pending[i] > outf
					np = 0
					incmd = 0
					print text > outf
				}
				next
			}
		}
		if (state == 1 && line ~ /::[ \t]*$/) {
			state = 2; para = indent_of(line); blk = -1
			blanks = 0; np = 0; incmd = 0
			next
		}
		if (line ~ marker) {
			if (state)
				finish()
			name = line
			sub(marker, "", name)
			kind = "base"
			if (name ~ /\(series-only\)/) {
				kind = "series"
				sub(/ *\(series-only\)/, "", name)
			}
			sub(/[ \t]+$/, "", name)
			n++
			shf = dir "/" n ".sh"; outf = dir "/" n ".exp"
			printf("") > shf; printf("") > outf
			print n, name, kind > (dir "/list")
			ncmd = 0; cmd = ""; state = 1
		}
	}
	END { if (state) finish() }
	' "$1"
}

# Normalize expected or actual output (see the header).
docs_normalize() { # file
	expand "$1" | awk '
	{
		sub(/[ \t]+$/, "")
		if (match($0, /^ *[^ ].*-[0-9]+ +\[[0-9]+\] [^ ]+ +[0-9]+\.[0-9]+: /)) {
			head = substr($0, 1, RLENGTH)
			rest = substr($0, RLENGTH + 1)
			sub(/-[0-9]+ +\[[0-9]+\] [^ ]+ +[0-9]+\.[0-9]+: $/, "", head)
			sub(/^ +/, "", head)
			$0 = head "-PID [CPU] FLAGS TIME: " rest
		}
		sub(/^\[ *[0-9]+\.[0-9]+\] /, "[TIME] ")
		gsub(/\+0x[0-9a-f]+\/0x[0-9a-f]+/, "+OFF/SIZE")
		gsub(/\([A-Za-z0-9_.]+\+OFF\/SIZE <- /, "(CALLER+OFF/SIZE <- ")
		if (match($0, /write error: /))
			$0 = "sh: " substr($0, RSTART)
		else if (match($0, /(can.t|cannot) create /))
			$0 = "sh: " substr($0, RSTART + RLENGTH)
		else if (match($0, /^[^ ]*: (eval: )?line [0-9]+: /))
			$0 = "sh: " substr($0, RSTART + RLENGTH)
		print
	}'
}

# Compare normalized expected ($1) and actual ($2) output, section by
# section; print what differs.  Exit status 0 when they match.
docs_compare() { # exp got
	awk -v expf="$1" -v gotf="$2" '
	function load(f, L, C,    s, k, line, i) {
		s = 0
		while ((getline line < f) > 0) {
			if ((i = index(line, "@@CMD ")) > 0) {
				if (i > 1)
					L[s, ++C[s]] = substr(line, 1, i - 1)
				s = substr(line, i + 6) + 0
				C[s] = 0
				continue
			}
			L[s, ++C[s]] = line
		}
		close(f)
		return s
	}
	function lmatch(e, g,    p, k, t, pos, rest, i) {
		if (index(e, "...") == 0)
			return e == g
		k = split(e, p, "[.][.][.]")
		if (substr(g, 1, length(p[1])) != p[1])
			return 0
		pos = length(p[1]) + 1
		for (t = 2; t < k; t++) {
			i = index(substr(g, pos), p[t])
			if (i == 0)
				return 0
			pos += i - 1 + length(p[t])
		}
		rest = substr(g, pos)
		return length(rest) >= length(p[k]) &&
		       substr(rest, length(rest) - length(p[k]) + 1) == p[k]
	}
	function show(s, why,    i) {
		printf "  command %d: %s\n", s, why
		printf "  --- expected\n"
		for (i = 1; i <= EC[s]; i++) printf "  |%s\n", E[s, i]
		printf "  --- got\n"
		for (i = 1; i <= GC[s]; i++) printf "  |%s\n", G[s, i]
		bad = 1
	}
	function section(s,    i, j) {
		while (EC[s] > 0 && E[s, EC[s]] == "")
			EC[s]--
		while (GC[s] > 0 && G[s, GC[s]] == "")
			GC[s]--
		i = 1; j = 1
		while (i <= EC[s]) {
			if (E[s, i] == "...") {
				while (i <= EC[s] && E[s, i] == "...")
					i++
				if (i > EC[s])
					return
				while (j <= GC[s] && !lmatch(E[s, i], G[s, j]))
					j++
				if (j > GC[s])
					return show(s, "no line matches \"" E[s, i] "\"")
			} else if (j > GC[s] || !lmatch(E[s, i], G[s, j])) {
				return show(s, "line " j " differs from \"" E[s, i] "\"")
			}
			i++; j++
		}
		if (j <= GC[s])
			show(s, "unexpected line " j ": \"" G[s, j] "\"")
	}
	BEGIN {
		ne = load(expf, E, EC)
		ng = load(gotf, G, GC)
		if (ng != ne)
			printf "  ran %d of %d commands\n", ng, ne
		if (ng != ne)
			bad = 1
		for (i = 1; i <= GC[0]; i++) {
			printf "  before the first command: %s\n", G[0, i]
			bad = 1
		}
		for (s = 1; s <= ne; s++)
			section(s)
		exit bad
	}'
}

# Put the tracing state back between examples.
docs_reset() {
	initialize_ftrace >/dev/null 2>&1
	echo > error_log 2>/dev/null
	# kprobes.rst switches kprobes off and loads a sample module
	if [ -w /sys/kernel/debug/kprobes/enabled ]; then
		echo 1 > /sys/kernel/debug/kprobes/enabled
	fi
	rmmod kprobe_example >/dev/null 2>&1
	return 0
}

# Where Documentation/trace/NAME is: $KP_DOCS_DIR, the guest's /docs, or
# the kernel tree around this ftracetest.  Prints nothing when none has it.
docs_find() { # name
	local d
	for d in "${KP_DOCS_DIR:-}" /docs "$FTRACETEST_ROOT/../../../../Documentation/trace"; do
		if [ -n "$d" ] && [ -r "$d/$1" ]; then
			echo "$d/$1"
			return
		fi
	done
}

docs_run_examples() { # rst tag mode
	set +e +x
	docs_ran=0 docs_failed=0 docs_skipped=0
	docs_dir=$(mktemp -d "${TMPDIR:-/tmp}/docs_examples.XXXXXX")
	if [ ! -r "$1" ]; then
		echo "docs: $1 is missing"
		docs_failed=1
	else
		docs_extract "$1" "$2" "$docs_dir"
		[ -s "$docs_dir/list" ] ||
			echo "docs: no examples tagged \"$2\" in $1"
		touch "$docs_dir/list"
	fi
	while read -r n name kind; do
		if [ "$kind" != "$3" ]; then
			docs_skipped=$((docs_skipped + 1))
			continue
		fi
		docs_ran=$((docs_ran + 1))
		if [ -e "$docs_dir/$n.bad" ]; then
			echo "FAIL example $name: $(cat "$docs_dir/$n.bad")"
			docs_failed=$((docs_failed + 1))
			continue
		fi
		docs_reset
		script=$(cat "$docs_dir/$n.sh")
		( eval "$script" ) > "$docs_dir/$n.out" 2>&1 < /dev/null
		docs_normalize "$docs_dir/$n.exp" > "$docs_dir/$n.e"
		docs_normalize "$docs_dir/$n.out" > "$docs_dir/$n.g"
		if docs_compare "$docs_dir/$n.e" "$docs_dir/$n.g"; then
			echo "ok   example $name"
		else
			echo "FAIL example $name"
			docs_failed=$((docs_failed + 1))
		fi
	done < "$docs_dir/list"
	docs_reset
	echo "docs: $docs_ran examples run, $docs_failed failed, $docs_skipped skipped"
	rm -rf "$docs_dir"
	set -e -x
	[ "$docs_ran" -gt 0 ] && [ "$docs_failed" -eq 0 ]
}
