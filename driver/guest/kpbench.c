// SPDX-License-Identifier: GPL-2.0
/*
 * kpbench - the guest half of `make bench`.
 *
 * Needs the kpbench_mod module loaded.  For each scenario it defines kprobe
 * events on the module's functions, runs the module's loop N times with the
 * events enabled and with nothing enabled, and prints the added cost of one
 * hit.  The uprobe scenario probes a function of this program instead
 * (kpb_user_fn, called from kpb_user_loop), at its file offset in
 * /proc/self/exe.  Then it times defining, enabling, disabling and deleting 100 and 1000
 * probes, and the slab memory they take.  For each kprobe event scenario it
 * also prints what kprobe_cost says a hit costs (self_KEY) and its ratio to
 * the measured figure, and it measures what the cost sampling itself adds
 * (sampling_*).  Every figure is a line
 *     @@BENCH <key> <value> <unit>
 * Under QEMU -icount shift=0 a nanosecond of guest time is one instruction,
 * so "ns" figures read as instructions and repeat from run to run.
 *
 *     kpbench [LOOPS [KEYS]]
 *
 * KEYS, a comma-separated list of figure names ("registration" for all
 * the registration figures), runs only those; the default runs them all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TR "/sys/kernel/tracing/"
#define RUN "/sys/kernel/debug/kpbench/run"
#define REPEAT 3

static unsigned long loops = 200000;
static const char *only;	/* KEYS, or NULL for every figure */

/* Is the figure @key asked for? */
static int wanted(const char *key)
{
	size_t n = strlen(key);
	const char *p = only;

	if (!only)
		return 1;
	while ((p = strstr(p, key))) {
		if ((p == only || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

static void die(const char *what)
{
	fprintf(stderr, "kpbench: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* write @s to @path (O_TRUNC if @trunc); returns 0 or -errno */
static int put(const char *path, const char *s, int trunc)
{
	int fd = open(path, O_WRONLY | (trunc ? O_TRUNC : O_APPEND));
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	return 0;
}

static void must(const char *path, const char *s, int trunc)
{
	int err = put(path, s, trunc);

	if (err) {
		errno = -err;
		fprintf(stderr, "kpbench: writing '%s' to %s\n", s, path);
		system("cat " TR "error_log >&2");
		die(path);
	}
}

static unsigned long long read_ull(const char *path)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY);

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) < 0)
		die(path);
	close(fd);
	return strtoull(buf, NULL, 10);
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* The uprobe target: two numbers and a user string, as a caller passes them. */
__attribute__((noinline)) long kpb_user_fn(long a, long b, const char *s)
{
	asm volatile("" : : "r"(s) : "memory");
	return a + b;
}

static const char kpb_user_str[] = "/home/user/src/kprobe-bench/user-string";

static unsigned long long kpb_user_loop(void)
{
	unsigned long long t0 = now_ns();
	unsigned long i;
	long sum = 0;

	for (i = 0; i < loops; i++)
		sum += kpb_user_fn(i, 2 * i, kpb_user_str);
	asm volatile("" : : "r"(sum));
	return now_ns() - t0;
}

/* kpb_user_fn's offset in the file /proc/self/exe maps it from */
static unsigned long kpb_user_offset(void)
{
	unsigned long addr = (unsigned long)kpb_user_fn, lo, hi, off;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %*s %lx", &lo, &hi, &off) == 3 &&
		    addr >= lo && addr < hi) {
			fclose(f);
			return addr - lo + off;
		}
	}
	errno = ENOENT;
	die("kpb_user_fn in /proc/self/maps");
	return 0;
}

/* one loop of the module; the written text doubles as the user string */
static unsigned long long loop_ns(const char *what)
{
	char cmd[160];
	int fd;

	if (!strcmp(what, "user"))
		return kpb_user_loop();
	snprintf(cmd, sizeof(cmd), "%s %lu /home/user/src/kprobe-bench/user-string",
		 what, loops);
	fd = open(RUN, O_WRONLY);
	if (fd < 0 || write(fd, cmd, strlen(cmd) + 1) < 0)
		die(RUN);
	close(fd);
	return read_ull(RUN);
}

static unsigned long long best_ns(const char *what)
{
	unsigned long long best = ~0ULL, t;
	int i;

	for (i = 0; i < REPEAT; i++) {
		put(TR "trace", "", 1);
		t = loop_ns(what);
		if (t < best)
			best = t;
	}
	return best;
}

static void report(const char *key, double value, const char *unit)
{
	printf("@@BENCH %s %.1f %s\n", key, value, unit);
	fflush(stdout);
}

/*
 * What the events of a scenario say of themselves in kprobe_cost: the
 * mean ns of a hit of each, weighed by its hits, per loop iteration
 * (best_ns() ran REPEAT loops); -1 when the file or a figure is missing.
 */
static double self_cost(void)
{
	FILE *f = fopen(TR "kprobe_cost", "r");
	char line[512], name[256], ns[32];
	unsigned long long hits, sampled, total = 0;
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%255s %llu %llu %31s", name, &hits, &sampled, ns) != 4) {
			fclose(f);
			return -1;
		}
		if (strcmp(ns, "-"))	/* "-": none sampled (not hit) */
			total += hits * strtoull(ns, NULL, 10);
		n++;
	}
	fclose(f);
	return n ? (double)total / ((double)REPEAT * loops) : -1;
}

