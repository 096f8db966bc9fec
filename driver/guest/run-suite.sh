#!/bin/sh
# In-guest suite runner.  Reads /guest/suite.list and prints, on stdout
# (the host's guest log), one line per test:
#     @@RESULT PASS|FAIL|SKIP <name>
# followed by the log of each failing test, then @@DONE.  An ftrace test
# that ftracetest finds UNSUPPORTED (under BASE=1, those whose "# requires:"
# names a README line or a file of the series) is skipped; tests with an
# "# on-demand:" line run only when TESTS= names them or under ONDEMAND=1
# (tkondemand=1).
FT=/ftrace
TIMEOUT=${TIMEOUT:-600}
base=$(sed -n 's/.*tkbase=\([01]\).*/\1/p' /proc/cmdline)
export TK_BASE=$base
flavor=$(sed -n 's/.*tkflavor=\([a-z]*\).*/\1/p' /proc/cmdline)
only=$(sed -n 's/.*tktests=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')
ondemand=$(sed -n 's/.*tkondemand=\([01]\).*/\1/p' /proc/cmdline)
# tkshard=I/N: this guest runs the I-th of every N selected tests
shard=$(sed -n 's/.*tkshard=\([0-9]*\/[0-9]*\).*/\1/p' /proc/cmdline)
shard_i=${shard%/*} shard_n=${shard#*/}
[ -n "$shard" ] || shard_i=1 shard_n=1
picked=0

# uptime in whole seconds, for per-test timings
now() { cut -d. -f1 /proc/uptime; }
result() { echo "@@RESULT $1 $2${T_START:+ ($(($(now) - T_START))s)}"; }

wanted() { # name
	[ -z "$only" ] && return 0
	set -f	# the patterns are for case, not for the file system
	for p in $only; do
		case $1 in $p) set +f; return 0 ;; esac
	done
	set +f
	return 1
}

# wanted_all PREFIX: a test made of parts (a KUnit suite's cases, a
# harness program's tests) runs whole when TESTS= names it or any part.
wanted_all() { # prefix
	[ -z "$only" ] && return 0
	wanted "$1" || wanted "$1.*" && return 0
	set -f
	for p in $only; do
		case $p in "$1".*) set +f; return 0 ;; esac
	done
	set +f
	return 1
}

