#!/bin/bash
# series.sh export|apply-check ...: the series as git format-patch files.
#
#   series.sh export BASEDIR OUTDIR WORKDIR
#       Commit the base tree once in WORKDIR (a git repo), then one commit
#       per step of driver/series/steps, made from the overlay files, the
#       patches and the removals that step's globs claim; write
#       format-patch files with a cover letter to OUTDIR.  Every file of the
#       series must be claimed by exactly one step.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
STEPS=$TOP/driver/series/steps
OVERLAY_DIRS="kernel arch include lib Documentation samples tools"

steps() { grep -v '^#' "$STEPS" | grep -v '^[[:space:]]*$'; }

# every path the series consists of, as "kind path"
series_items() {
	cd "$TOP"
	git ls-files -co --exclude-standard -- $OVERLAY_DIRS | sed 's/^/file /'
	[ -f MAINTAINERS ] && echo "maint MAINTAINERS"
	ls patches/*.patch 2>/dev/null | sed 's/^/patch /'
	[ -f patches/remove.list ] && grep -v '^#' patches/remove.list | grep . | sed 's/^/remove /'
	return 0
}

# the step number whose globs claim PATH (first match), or nothing
claim() {
	local path=$1 nn subj globs g
	# Match the globs as patterns, never expand them to file names
	# (only ever called in a command substitution: a subshell).
	set -f
	while IFS='|' read -r nn subj globs; do
		for g in $globs; do
			# shellcheck disable=SC2053
			if [[ $path == $g ]]; then
				echo "${nn// /}"
				return
			fi
		done
	done < <(steps)
}

base_repo() { # BASEDIR WORKDIR
	local base=$1 w=$2 stamp
	stamp=$(ls "$base"/../.stamp-* 2>/dev/null | head -1)
	if [ -d "$w/.git" ] && [ "$(cat "$w.stamp" 2>/dev/null)" = "$stamp" ]; then
		return 0
	fi
	rm -rf "$w"
	cp -a "$base" "$w"
	cd "$w"
	git init -q
	git config user.name "$(git -C "$TOP" config user.name || echo 'kprobes series')"
	git config user.email "$(git -C "$TOP" config user.email || echo 'kprobes@localhost')"
	git add -A -f
	git commit -q -m "Linux $(sed -n "s/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p" Makefile | paste -sd.) (Debian $(basename "$base"))"
	git tag -f base >/dev/null
	echo "$stamp" >"$w.stamp"
}

apply_step() { # NN: make the step's changes in the current tree
	local nn=$1 kind path
	while read -r kind path; do
		[ "$(claim "$path")" = "$nn" ] || continue
		case $kind in
		remove) git rm -q "$path" ;;
		patch) patch -s -p1 -F3 --no-backup-if-mismatch <"$TOP/$path" ;;
		maint) { echo; cat "$TOP/MAINTAINERS"; } >>MAINTAINERS ;;
		file) mkdir -p "$(dirname "$path")"; cp "$TOP/$path" "$path" ;;
		esac
	done < <(series_items)
}

message() { # NN SUBJECT
	local body=$TOP/driver/series/$1.txt
	echo "$2"
	echo
	if [ -f "$body" ]; then
		cat "$body"
	else
		echo "Part $1 of the kprobe event tracing series; see the cover letter."
	fi
	echo
	echo "Signed-off-by: $(git config user.name) <$(git config user.email)>"
}

do_export() { # BASEDIR OUTDIR WORKDIR
	local base=$1 out=$2 w=$3 kind path c bad=0 nn subj globs
	while read -r kind path; do
		c=$(claim "$path")
		[ -n "$c" ] || { echo "series: no step claims $kind $path"; bad=1; }
	done < <(series_items)
	[ $bad = 0 ] || exit 1
	base_repo "$base" "$w"
	cd "$w"
	git checkout -q -f -B series base
	git clean -q -fdx
	while IFS='|' read -r nn subj globs; do
		nn=${nn// /}
		subj=$(echo "$subj" | sed 's/^ *//; s/ *$//')
		apply_step "$nn"
		git add -A -f
		if git diff --cached --quiet; then
			echo "step $nn: nothing (skipped)"
			continue
		fi
		git commit -q -F <(message "$nn" "$subj")
		echo "step $nn: $(git diff --shortstat HEAD~1 HEAD)"
	done < <(steps)
	rm -rf "$out"
	git format-patch -q --cover-letter -o "$out" base..series
	cover "$out"/0000-cover-letter.patch
	ls "$out"
}

cover() { # fill in the cover letter's subject and blurb
	local f=$1 blurb=$TOP/driver/series/cover.txt
	python3 - "$f" "$blurb" <<'PY'
import sys
f, blurb = sys.argv[1], sys.argv[2]
s = open(f).read()
try:
    b = open(blurb).read().rstrip("\n")
except OSError:
    b = "kprobe event tracing, rewritten."
subject, _, body = b.partition("\n")
s = s.replace("*** SUBJECT HERE ***", subject.strip())
s = s.replace("*** BLURB HERE ***", body.strip("\n"))
open(f, "w").write(s)
PY
}

#   series.sh checkpatch TREE PATCHES...
#       The tree's scripts/checkpatch.pl --strict on each patch; prints a
#       line per patch and fails when any has an error.
do_checkpatch() {
	local tree=$1 p out e w errs=0
	shift
	for p in "$@"; do
		out=$(cd "$tree" && ./scripts/checkpatch.pl --strict --no-color "$p" 2>&1 || true)
		e=$(echo "$out" | sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings.*/\1/p' | tail -1)
		w=$(echo "$out" | sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings.*/\2/p' | tail -1)
		printf '  %-70s %s errors, %s warnings\n' "$(basename "$p")" "${e:-?}" "${w:-?}"
		echo "$out" >"$p.checkpatch"
		[ "${e:-1}" = 0 ] || errs=$((errs + 1))
	done
	[ $errs = 0 ]
}

case ${1:-} in
export) shift; do_export "$@" ;;
checkpatch) shift; do_checkpatch "$@" ;;
*) echo "usage: series.sh export BASEDIR OUTDIR WORKDIR | checkpatch TREE PATCHES..."; exit 2 ;;
esac