/* The self-reported cost beside the measured one, and their ratio. */
static void report_self(const char *key, double measured)
{
	double self = self_cost();
	char name[96];

	if (self < 0)
		return;
	snprintf(name, sizeof(name), "self_%s", key);
	report(name, self, "ns/hit");
	if (measured > 0) {
		printf("@@BENCH self_ratio_%s %.3f self/measured\n", key, self / measured);
		fflush(stdout);
	}
}

struct scenario {
	const char *key;	/* name in the table */
	const char *what;	/* the module loop to run */
	const char *defs[3];	/* kprobe_events lines; %lu = an offset, or
				 * for info "user" '@' = PATH:0xOFFSET */
	const char *info;	/* "info" name of the offset, or NULL */
	const char *filter;	/* filter for every event, or NULL */
	int optimize;		/* debug.kprobes-optimization: 0, 1 or -1 (leave) */
	const char *file;	/* where @defs go: NULL for kprobe_events */
};

#ifdef __x86_64__
#define A1 "%di"
#define A2 "%si"
#define A3 "%dx"
#define A4 "%cx"
#else
#define A1 "%x0"
#define A2 "%x1"
#define A3 "%x2"
#define A4 "%x3"
#endif

static const struct scenario scenarios[] = {
	{ "entry_noargs", "target", { "p:kpb/e0 kpbench_target" } },
	{ "entry_4args", "target",
	  { "p:kpb/e4 kpbench_target a=" A1 " b=" A2 " c=+0(" A3 "):u64 comm=$comm" } },
	{ "entry_kstring", "target", { "p:kpb/ks kpbench_target s=+0(" A3 "):string" } },
	{ "entry_ustring", "target", { "p:kpb/us kpbench_target s=+0(" A4 "):ustring" } },
	{ "mid_int3", "fixup", { "p:kpb/mn kpbench_fixup+%lu" }, "fixup_noboost", NULL, 0 },
	{ "mid_int3_boosted", "mid", { "p:kpb/mb kpbench_mid+%lu" }, "mid_boostable", NULL, 0 },
	{ "mid_optimized", "mid", { "p:kpb/mo kpbench_mid+%lu" }, "mid_boostable", NULL, 1 },
	{ "return_retval", "target", { "r:kpb/r kpbench_target ret=$retval" } },
	{ "return_noargs", "target", { "r:kpb/r0 kpbench_target" } },
	{ "multiprobe", "target",
	  { "p:kpb/mp kpbench_target", "p:kpb/mp kpbench_fn_1000" } },
	{ "multiplace", "target",
	  { "p:kpb/mpl kpbench_mod:kpbench_fn_1*,kpbench_target" } },
	{ "filter_rejects", "target",
	  { "p:kpb/f kpbench_target a=" A1 " b=" A2 " c=+0(" A3 "):u64 comm=$comm" },
	  NULL, "common_pid == 1" },
	/* an event probe on the static tracepoint, reading through its field */
	{ "eprobe_field", "trace",
	  { "e:kpb/ep kpbench.kpbench_hit v=+0($a):u64" }, NULL, NULL, -1,
	  "dynamic_events" },
	/* the same, no arguments: the attached record and ours, no fetch */
	{ "eprobe_noargs", "trace", { "e:kpb/ep0 kpbench.kpbench_hit" }, NULL,
	  NULL, -1, "dynamic_events" },
	/* an fprobe event on the module's function, its four arguments */
	{ "fprobe_4args", "target",
	  { "f:kpb/fp kpbench_target a=$arg1 b=$arg2 c=$arg3 d=$arg4" }, NULL, NULL, -1,
	  "dynamic_events" },
	/* a uprobe event on this program's function: two numbers, a user string */
	{ "uprobe_2args_ustring", "user",
	  { "p:kpb/up @ a=" A1 " b=" A2 " s=+0(" A3 "):string" }, "user", NULL, -1,
	  "uprobe_events" },
	/* the same place, no arguments: what the uprobes core and the record cost */
	{ "uprobe_noargs", "user", { "p:kpb/up0 @" }, "user", NULL, -1, "uprobe_events" },
};

