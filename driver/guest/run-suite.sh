#!/bin/sh
# In-guest suite runner.  Reads /guest/suite.list and prints, on stdout
# (the host's guest log), one line per test:
#     @@RESULT PASS|FAIL|SKIP <name>
# followed by the log of each failing test, then @@DONE.  Under BASE=1
# (tkbase=1), tests whose header has a "# series-only:" line are skipped.
FT=/ftrace
TIMEOUT=${TIMEOUT:-600}
base=$(sed -n 's/.*tkbase=\([01]\).*/\1/p' /proc/cmdline)
export TK_BASE=$base
flavor=$(sed -n 's/.*tkflavor=\([a-z]*\).*/\1/p' /proc/cmdline)
only=$(sed -n 's/.*tktests=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')

# uptime in whole seconds, for per-test timings
now() { cut -d. -f1 /proc/uptime; }
result() { echo "@@RESULT $1 $2${T_START:+ ($(($(now) - T_START))s)}"; }

wanted() { # name
	[ -z "$only" ] && return 0
	for p in $only; do
		case $1 in $p) return 0 ;; esac
	done
	return 1
}

run_ftrace() { # path relative to $FT
	name=ftrace:${1#test.d/}
	T_START=
	wanted "$name" || return 0
	if [ "$base" = 1 ] && grep -q '^# series-only:' "$FT/$1"; then
		result SKIP "$name (series only)"
		return
	fi
	rm -rf /tmp/ftlog
	T_START=$(now)
	out=$(cd $FT && timeout $TIMEOUT ./ftracetest -v -l /tmp/ftlog "$1" 2>&1)
	rc=$?
	st=$(echo "$out" | sed -n 's/.*\[\(PASS\|FAIL\|UNRESOLVED\|UNTESTED\|UNSUPPORTED\|XFAIL\|UNDEFINED\)\].*/\1/p' | head -n1)
	case "$rc:$st" in
	0:PASS) result PASS "$name" ;;
	0:UNSUPPORTED|0:UNTESTED) result SKIP "$name ($st)" ;;
	124:*|143:*) result FAIL "$name (timeout after ${TIMEOUT}s)" ;;
	*) result FAIL "$name (${st:-exit $rc})" ;;
	esac
	if [ "$st" != PASS ]; then
		echo "--- log of $name"
		echo "$out"
		echo "--- end of $name"
	fi
}

run_kunit() { # suite module
	wanted "kunit:$1.*" || wanted "kunit:$1" || return 0
	T_START=
	# A suite of the series alone has no module in the base kernel.
	if [ "$base" = 1 ] && ! modinfo -n "$2" >/dev/null 2>&1; then
		result SKIP "kunit:$1 (series only)"
		return
	fi
	if ! modprobe "$2" 2>/tmp/kunit.err; then
		result FAIL "kunit:$1 (modprobe $2: $(cat /tmp/kunit.err))"
		return
	fi
	f=/sys/kernel/debug/kunit/$1/results
	if [ ! -r "$f" ]; then
		result FAIL "kunit:$1 (no results in debugfs)"
		return
	fi
	# Cases are the "ok N name" lines indented once; the suite line is not.
	n=0
	while IFS= read -r line; do
		case "$line" in
		"    ok "*"# SKIP"*) result SKIP "kunit:$1.$(echo "$line" | awk '{print $3}')" ;;
		"    ok "*) result PASS "kunit:$1.$(echo "$line" | awk '{print $3}')"; n=$((n+1)) ;;
		"    not ok "*) result FAIL "kunit:$1.$(echo "$line" | awk '{print $4}')"; n=$((n+1)) ;;
		esac
	done <"$f"
	[ $n -gt 0 ] || result FAIL "kunit:$1 (no cases ran)"
	grep -q '^    not ok' "$f" && { echo "--- kunit $1"; cat "$f"; echo "--- end"; }
	rmmod "$2" 2>/dev/null
}

run_prog() { # name args...
	n=$1; shift
	wanted "prog:$n" || return 0
	T_START=$(now)
	out=$(cd /tmp && timeout $TIMEOUT /guest/$n "$@" 2>&1)
	rc=$?
	# A program may report its own cases as @@RESULT lines; its exit
	# status then only says whether it ran to the end.
	if echo "$out" | grep -q '^@@RESULT'; then
		echo "$out" | grep '^@@RESULT'
		[ $rc = 0 ] || result FAIL "prog:$n (exit $rc)"
	elif [ $rc = 0 ]; then
		result PASS "prog:$n"
	else
		result FAIL "prog:$n (exit $rc)"
	fi
	echo "--- output of prog:$n (exit $rc)"
	echo "$out" | grep -v '^@@RESULT' | tail -n 80
	echo "--- end"
}

echo "guest: $(uname -r), $(nproc) cpus, base=$base flavor=$flavor"
grep -v '^#' /guest/suite.list | while read -r kind a b; do
	case $kind in
	ftrace)
		for t in $(cd $FT && ls $a 2>/dev/null); do
			run_ftrace "$t"
		done
		;;
	kunit) run_kunit "$a" "$b" ;;
	prog) run_prog $a $b ;;
	esac
done

T_START=
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	sleep 5
	echo scan >/sys/kernel/debug/kmemleak
	if [ -s /sys/kernel/debug/kmemleak ]; then
		result FAIL "kmemleak"
		cat /sys/kernel/debug/kmemleak | head -n 200
	else
		result PASS "kmemleak"
	fi
fi
echo "@@DONE"
