# Shared helpers of the driver: stage lines with elapsed time, logs, keys.
# Sourced by driver/drive; not run on its own.

T0=${T0:-$(date +%s)}
export T0

elapsed() { # seconds -> "1m05s"
	local s=$1
	printf '%dm%02ds' $((s / 60)) $((s % 60))
}

say() { printf '%s\n' "$*"; }

die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

# stage NAME LOG CMD...: run CMD with its output in LOG and print one line
# with the stage's own time.  On failure, name the log and show its tail.
stage() {
	local name=$1 log=$2 t=$(date +%s) rc=0
	shift 2
	mkdir -p "$(dirname "$log")"
	printf '  %-28s ' "$name"
	"$@" >"$log" 2>&1 || rc=$?
	if [ $rc -ne 0 ]; then
		printf 'FAILED after %s (exit %d)\n' "$(elapsed $(($(date +%s) - t)))" $rc
		printf -- '--- last lines of %s ---\n' "$log"
		tail -n 30 "$log"
		printf -- '--- full log: %s ---\n' "$log"
		exit 1
	fi
	printf '%s\n' "$(elapsed $(($(date +%s) - t)))"
}

# key FILES...: a short hash of the contents of FILES (missing ones count as empty)
key() {
	local f
	for f in "$@"; do
		printf '%s\n' "$f"
		if [ -f "$f" ]; then cat "$f"; fi
	done | sha1sum | cut -c1-16
}
