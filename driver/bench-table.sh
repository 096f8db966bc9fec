#!/bin/bash
# bench-table.sh BUILD BASEVER DEBVER ARCH SUFFIX FLAVOR LOOPS: the table of
# `make bench`, in Markdown, from build/bench-{series,base}SUFFIX-ic{1,0}.txt
# (lines "key value unit").
set -euo pipefail
B=$1 BASEVER=$2 DEBVER=$3 KARCH=${4:-x86_64} SUFFIX=${5:-} FLAVOR=${6:-plain}
LOOPS=${7:-200000}

# key | label | target ratio (series/base), "-" for none
ROWS='loop_target|one loop iteration, no probe (reference)|-
entry_noargs|entry probe, no args (ftrace path)|0.85
entry_4args|entry probe, 4 args (registers, a dereference, $comm)|0.6
entry_kstring|entry probe, a kernel string|0.5
entry_ustring|entry probe, a user string|0.5
mid_int3|mid-function probe, int3, not boosted (a load with a fixup)|0.85
mid_int3_boosted|mid-function probe, int3, boosted|0.85
mid_optimized|mid-function probe, optimized to a jump|-
return_retval|return probe with $retval|0.8
return_noargs|return probe, no args (reference)|-
bare_kprobe|bare kprobe, empty handler, no event (reference)|-
bare_kretprobe|bare kretprobe, empty handlers, no event (reference)|-
multiprobe|multiprobe event (2 probes, 1 hit)|-
multiplace|event over 1001 functions, 1 hit (series only)|-
filter_rejects|4-arg event, filter rejects every hit|0.5
eprobe_field|event probe on the tracepoint, a field dereference|0.5
eprobe_noargs|the same event probe, no args (reference)|-
fprobe_4args|fprobe event, $arg1..$arg4|0.8
uprobe_2args_ustring|uprobe event on a function of the bench program, 2 args and a user string|0.8
uprobe_noargs|the same uprobe event, no args (reference)|-
tracepoint|static tracepoint record (no probe), for comparison|-
tracepoint_trigger_only|the tracepoint record built for a condition trigger only, nothing written (reference)|-
define_100|define 100 probes (one write)|-
enable_100|enable 100 probes|-
disable_100|disable 100 probes|-
delete_truncate_100|delete 100 probes, one truncating write|-
delete_each_100|delete 100 probes, one -: write each|-
define_1000|define 1000 probes (one write)|-
enable_1000|enable 1000 probes|-
disable_1000|disable 1000 probes|-
delete_truncate_1000|delete 1000 probes, one truncating write|0.1
delete_each_1000|delete 1000 probes, one -: write each|-
slab_per_event|slab growth per defined event|-
slab_per_armed_probe|slab growth per armed probe|-
glob_1000_define_enable|one event over 1000 functions: define and enable, ms (series only; target 100)|-
glob_1000_disable|the same: disable, ms|-
glob_1000_delete|the same: delete, ms (target 50)|-
glob_1000_slab_per_place|the same: slab per place, bytes (target 256)|-
glob_1000_vmalloc_per_place|the same: vmalloc per place, bytes|-
glob_kernel_places|one event over [a-k]* of the kernel: places|-
glob_kernel_define_enable|the same: define and enable, ms|-
glob_kernel_disable|the same: disable, ms|-
glob_kernel_delete|the same: delete, ms|-
glob_kernel_slab_per_place|the same: slab per place, bytes|-
glob_kernel_vmalloc_per_place|the same: vmalloc per place, bytes|-'

val() { # file key -> "value unit" or "n/a"
	# the last figure of a key counts; lines may end in \r (serial console)
	awk -v k="$2" '{ sub(/\r$/, "") } $1 == k { v = $2 " " $3; f = 1 } END { print f ? v : "n/a" }' "$1" 2>/dev/null ||
		echo "n/a"
}

