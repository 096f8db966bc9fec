#!/bin/sh
# tap.sh NAME: the TAP of a kselftest_harness program, read from stdin, as
# the suite's result lines, "@@RESULT PASS|FAIL|SKIP NAME.TEST" (the
# harness's "global." fixture left out of TEST).  A program that printed no
# plan, a plan of no tests (a -t that names none), or fewer results than
# its plan, is a failure of NAME itself; a program that skips whole
# ("1..0 # SKIP why") is a skip.
awk -v name="$1" '
function out(what, test) {
	sub(/^global\./, "", test)
	print "@@RESULT " what " " name "." test
	seen++
}
/^1\.\.[0-9]+/ {
	plan = substr($1, 4) + 0; planned = 1
	if (plan == 0 && /# SKIP/)
		skipped = 1
	next
}
/^ok [0-9]+ .*# SKIP/ { out("SKIP", $3); next }
/^ok [0-9]+ / { out("PASS", $3); next }
/^not ok [0-9]+ .*# SKIP/ { out("SKIP", $4); next }
/^not ok [0-9]+ / { out("FAIL", $4); next }
END {
	if (!planned)
		print "@@RESULT FAIL " name " (no TAP plan)"
	else if (skipped)
		print "@@RESULT SKIP " name
	else if (plan == 0)
		print "@@RESULT FAIL " name " (no test selected)"
	else if (seen < plan)
		print "@@RESULT FAIL " name " (" seen " of " plan " tests reported)"
}'