static unsigned long info_offset(const char *name)
{
	FILE *f = fopen("/sys/kernel/debug/kpbench/info", "r");
	char key[64];
	unsigned long off;

	if (!f)
		die("kpbench info");
	while (fscanf(f, "%63s %lu", key, &off) == 2) {
		if (!strcmp(key, name)) {
			fclose(f);
			return off;
		}
	}
	fclose(f);
	errno = ENOENT;
	die(name);
	return 0;
}

/* wait (up to ~5 s) until the optimizer has turned the probe into a jump */
static int wait_optimized(void)
{
	char line[512];
	int i;

	for (i = 0; i < 50; i++) {
		FILE *f = fopen("/sys/kernel/debug/kprobes/list", "r");
		int hit = 0;

		while (f && fgets(line, sizeof(line), f))
			hit |= strstr(line, "kpbench_mid") && strstr(line, "[OPTIMIZED]");
		if (f)
			fclose(f);
		if (hit)
			return 1;
		usleep(100000);
	}
	return 0;
}

static const char *self_exe(void)
{
	static char path[256];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	if (n <= 0)
		die("/proc/self/exe");
	path[n] = 0;
	return path;
}

/* @tmpl with its '@' replaced by PATH:0xOFFSET of kpb_user_fn */
static void user_def(char *def, size_t size, const char *tmpl)
{
	const char *at = strchr(tmpl, '@');

	snprintf(def, size, "%.*s%s:0x%lx%s", (int)(at - tmpl), tmpl,
		 self_exe(), kpb_user_offset(), at + 1);
}

static void run_scenario(const struct scenario *s, unsigned long long base_ns)
{
	char def[512];
	unsigned long long ns;
	int i;

	char file[64];

	snprintf(file, sizeof(file), TR "%s", s->file ? s->file : "kprobe_events");
	put(TR "kprobe_events", "", 1);
	put(TR "uprobe_events", "", 1);
	put(TR "dynamic_events", "", 1);
	if (s->optimize >= 0)
		put("/proc/sys/debug/kprobes-optimization", s->optimize ? "1" : "0", 1);
	for (i = 0; i < 3 && s->defs[i]; i++) {
		if (s->info && !strcmp(s->info, "user"))
			user_def(def, sizeof(def), s->defs[i]);
		else if (s->info)	/* the only definitions with a %lu */
			snprintf(def, sizeof(def), s->defs[i], info_offset(s->info));
		else
			snprintf(def, sizeof(def), "%s", s->defs[i]);
		int err = put(file, def, 0);

		if (err) {
			printf("# %s: definition refused (%s): %s; skipped\n",
			       s->key, strerror(-err), def);
			put(TR "dynamic_events", "", 1);
			return;
		}
	}
	if (s->filter)
		must(TR "events/kpb/filter", s->filter, 1);
	must(TR "events/kpb/enable", "1", 1);
	if (s->optimize == 1 && !wait_optimized()) {
		printf("# %s: the probe was not optimized; skipped\n", s->key);
		must(TR "events/kpb/enable", "0", 1);
		put(TR "kprobe_events", "", 1);
		return;
	}
	ns = best_ns(s->what);
	must(TR "events/kpb/enable", "0", 1);
	report(s->key, (double)(ns - base_ns) / loops, "ns/hit");
	if (!s->file)
		report_self(s->key, (double)(ns - base_ns) / loops);
	put(TR "dynamic_events", "", 1);
	put("/proc/sys/debug/kprobes-optimization", "1", 1);
}

/* A bare kprobe or kretprobe with empty handlers: the core's own share. */
static void bare_probe(const char *key, const char *kind,
		       unsigned long long base_ns)
{
	const char *bare = "/sys/kernel/debug/kpbench/bare";
	unsigned long long ns;

	if (!wanted(key))
		return;
	must(bare, kind, 0);
	ns = best_ns("target");
	must(bare, "off", 0);
	report(key, (double)(ns - base_ns) / loops, "ns/hit");
}

#define COST_EVERY "/sys/kernel/debug/kprobes/cost_every"

/*
 * What sampling adds: the scenario @key with every hit sampled, with none,
 * and with the default one in 64.  The sampled hit's extra is the
 * difference of the first two; the default's, amortized, of the last two.
 */