table() { # icount
	local ic=$1 key label target s b sv bv unit ratio verdict
	echo "| what | series | base | series/base | target |"
	echo "|---|---:|---:|---:|---|"
	while IFS='|' read -r key label target; do
		s=$(val "$B/bench-series$SUFFIX-ic$ic.txt" "$key")
		b=$(val "$B/bench-base$SUFFIX-ic$ic.txt" "$key")
		sv=${s% *} bv=${b% *} unit=${s#* }
		[ "$s" = n/a ] && unit=${b#* }
		ratio=$(awk -v s="$sv" -v b="$bv" 'BEGIN {
			if (s == "n/a" || b == "n/a" || b + 0 == 0) print "-";
			else printf "%.2f", s / b }')
		verdict=""
		# targets are judged on instruction counts only
		if [ "$ic" = 0 ]; then
			[ "$target" != - ] && verdict="($target)"
		elif [ "$target" != - ] && [ "$ratio" != - ]; then
			verdict=$(awk -v r="$ratio" -v t="$target" 'BEGIN {
				print (r <= t) ? "<= " t " met" : "<= " t " MISSED" }')
		elif [ "$target" != - ]; then
			verdict="<= $target"
		fi
		echo "| $label | $sv $unit | $bv $unit | $ratio | $verdict |"
	done <<<"$ROWS"
}

echo "### make bench, $(date -u +%Y-%m-%d), $KARCH, Linux $BASEVER (Debian linux-source-${BASEVER%.*} $DEBVER), $FLAVOR config"
echo
echo "Guest time under QEMU -icount shift=0,sleep=off: 1 ns is one guest"
echo "instruction, so per-hit figures are added instructions per hit and repeat"
echo "exactly. Best of 3 loops of $LOOPS calls."
echo
table 1
echo
ratio() { # tree: its entry probe against its own static tracepoint
	awk -v e="$(val "$B/bench-$1$SUFFIX-ic1.txt" entry_noargs)" \
	    -v t="$(val "$B/bench-$1$SUFFIX-ic1.txt" tracepoint)" 'BEGIN {
		split(e, a, " "); split(t, b, " ")
		if (a[1] == "n/a" || b[1] == "n/a" || b[1] + 0 == 0) print "-";
		else printf "%.2f", a[1] / b[1] }'
}
echo "Entry probe with no args against the static tracepoint record, in the"
echo "same kernel (target: at most 1): series $(ratio series), base $(ratio base)."
echo
SELF_KEYS='entry_noargs entry_4args entry_kstring entry_ustring mid_int3 mid_int3_boosted
mid_optimized return_retval return_noargs multiprobe multiplace filter_rejects'
self_table() { # icount: kprobe_cost's own figure against the measured one
	local ic=$1 f="$B/bench-series$SUFFIX-ic$1.txt" key m s r ok=0 n=0 verdict
	echo "| scenario | measured | kprobe_cost says | self/measured | within 25% |"
	echo "|---|---:|---:|---:|---|"
	for key in $SELF_KEYS; do
		m=$(val "$f" "$key") s=$(val "$f" "self_$key") r=$(val "$f" "self_ratio_$key")
		[ "$s" = n/a ] && continue
		n=$((n + 1))
		verdict=$(awk -v r="${r% *}" 'BEGIN {
			if (r == "n/a") print "-"; else print (r >= 0.75 && r <= 1.25) ? "yes" : "NO" }')
		[ "$verdict" = yes ] && ok=$((ok + 1))
		echo "| $key | ${m% *} ns | ${s% *} ns | ${r% *} | $verdict |"
	done
	echo
	echo "Within 25%: $ok of $n scenarios."
}

sampling_rows() { # icount: what sampling adds
	local f="$B/bench-series$SUFFIX-ic$1.txt" key
	echo "One read of sched_clock(), the clock sampled twice per sample: $(val "$f" clock_read)."
	echo
	echo "| probe | hit, sampling off | hit, every hit sampled | a sampled hit's extra | one in 64 (default), per hit |"
	echo "|---|---:|---:|---:|---:|"
	for key in entry_noargs mid_int3 return_noargs; do
		[ "$(val "$f" "sampling_off_$key")" = n/a ] && continue
		echo "| $key | $(val "$f" "sampling_off_$key" | cut -d' ' -f1) ns |" \
		     "$(val "$f" "sampling_all_$key" | cut -d' ' -f1) ns |" \
		     "$(val "$f" "sampling_extra_pct_$key" | cut -d' ' -f1) % |" \
		     "$(val "$f" "sampling_default_extra_$key" | cut -d' ' -f1) ns |"
	done
}

echo "What kprobe_cost reports (the kprobes core's sampled mean, one hit in 64)"
echo "against the measured added cost, series, under -icount:"
echo
self_table 1
echo
echo "What the sampling costs (series, -icount; target: a sampled hit under 2% more):"
echo
sampling_rows 1
echo
echo "Wall clock without -icount (TCG, noisy: for orientation only):"
echo
table 0
