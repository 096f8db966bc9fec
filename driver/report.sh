#!/bin/bash
# report.sh GUESTLOGS CONSOLELOGS QEMU_RCS TREE KNOWN BASEVER DEBVER FLAVOR T0
#
# Turns the boots of one check into a verdict.  GUESTLOGS, CONSOLELOGS and
# QEMU_RCS are comma-separated, one entry per boot.  Each @@RESULT line of
# the guest logs counts once.  Each console log adds named failures of its
# own: an oops, a WARN, a lockdep splat, a KASAN or UBSAN report, a panic,
# a hang (no @@DONE in that boot's guest log) or the watchdog.  A failing
# test listed in the known-failures file (series only) is XFAIL.  The last
# line is "N passed, N failed, N skipped"; exit 1 on any failure.
set -uo pipefail
IFS=, read -r -a GUESTS <<<"$1"
IFS=, read -r -a CONSOLES <<<"$2"
IFS=, read -r -a QRCS <<<"$3"
TREE=$4 KNOWN=$5 BASEVER=$6 DEBVER=$7 FLAVOR=$8 T0=$9
pass=0 fail=0 skip=0 xfail=0
failed=()
cut_short=()
failed_tests=()

known_reason() { # name -> reason, or nothing
	[ "$TREE" = series ] && [ -f "$KNOWN" ] || return 0
	awk -v n="$1" '!/^#/ && $1 == n { $1 = ""; sub(/^ /, ""); print; exit }' "$KNOWN"
}

note_fail() { # name
	fail=$((fail + 1))
	failed+=("$1")
}

while IFS= read -r line; do
	st=${line#@@RESULT }
	name=${st#* }
	st=${st%% *}
	base_name=${name%% (*}
	case $st in
	PASS) pass=$((pass + 1)) ;;
	SKIP) skip=$((skip + 1)) ;;
	FAIL)
		r=$(known_reason "$base_name")
		if [ -n "$r" ]; then
			xfail=$((xfail + 1))
			echo "    XFAIL $base_name: $r"
		else
			note_fail "$name"
			failed_tests+=("$base_name")
		fi
		;;
	esac
done < <(cat "${GUESTS[@]}" | grep -a '^@@RESULT ' | tr -d '\r')

# Console: each kind of splat is one named failure, with its first line.
scan() { # label regex
	local hit
	hit=$(grep -a -m1 -E "$2" "$CONSOLE" | tr -d '\r' | sed 's/^\[[^]]*\] //')
	[ "$CONSOLE" = "${CONSOLES[0]}" ] || hit=${hit:+$hit (boot $(basename "$CONSOLE"))}
	[ -n "$hit" ] && note_fail "console: $1: $hit"
}
for i in "${!GUESTS[@]}"; do
	CONSOLE=${CONSOLES[i]} GUEST=${GUESTS[i]} QRC=${QRCS[i]}
	scan oops 'Oops:|general protection fault|BUG: unable to handle|Unable to handle kernel'
	scan BUG 'kernel BUG at|BUG: [a-zA-Z]+ ?(lock|sleeping|scheduling|KASAN|KFENCE|spinlock|workqueue|soft lockup)'
	scan WARN 'WARNING: CPU: [0-9]+ PID: [0-9]+ at|WARNING: .* at .*\+0x'
	scan lockdep 'possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|possible irq lock inversion|lock held when returning|bad unlock balance|INFO: possible'
	scan KASAN 'BUG: KASAN'
	scan UBSAN 'UBSAN:'
	scan panic 'Kernel panic'
	scan hung 'INFO: task .* blocked for more than|soft lockup|rcu_sched self-detected stall|rcu: INFO:'
	if [ "$QRC" = 124 ] || [ "$QRC" = 137 ]; then
		note_fail "watchdog: $(basename "$GUEST"): the guest did not finish in time (qemu killed)"
		cut_short+=("$i")
	elif ! grep -aq '^@@DONE' "$GUEST"; then
		note_fail "guest: $(basename "$GUEST"): the run did not complete (qemu exit $QRC)"
		cut_short+=("$i")
	fi
done

# The end of each failing test's log, so that a report read alone (a CI
# run's output) says what went wrong.
for t in "${failed_tests[@]}"; do
	echo
	echo "--- end of the log of $t"
	cat "${GUESTS[@]}" | tr -d '\r' |
		awk -v t="$t" '$0 == "--- log of " t || index($0, "--- output of " t " (") == 1 { on = 1; next }
			$0 == "--- end of " t || $0 == "--- end" { on = 0 } on' |
		grep -v '^+ :$' | tail -n 25
	# a test of a kselftest_harness program: its own section of the
	# program's output, from "#  RUN  TEST ..." to its "ok"/"not ok" line
	case $t in prog:*.*)
		prog=${t%% *}
		test=${prog#*.}
		prog=${prog%%.*}
		cat "${GUESTS[@]}" | tr -d '\r' |
			awk -v p="--- output of $prog (" -v t="$test" '
				index($0, p) == 1 { out = 1; next }
				$0 == "--- end" { out = 0 }
				out && $1 == "#" && $2 == "RUN" && ($3 == t || $3 == "global." t) { on = 1 }
				on { print }
				on && $1 ~ /^(ok|not)$/ { on = 0 }' | tail -n 40
		;;
	esac
done

# A boot cut short leaves no test log behind: show where it stood.
for i in "${cut_short[@]}"; do
	echo
	echo "--- last lines of $(basename "${GUESTS[i]}")"
	tail -n 30 "${GUESTS[i]}" | tr -d '\r'
	echo "--- last lines of $(basename "${CONSOLES[i]}")"
	tail -n 60 "${CONSOLES[i]}" | tr -d '\r'
	if [ -s "${CONSOLES[i]}.regs" ]; then
		echo "--- the vCPUs just before the watchdog (QEMU monitor; kernel without KASLR)"
		grep -E '^CPU#|^RIP=|^RSP=|^PC=|^SP_EL' "${CONSOLES[i]}.regs"
	fi
	echo "--- end"
done

echo
if [ ${#failed[@]} -gt 0 ]; then
	echo "Failures:"
	for f in "${failed[@]}"; do echo "    FAIL $f"; done
	echo "  logs: ${GUESTS[*]} (tests), ${CONSOLES[*]} (kernel)"
fi
s=$(($(date +%s) - T0))
printf 'check: Linux %s (Debian %s), %s tree, %s config, %d xfail, total %dm%02ds\n' \
	"$BASEVER" "$DEBVER" "$TREE" "$FLAVOR" $xfail $((s / 60)) $((s % 60))
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