static void sampling_cost(const char *key, unsigned long long base_ns)
{
	static const char *const every[] = { "0", "1", "64" };
	const struct scenario *s = NULL;
	double ns[3];
	char name[96];
	size_t i;

	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		if (!strcmp(scenarios[i].key, key))
			s = &scenarios[i];
	if (!s || access(COST_EVERY, W_OK))
		return;
	put(TR "kprobe_events", "", 1);
	if (s->info)
		snprintf(name, sizeof(name), s->defs[0], info_offset(s->info));
	else
		snprintf(name, sizeof(name), "%s", s->defs[0]);
	put("/proc/sys/debug/kprobes-optimization", "0", 1);
	must(TR "kprobe_events", name, 0);
	must(TR "events/kpb/enable", "1", 1);
	for (i = 0; i < 3; i++) {
		must(COST_EVERY, every[i], 1);
		loop_ns(s->what);	/* the countdown in course runs out */
		ns[i] = (double)(best_ns(s->what) - base_ns) / loops;
	}
	must(COST_EVERY, "64", 1);
	must(TR "events/kpb/enable", "0", 1);
	put(TR "kprobe_events", "", 1);
	put("/proc/sys/debug/kprobes-optimization", "1", 1);
	snprintf(name, sizeof(name), "sampling_off_%s", key);
	report(name, ns[0], "ns/hit");
	snprintf(name, sizeof(name), "sampling_all_%s", key);
	report(name, ns[1], "ns/hit");
	snprintf(name, sizeof(name), "sampling_extra_pct_%s", key);
	report(name, 100 * (ns[1] - ns[0]) / ns[0], "%");
	snprintf(name, sizeof(name), "sampling_default_extra_%s", key);
	report(name, ns[2] - ns[0], "ns/hit");
}

static void hit_costs(void)
{
	unsigned long long base_target = best_ns("target");
	unsigned long long base_mid = best_ns("mid");
	unsigned long long base_fixup = best_ns("fixup");
	unsigned long long base_trace = best_ns("trace");
	unsigned long long base_user = best_ns("user");
	size_t i;

	report("loop_target", (double)base_target / loops, "ns/iter");
	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		const struct scenario *s = &scenarios[i];

		if (!wanted(s->key))
			continue;
		if (!strcmp(s->what, "mid"))
			run_scenario(s, base_mid);
		else if (!strcmp(s->what, "fixup"))
			run_scenario(s, base_fixup);
		else if (!strcmp(s->what, "trace"))
			run_scenario(s, base_trace);
		else if (!strcmp(s->what, "user"))
			run_scenario(s, base_user);
		else
			run_scenario(s, base_target);
	}
	if (wanted("sampling")) {
		report("clock_read", (double)loop_ns("clock") / loops, "ns/call");
		sampling_cost("entry_noargs", base_target);
		sampling_cost("mid_int3", base_fixup);
		sampling_cost("return_noargs", base_target);
	}
	bare_probe("bare_kprobe", "kprobe", base_target);
	bare_probe("bare_kretprobe", "kretprobe", base_target);
	if (wanted("tracepoint")) {
		must(TR "events/kpbench/kpbench_hit/enable", "1", 1);
		report("tracepoint", (double)(best_ns("trace") - base_trace) / loops,
		       "ns/hit");
		must(TR "events/kpbench/kpbench_hit/enable", "0", 1);
	}
	/*
	 * The floor under every event probe: the attached record built only
	 * for a trigger (one whose condition never holds), no record written.
	 */
	if (wanted("tracepoint_trigger_only")) {
		const char *trig = TR "events/kpbench/kpbench_hit/trigger";

		must(trig, "traceon if common_pid == 1", 1);
		report("tracepoint_trigger_only",
		       (double)(best_ns("trace") - base_trace) / loops, "ns/hit");
		must(trig, "!traceon if common_pid == 1", 1);
	}
}

static long meminfo_kb(const char *field)
{
	FILE *f = fopen("/proc/meminfo", "r");
	size_t n = strlen(field);
	char line[128];
	long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, field, n) && line[n] == ':') {
			kb = strtol(line + n + 1, NULL, 10);
			break;
		}
	if (f)
		fclose(f);
	return kb;
}

static long slab_kb(void)
{
	return meminfo_kb("Slab");
}

static char *definitions(int n)
{
	char *buf = malloc(n * 64 + 1), *p = buf;
	int i;

	for (i = 0; i < n; i++)
		p += sprintf(p, "p:kpbf/f%d kpbench_fn_%d\n", 1000 + i, 1000 + i);
	return buf;
}

static double ms_since(unsigned long long t0)
{
	return (now_ns() - t0) / 1e6;
}

