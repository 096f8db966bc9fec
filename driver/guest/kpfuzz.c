// SPDX-License-Identifier: GPL-2.0
/*
 * kpfuzz - fuzz the kprobe event definition parser from user space.
 *
 *   kpfuzz [-n COUNT] [-s SEED] [-q]
 *
 * Writes COUNT definitions into kprobe_events (a few into dynamic_events),
 * each generated from the grammar of a definition line and then, often,
 * mutated at the byte level.  Checked:
 *   - every rejected write added exactly one error_log entry (an "error:"
 *     line and a caret line); the check is made per batch of writes, see
 *     flush() below, and names each culprit;
 *   - accepted writes made events, which stay for a while (later lines
 *     clash with them or delete them); one whose probe point is a function
 *     known to be safe to probe is sometimes enabled alone for a moment,
 *     so that random fetch arguments run on real hits.
 * The kernel console is watched by the driver for oopses, WARNs and leaks.
 * Only lines the kprobe event layer owns are checked: everything written to
 * kprobe_events, and the p/r lines of dynamic_events (other lines there
 * belong to the generic dynamic event code).  Prints one line per failure
 * (first 20), a summary, and exits 1 if any rejected write left no
 * error_log entry.  With TK_BASE=1 in the environment (the unmodified base
 * kernel, which leaves some rejections unlogged) those are only counted.
 * The summary also says where the time went, and the rate.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TR "/sys/kernel/tracing/"
#define LINE_MAX_LEN 1024

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	/* xorshift64*: small, fast, and the same sequence for the same seed */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static unsigned int pick(unsigned int n)
{
	return n ? rnd() % n : 0;
}

#define ONE_OF(arr) (arr[pick(sizeof(arr) / sizeof(arr[0]))])

/* functions that are safe to probe and get hit while the fuzzer runs */
static const char *const safe_syms[] = {
	"vfs_read", "vfs_write", "do_sys_openat2", "vfs_fstatat",
	"kernel_clone", "do_exit", "ksys_write", "vfs_open",
};
static const char *const other_syms[] = {
	"schedule", "kfree", "kmalloc", "trace_printk", "no_such_function_x",
	"vfs_read.cold", "_text", "__x64_sys_execve", "init_task", "jiffies",
	"trace-printk:trace_printk_irq_work", "nomod:nofunc", "kprobe_dispatcher",
	"tracing_on", "memcpy",
};
static const char *const regs[] = {
	"%ax", "%bx", "%cx", "%dx", "%si", "%di", "%bp", "%sp", "%r8", "%r15",
	"%ip", "%flags", "%cs", "%ss", "%orig_ax", "%rax", "%eax", "%x0", "%",
};
static const char *const vars[] = {
	"$stack", "$stack0", "$stack1", "$stack31", "$stack10000", "$retval",
	"$comm", "$COMM", "$arg1", "$arg2", "$arg8", "$arg0", "$arg999",
	"$arg*", "$", "$none", "$argfoo", "$stack-1",
};
static const char *const btf_names[] = {
	"count", "buf", "file", "file->f_mode", "file->f_path.dentry->d_name.name",
	"file.f_mode", "file->", "file-f_mode", "pos", "filename", "dfd",
	"how->flags", "nosuch", "file->nosuch", "__count",
};
static const char *const types[] = {
	"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "x8", "x16",
	"x32", "x64", "char", "string", "ustring", "symbol", "symstr", "%pd",
	"%pD", "b1@0/8", "b8@8/32", "b64@0/64", "b65@0/64", "b3@70/64",
	"b0@0/8", "u8[4]", "u32[64]", "u32[65]", "string[2]", "x16[0]",
	"u8[", "u8[3]x", "int", "", "u", "string[", "b@/",
};
static const char *const names[] = {
	"a", "arg1", "_x", "x1", "1x", "a.b", "a-b", "", "abcdefghijklmnopqrstuvwxyz0123456",
	"common_pid", "__probe_ip", "dup", "dup",
};