# stat_of DIR: the fields of DIR/stat after the comm (state, ppid, pgrp,
# session, ...) in STAT; false if the task is gone.  No fork: it runs for
# every task after every test.
stat_of() {
	local line
	read -r line 2>/dev/null <"$1/stat" || return 1
	STAT=${line##*") "}
}

# Where every task is, for a test that overran: state, wait channel and,
# for tasks that are not plainly sleeping or that belong to the test, the
# kernel stack.
task_dump() { # session of the test
	local d
	echo "--- tasks at the timeout (pid state comm wchan)"
	for d in /proc/[0-9]*; do
		stat_of $d || continue
		set -- $STAT
		[ $# -gt 4 ] || continue
		echo "${d#/proc/} $1 $(cat $d/comm 2>/dev/null) $(cat $d/wchan 2>/dev/null)"
		case "$1:$4" in
		S:"$TEST_PGID"|R:*|D:*|T:*) sed 's/^/        /' $d/stack 2>/dev/null ;;
		esac
	done
	echo "--- kprobes/list"
	head -n 40 /sys/kernel/debug/kprobes/list 2>/dev/null
	echo "--- kernel log"
	dmesg | tail -n 40
	echo "--- end of the dump"
}

# kill_session SIGNAL SID: signal every task of a session.  A kselftest
# harness runs each test in a process group of its own, which a kill of
# the session's first group misses.
kill_session() {
	local d sig=$1 sid=$2
	for d in /proc/[0-9]*; do
		stat_of $d || continue
		set -- $STAT
		[ "${4:-}" = "$sid" ] && kill -$sig ${d#/proc/} 2>/dev/null
	done
	return 0
}

# run_bounded OUTFILE CMD...: run CMD in a session of its own with its
# output in OUTFILE; after $TIMEOUT seconds dump the tasks and kill the
# whole session, TERM then KILL.  Whatever the test left running in the
# background is killed too, so it can neither hold our output open nor
# disturb the next test.  Exit status: CMD's, or 124 on a timeout.
run_bounded() {
	local file=$1 wd rc
	shift
	rm -f /tmp/bounded.timeout
	setsid "$@" >"$file" 2>&1 </dev/null &
	TEST_PGID=$!
	(sleep $TIMEOUT & s=$!
	 trap "kill \$s 2>/dev/null; exit 0" TERM
	 wait $s
	 kill -0 $TEST_PGID 2>/dev/null || exit 0
	 trap '' TERM
	 touch /tmp/bounded.timeout; task_dump >>"$file"
	 kill_session TERM $TEST_PGID; sleep 5; kill_session KILL $TEST_PGID) &
	wd=$!
	wait $TEST_PGID
	rc=$?
	if [ -e /tmp/bounded.timeout ]; then
		wait $wd	# its TERM, the grace, its KILL
		rc=124
	else
		kill $wd 2>/dev/null
	fi
	kill_session KILL $TEST_PGID
	return $rc
}

run_ftrace() { # path relative to $FT
	name=ftrace:${1#test.d/}
	T_START=
	wanted "$name" || return 0
	# a test whose header has "# on-demand:" runs only when named
	[ -z "$only$ondemand" ] && grep -q '^# on-demand:' "$FT/$1" && return 0
	rm -rf /tmp/ftlog
	T_START=$(now)
	run_bounded /tmp/ftout sh -c "cd $FT && exec ./ftracetest -v -k -l /tmp/ftlog $1"
	rc=$?
	out=$(cat /tmp/ftout)
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
		# -k keeps the case log (set -x trace) even when ftracetest
		# does not print it, e.g. for UNRESOLVED
		cat /tmp/ftlog/*-log.* 2>/dev/null | tail -n 200
		echo "--- end of $name"
	fi
}

run_kunit() { # suite module [machine]
	[ -z "$3" ] || [ "$3" = "$(uname -m)" ] || return 0
	wanted_all "kunit:$1" || return 0
	T_START=
	# A suite of the series alone has no module in the base kernel.
	if [ "$base" = 1 ] && ! tr _ - </lib/modules/$(uname -r)/modules.dep |
		grep -q "/$(echo "$2" | tr _ -)\.ko:"; then
		result SKIP "kunit:$1 (series only)"
		return
	fi
	if ! modprobe "$2" 2>/tmp/kunit.err; then
		result FAIL "kunit:$1 (modprobe $2: $(cat /tmp/kunit.err))"
		echo "--- kernel log after modprobe $2"
		dmesg | tail -n 20
		echo "--- end"
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
	wanted_all "prog:$n" || return 0
	T_START=$(now)
	(cd /tmp && run_bounded /tmp/progout /guest/$n "$@")
	rc=$?
	out=$(cat /tmp/progout)
	# A kselftest_harness program reports its tests in TAP; its exit
	# status then says no more than they do, unless none failed.
	if echo "$out" | grep -q '^TAP version'; then
		tap=$(echo "$out" | sh /guest/tap.sh "prog:$n")
		echo "$tap"
		if [ $rc != 0 ] && ! echo "$tap" | grep -q '^@@RESULT FAIL'; then
			result FAIL "prog:$n (exit $rc)"
		fi
	elif [ $rc = 0 ]; then
		result PASS "prog:$n"
	else
		result FAIL "prog:$n (exit $rc)"
	fi
	echo "--- output of prog:$n (exit $rc)"
	echo "$out" | tail -n 80
	echo "--- end"
}

echo "guest: $(uname -r), $(nproc) cpus, base=$base flavor=$flavor, shard $shard_i of $shard_n"
# mine: does the next selected test fall to this guest's shard?
mine() {
	picked=$((picked + 1))
	[ $(((picked - 1) % shard_n + 1)) = "$shard_i" ]
}

grep -v '^#' /guest/suite.list | while read -r kind a b; do
	case $kind in
	ftrace)
		for t in $(cd $FT && ls $a 2>/dev/null); do
			wanted "ftrace:${t#test.d/}" && mine && run_ftrace "$t"
		done
		;;
	# shellcheck disable=SC2086 # the module, then the machine if any
	kunit) wanted_all "kunit:$a" && mine && run_kunit "$a" $b ;;
	prog) wanted_all "prog:$a" && mine && run_prog $a $b ;;
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