static void registration(int n)
{
	char key[64], cmd[64], *defs = definitions(n);
	unsigned long long t;
	long kb0, kb1, kb2;
	int i;

	put(TR "kprobe_events", "", 1);
	system("echo 3 > /proc/sys/vm/drop_caches 2>/dev/null");
	kb0 = slab_kb();
	t = now_ns();
	must(TR "kprobe_events", defs, 0);
	snprintf(key, sizeof(key), "define_%d", n);
	report(key, ms_since(t), "ms");
	kb1 = slab_kb();
	t = now_ns();
	must(TR "events/kpbf/enable", "1", 1);
	snprintf(key, sizeof(key), "enable_%d", n);
	report(key, ms_since(t), "ms");
	kb2 = slab_kb();
	t = now_ns();
	must(TR "events/kpbf/enable", "0", 1);
	snprintf(key, sizeof(key), "disable_%d", n);
	report(key, ms_since(t), "ms");
	if (n == 1000) {
		report("slab_per_event", (kb1 - kb0) * 1024.0 / n, "bytes");
		report("slab_per_armed_probe", (kb2 - kb1) * 1024.0 / n, "bytes");
	}
	t = now_ns();
	must(TR "kprobe_events", "", 1);
	snprintf(key, sizeof(key), "delete_truncate_%d", n);
	report(key, ms_since(t), "ms");

	must(TR "kprobe_events", defs, 0);
	t = now_ns();
	for (i = 0; i < n; i++) {
		snprintf(cmd, sizeof(cmd), "-:kpbf/f%d\n", 1000 + i);
		must(TR "kprobe_events", cmd, 0);
	}
	snprintf(key, sizeof(key), "delete_each_%d", n);
	report(key, ms_since(t), "ms");
	free(defs);
}

/* The places a pattern found, from the first line of kprobe_places. */
static unsigned long places_found(void)
{
	FILE *f = fopen(TR "kprobe_places", "r");
	unsigned long n = 0;
	char line[512], *p;

	if (f && fgets(line, sizeof(line), f) && (p = strstr(line, ": ")))
		n = strtoul(p + 2, NULL, 10);
	if (f)
		fclose(f);
	return n;
}

/*
 * One event over many functions: defined and enabled, then deleted; over
 * the 1000 kpbench_fn_1xxx functions, and over as many of the kernel's as
 * a pattern of at most 20000 takes.  Series only: the base has no such
 * definitions, and skips.
 */
static void glob_registration(const char *key, const char *def)
{
	unsigned long long t;
	unsigned long n;
	long kb0, kb1, vm0, vm1;
	char name[64];

	put(TR "kprobe_events", "", 1);
	system("echo 3 > /proc/sys/vm/drop_caches 2>/dev/null");
	kb0 = slab_kb();
	vm0 = meminfo_kb("VmallocUsed");
	t = now_ns();
	if (put(TR "kprobe_events", def, 0)) {
		printf("# %s: definition refused; skipped\n", key);
		return;
	}
	must(TR "events/kpbg/enable", "1", 1);
	snprintf(name, sizeof(name), "%s_define_enable", key);
	report(name, ms_since(t), "ms");
	kb1 = slab_kb();
	vm1 = meminfo_kb("VmallocUsed");
	n = places_found();
	snprintf(name, sizeof(name), "%s_places", key);
	report(name, n, "places");
	if (n) {
		snprintf(name, sizeof(name), "%s_slab_per_place", key);
		report(name, (kb1 - kb0) * 1024.0 / n, "bytes");
		snprintf(name, sizeof(name), "%s_vmalloc_per_place", key);
		report(name, (vm1 - vm0) * 1024.0 / n, "bytes");
	}
	t = now_ns();
	must(TR "events/kpbg/enable", "0", 1);
	snprintf(name, sizeof(name), "%s_disable", key);
	report(name, ms_since(t), "ms");
	t = now_ns();
	must(TR "kprobe_events", "", 1);
	snprintf(name, sizeof(name), "%s_delete", key);
	report(name, ms_since(t), "ms");
}

int main(int argc, char **argv)
{
	if (argc > 1)
		loops = strtoul(argv[1], NULL, 0);
	if (argc > 2 && *argv[2])
		only = argv[2];
	setvbuf(stdout, NULL, _IOLBF, 0);
	must(TR "tracing_on", "1", 1);
	hit_costs();
	if (wanted("registration")) {
		registration(100);
		registration(1000);
	}
	if (wanted("glob")) {
		glob_registration("glob_1000", "p:kpbg/g kpbench_mod:kpbench_fn_1*\n");
		glob_registration("glob_kernel", "p:kpbg/k [a-k]*\n");
	}
	printf("@@BENCH-DONE\n");
	return 0;
}