struct buf {
	char s[LINE_MAX_LEN];
	size_t n;
};

static void add(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (b->n >= sizeof(b->s) - 1)
		return;
	va_start(ap, fmt);
	r = vsnprintf(b->s + b->n, sizeof(b->s) - b->n, fmt, ap);
	va_end(ap);
	if (r > 0)
		b->n += (size_t)r < sizeof(b->s) - b->n ? (size_t)r : sizeof(b->s) - 1 - b->n;
}

static void gen_fetch(struct buf *b, int depth)
{
	switch (pick(depth > 0 ? 10 : 8)) {
	case 0: add(b, "%s", ONE_OF(regs)); break;
	case 1: add(b, "%s", ONE_OF(vars)); break;
	case 2: add(b, "@%s%s", ONE_OF(safe_syms),
		    pick(2) ? "" : (pick(2) ? "+8" : "-16")); break;
	case 3: add(b, "@0x%llx", (unsigned long long)(pick(2) ? rnd() : 0xffffffff81000000ULL)); break;
	case 4: add(b, "\\%lld", (long long)(rnd() >> pick(64))); break;
	case 5: add(b, "\\\"%s", pick(4) ? "str\"" : "unterminated"); break;
	case 6: add(b, "%s", ONE_OF(btf_names)); break;
	case 7: add(b, "@+%u", pick(100)); break;
	default:
		add(b, "%s%s%u(", pick(3) ? "+" : "-", pick(3) ? "" : "u",
		    (unsigned int)(pick(2) ? pick(64) : rnd()));
		gen_fetch(b, depth - 1);
		if (pick(10))
			add(b, ")");
	}
}

static void gen_arg(struct buf *b)
{
	if (pick(3) == 0)
		add(b, "%s=", ONE_OF(names));
	gen_fetch(b, 1 + pick(4));
	if (pick(2))
		add(b, ":%s", ONE_OF(types));
}

/* a definition from the grammar; *safe says whether it may be enabled */
static void gen_definition(struct buf *b, int *safe)
{
	int nargs, i;
	const char *sym;

	*safe = 0;
	switch (pick(12)) {
	case 0: add(b, "p "); break;
	case 1: add(b, "r "); break;
	case 2: add(b, "r%u:fz/r%u ", pick(3) ? pick(64) : (unsigned int)rnd(), pick(1000)); break;
	case 3: add(b, "-:fz/e%u", pick(1000)); return;
	case 4: add(b, "p:%s/%s ", ONE_OF(names), ONE_OF(names)); break;
	case 5: add(b, "p:fz.e%u ", pick(1000)); break;
	case 6: add(b, "%c:fz/e%u ", "prqfx-"[pick(6)], pick(1000)); break;
	default: add(b, "%c:fz/e%u ", pick(3) ? 'p' : 'r', pick(1000)); break;
	}
	if (pick(4)) {
		sym = ONE_OF(safe_syms);
		*safe = 1;
	} else {
		sym = ONE_OF(other_syms);
	}
	switch (pick(8)) {
	case 0: add(b, "%s+%u", sym, pick(40)); *safe = 0; break;
	case 1: add(b, "%s%%return", sym); break;
	case 2: add(b, "0x%llx", (unsigned long long)rnd()); *safe = 0; break;
	case 3: add(b, "%s%%%s", sym, pick(2) ? "hoge" : "return+1"); break;
	default: add(b, "%s", sym);
	}
	nargs = pick(5) ? pick(6) : pick(140);
	for (i = 0; i < nargs; i++) {
		add(b, " ");
		gen_arg(b);
	}
}

static void mutate(struct buf *b)
{
	static const char junk[] = " \t:%$@+-()[]/.=\\\"*&^#!0123456789xuzb";
	int edits = 1 + pick(4);

	while (edits--) {
		size_t at = pick(b->n + 1);

		switch (pick(4)) {
		case 0: /* replace */
			if (at < b->n)
				b->s[at] = junk[pick(sizeof(junk) - 1)];
			break;
		case 1: /* insert */
			if (b->n + 1 < sizeof(b->s)) {
				memmove(b->s + at + 1, b->s + at, b->n - at + 1);
				b->s[at] = junk[pick(sizeof(junk) - 1)];
				b->n++;
			}
			break;
		case 2: /* delete */
			if (at < b->n) {
				memmove(b->s + at, b->s + at + 1, b->n - at);
				b->n--;
			}
			break;
		default: /* truncate */
			b->n = at;
			b->s[at] = '\0';
		}
	}
}

/* Seconds spent, by kind of work: see the summary line in main(). */
enum { T_ACCEPT, T_REJECT, T_CHECK, T_DELETE, T_ENABLE, T_KINDS };
static double spent[T_KINDS];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Appends to the two definition files go through descriptors kept open:
 * each write() is parsed on its own, and an open() and close() per
 * definition cost as much as the parse itself under the debug config.
 */
static int append_fd(const char *path)
{
	static const char *paths[2];
	static int fds[2] = { -1, -1 };
	int i;

	for (i = 0; i < 2 && paths[i]; i++)
		if (!strcmp(paths[i], path))
			return fds[i];
	if (i == 2)
		return -1;
	fds[i] = open(path, O_WRONLY | O_APPEND);
	if (fds[i] >= 0)
		paths[i] = path;
	return fds[i];
}

static int write_file(const char *path, const char *s, size_t n, int trunc)
{
	int fd = trunc ? -1 : append_fd(path);
	int err = 0, own = fd < 0;

	if (own)
		fd = open(path, O_WRONLY | (trunc ? O_TRUNC : O_APPEND));
	if (fd < 0)
		return -errno;
	if (n && write(fd, s, n) < 0)
		err = -errno;
	if (own)
		close(fd);
	return err;
}

static size_t read_file(const char *path, char *out, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t r, n = 0;

	if (fd < 0)
		return 0;
	while (n < (ssize_t)len - 1 && (r = read(fd, out + n, len - 1 - n)) > 0)
		n += r;
	close(fd);
	out[n > 0 ? n : 0] = '\0';
	return n > 0 ? n : 0;
}

/* enable every event the last write made, let it fire, then disable */
static void exercise(void)
{
	if (write_file(TR "events/fz/enable", "1", 1, 1) == 0) {
		int fd = open("/etc/hostname", O_RDONLY);
		char c[8];

		if (fd >= 0) {
			read(fd, c, sizeof(c));
			close(fd);
		}
		write_file(TR "events/fz/enable", "0", 1, 1);
	}
}

/*
 * Rejected writes are checked in batches: error_log is cleared, up to
 * BATCH owned lines are written, and then it must hold exactly one entry
 * (an "error:" line and a caret line) per rejection.  error_log keeps the
 * last 16 entries, so BATCH stays below that.  When a batch is short of
 * entries, its lines are replayed one at a time to name the culprits.
 * Accepted events stay until LIVE_MAX of them exist (or one is to be
 * exercised alone), which also exercises name clashes and deletes.
 */
#define BATCH		8
#define LIVE_MAX	16

struct pending {
	struct buf b;
	const char *file;
};

static struct pending pend[BATCH];
static int npend, live, quiet;
static unsigned long unlogged, replayed;
static char log_buf[1 << 16];

static const char *target(int dyn)
{
	return dyn ? TR "dynamic_events" : TR "kprobe_events";
}

/* entries in error_log: their "error:" lines and their caret lines */
static void count_log(int *errors, int *carets)
{
	char *line, *save = NULL;

	read_file(TR "error_log", log_buf, sizeof(log_buf));
	*errors = *carets = 0;
	for (line = strtok_r(log_buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		*errors += strstr(line, " error: ") != NULL;
		*carets += line[strspn(line, " ")] == '^';
	}
}

static void report_unlogged(const struct pending *p, int err, int entries)
{
	unlogged++;
	if (!quiet && unlogged <= 20)
		printf("%d error_log entries (want 1, with a caret) after %s for %s: '%s'\n",
		       entries, strerror(-err), p->file + strlen(TR), p->b.s);
}

/* replay a short batch one line at a time to find the unlogged lines */
static void replay(void)
{
	int i, e, c, err;

	replayed++;
	for (i = 0; i < npend; i++) {
		write_file(TR "error_log", "", 0, 1);
		err = write_file(pend[i].file, pend[i].b.s, pend[i].b.n, 0);
		if (!err) {	/* state changed since: inconclusive */
			live++;
			continue;
		}
		count_log(&e, &c);
		if (e != 1 || c != 1)
			report_unlogged(&pend[i], err, e);
	}
}

static void flush(void)
{
	double t = now();
	int e, c;

	if (npend) {
		count_log(&e, &c);
		if (e != npend || c != npend)
			replay();
		npend = 0;
	}
	write_file(TR "error_log", "", 0, 1);
	spent[T_CHECK] += now() - t;
}

static void delete_all(void)
{
	double t;

	flush();
	if (!live)
		return;	/* nothing to delete: spare the truncation */
	t = now();
	write_file(TR "kprobe_events", "", 0, 1);
	spent[T_DELETE] += now() - t;
	live = 0;
}

int main(int argc, char **argv)
{
	unsigned long count = 10000, i, accepted = 0, rejected = 0;
	double t, start = now();
	int opt;

	while ((opt = getopt(argc, argv, "n:s:q")) != -1) {
		if (opt == 'n')
			count = strtoul(optarg, NULL, 0);
		else if (opt == 's')
			rng_state = strtoull(optarg, NULL, 0) | 1;
		else
			quiet = 1;
	}
	printf("kpfuzz: %lu definitions, seed %#llx\n", count,
	       (unsigned long long)rng_state);
	delete_all();
	for (i = 0; i < count; i++) {
		struct pending *p = &pend[npend];
		int safe, err, dyn = pick(10) == 0, owned, solo;

		if (i && i % 50000 == 0 && !quiet)
			printf("kpfuzz: %lu definitions in %.0f s, %lu rejected without an error_log entry\n",
			       i, now() - start, unlogged);

		p->b.n = 0;
		p->b.s[0] = '\0';
		gen_definition(&p->b, &safe);
		if (pick(3) == 0) {
			mutate(&p->b);
			safe = 0;
		}
		p->file = target(dyn);
		owned = !dyn || p->b.s[0] == 'p' || p->b.s[0] == 'r';
		solo = safe && pick(4) == 0;	/* to be enabled, alone */
		if (solo || live >= LIVE_MAX)
			delete_all();
		else if (!owned)
			flush();	/* other parsers' entries stay out */
		t = now();
		err = write_file(p->file, p->b.s, p->b.n, 0);
		spent[err ? T_REJECT : T_ACCEPT] += now() - t;
		if (!err) {
			accepted++;
			live++;
			if (solo) {
				t = now();
				exercise();
				spent[T_ENABLE] += now() - t;
				delete_all();
			}
		} else {
			rejected++;
			if (!owned)
				write_file(TR "error_log", "", 0, 1);
			else if (++npend == BATCH)
				flush();
		}
	}
	delete_all();
	printf("kpfuzz: %lu accepted, %lu rejected, %lu rejected without an error_log entry (%lu batches replayed)\n",
	       accepted, rejected, unlogged, replayed);
	t = now() - start;
	printf("kpfuzz: %.0f s, %.1f definitions/s; seconds in accepted writes %.0f, rejected writes %.0f, error_log checks %.0f, deletes %.0f, enabled events %.0f\n",
	       t, count / t, spent[T_ACCEPT], spent[T_REJECT], spent[T_CHECK],
	       spent[T_DELETE], spent[T_ENABLE]);
	if (unlogged && getenv("TK_BASE") && !strcmp(getenv("TK_BASE"), "1")) {
		printf("kpfuzz: base kernel: unlogged rejections counted, not failed\n");
		return 0;
	}
	return unlogged ? 1 : 0;
}
