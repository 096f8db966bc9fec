// SPDX-License-Identifier: GPL-2.0
/*
 * kpfuzz - fuzz the probe event definition parsers, and the fetches and
 * printers of the events they accept, from user space.
 *
 *   kpfuzz [-n COUNT] [-s SEED] [-H N] [-k KINDS] [-q] [-P]
 *
 * Writes COUNT definitions in all (not per kind), each of a kind picked
 * at random among KINDS (-k, a comma-separated list; default all):
 *   kprobe  p: and r: lines into kprobe_events (a few into dynamic_events),
 *           described below;
 *   uprobe  p:, r: and p: PATH:OFFSET%return lines on this program (its
 *           own noinline functions uf_*(), whose file offsets it reads
 *           from its ELF program headers), into uprobe_events (one in
 *           four into dynamic_events), reading registers, user memory
 *           (+0(%di):ustring, arrays, bitfields), $stackN, this program's
 *           data by address and by file offset (@+OFFSET), $retval;
 *   eprobe  e: lines on syscall events the fuzzer's own calls trigger
 *           (syscalls.sys_enter_openat, sys_exit_read, raw_syscalls...),
 *           reading their fields ($filename, +u0($filename):ustring,
 *           casts, types), now and then with a filter;
 *   fprobe  f:SYM and f:SYM%return lines on the functions of
 *           the kprobe hits, with the kprobe grammar's arguments less the
 *           registers;
 *   tprobe  t: lines on tracepoints the fuzzer's calls reach (sys_enter,
 *           sys_exit, kmalloc, kfree, kmem_cache_alloc and _free,
 *           sched_switch), reading their
 *           arguments by BTF name, $argN and fields;
 * all but kprobes into dynamic_events (uprobes also into uprobe_events).
 * Each kind has general definitions (its grammar, places good and bad,
 * arguments of its own and of the kprobe grammar, often mutated) and hit
 * definitions, one in N (-H): an event fz/<letter><N> (h kprobe, u
 * uprobe, x eprobe, f fprobe, t tprobe) whose places the fuzzer reaches,
 * with arguments mutated one time in six (never the place: a uprobe's
 * offset must stay an instruction boundary); when accepted it is
 * enabled, the fuzzer makes 1 to 4 calls that fire it (its own function
 * for a uprobe, the syscall for an eprobe, the calls of the kprobe hits
 * for an fprobe or tprobe), disables it, counts its hits in the kind's
 * profile file and reads trace_pipe (and trace, one time in four).
 * Every kind is checked the same way: each refused line that a probe
 * parser owns (listed under "Checked:" below) must add one error_log
 * entry.  The summary has one line per kind: definitions,
 * accepted and refused writes, hits, seconds and definitions per second.
 *
 * Kprobe definitions are of two kinds.
 *
 * General definitions (all but one in N, -H, default 20; all with -H 0)
 * come from the grammar of a definition line, with random places and
 * arguments, and are often mutated at the byte level.  Most are rejected.
 * Accepted ones stay for a while (later lines clash with them or delete
 * them) and are never enabled.
 *
 * Hit definitions (one in N) are made to fire.  Each is written as event
 * fz/hNN (a name no general definition uses), on a function the fuzzer
 * reaches with a system call of its own: targets[]
 * (do_sys_openat2 and do_sys_open through openat(), vfs_read and
 * ksys_read through read(), the syscall wrappers __x64_sys_* or
 * __arm64_sys_*, ...).  The probe is an entry probe, a return probe, or
 * one at an offset into the function.  Its arguments read the function's
 * parameters in the ways the syntax allows: the argument registers of the
 * machine, $argN, BTF names and fields, the user registers a syscall
 * wrapper gets, kernel and user dereferences, strings, arrays, bitfields,
 * symbols, $retval; some come from the general grammar, and one hit
 * definition in six has its argument part mutated.  When one is accepted:
 *   - one in three gets a second probe on the same event (a multiprobe
 *     join), before the event is enabled or (one time in four) while it
 *     is, on another target or the same one, with arguments that differ
 *     from the first's in what they read (a register or memory: x=%di:u32
 *     against x=+0(%di):u32) and now and then in names, types, count or
 *     kind, which the kernel must refuse, with an error_log entry;
 *   - the event is enabled, each of its places is called 1 to 4 times
 *     with fuzzed arguments (good paths and buffers, NULL, an unmapped
 *     address, a page without access, a string that runs into one, a
 *     string longer than PATH_MAX, kernel addresses, bad fds), so that
 *     its fetches read good and faulting memory, and disabled again;
 *     kprobe_profile then says how many hits that made;
 *   - trace_pipe is drained (non-blocking, bounded reads), after a read of
 *     trace one time in four and after every accepted join, with
 *     options/latency-format set one time in four, so that the printers
 *     run on the records of every kind of definition, faulted fetches
 *     included.
 * The event then stays among the accepted general ones and is deleted
 * with them.  The hit work is proportional to COUNT: with -H 20, 10,000
 * definitions make about 500 hit definitions, each with one enable and
 * disable and at most two trace files read when accepted.  Registers and
 * syscall wrappers are those of the machine kpfuzz is built for, x86_64
 * or arm64.
 *
 * Checked: every rejected write of a line a probe parser owns added
 * exactly one error_log entry (an "error:" line and a caret line), each
 * line on its own right after its write (see rejected_line() below),
 * naming each culprit.  The owned lines, for every kind (see owned()):
 * everything written to kprobe_events; the p and r lines written to
 * uprobe_events whose second word is a uprobe place; the p and r lines
 * of dynamic_events, and its e, f and t lines of two words or more (the
 * other lines there, deletes among them, belong to the generic dynamic
 * event code, which logs nothing).  The driver watches the kernel console
 * for oopses, WARNs, KASAN and UBSAN reports, and leaks.  The test starts
 * by deleting the events of every kind, whoever made them, so that the
 * same seed makes the same run.  Prints one line per failure
 * (first 20) and a summary: the counts, the hit work (calls made, hits,
 * trace bytes read, joins tried and accepted), where the time went and
 * the rate, as "# kpfuzz:" lines.  A kselftest_harness program: its one
 * test, fuzz.definitions, fails if any rejected write left no error_log
 * entry; with TK_BASE=1 in the environment (the unmodified base kernel,
 * which leaves some rejections unlogged) those are only counted.  The
 * options above are kpfuzz's own; the rest go to the harness.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define TR "/sys/kernel/tracing/"
#define LINE_MAX_LEN 1024

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

/*
 * The machine: the registers that pass the first six arguments and the
 * one that returns a value, where a syscall wrapper's struct pt_regs
 * keeps the six syscall arguments, a kernel address (no KASLR in the
 * guest) and the instruction alignment.
 */
#if defined(__x86_64__)
#define SYSCALL_PREFIX	"__x64_sys_"
#define KERNEL_ADDR	0xffffffff81000000ULL
#define INSN_ALIGN	1
#define RET_REG		"%ax"
static const char *const arg_regs[] = { "%di", "%si", "%dx", "%cx", "%r8", "%r9" };
/* pt_regs::di, si, dx, r10, r8, r9 */
static const unsigned int sys_arg_off[] = { 112, 104, 96, 56, 72, 64 };
static const char *const wrapper_fields[] = { "regs->di", "regs->si", "regs->orig_ax" };
#elif defined(__aarch64__)
#define SYSCALL_PREFIX	"__arm64_sys_"
#define KERNEL_ADDR	0xffff800080000000ULL
#define INSN_ALIGN	4
#define RET_REG		"%x0"
static const char *const arg_regs[] = { "%x0", "%x1", "%x2", "%x3", "%x4", "%x5" };
/* pt_regs::regs[0..5] */
static const unsigned int sys_arg_off[] = { 0, 8, 16, 24, 32, 40 };
static const char *const wrapper_fields[] = { "regs->orig_x0", "regs->syscallno", "regs->sp" };
#else
#error "kpfuzz knows the registers of x86_64 and arm64 only"
#endif

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

#define N_OF(arr) (sizeof(arr) / sizeof(arr[0]))
#define ONE_OF(arr) (arr[pick(N_OF(arr))])

/*
 * The kinds of definition, each with a grammar of its own: kprobes (p:,
 * r:), uprobes on this program (p:, r: with PATH:OFFSET), eprobes (e:),
 * fprobes (f:, f:SYM%return) and tracepoint probes (t:).  cur_kind is the
 * kind of the definition being made: the shared generators look at it.
 */
enum { K_KPROBE, K_UPROBE, K_EPROBE, K_FPROBE, K_TPROBE, K_KINDS };
static const char *const kind_names[K_KINDS] = {
	"kprobe", "uprobe", "eprobe", "fprobe", "tprobe",
};
static int cur_kind;
static unsigned int kinds_on = (1u << K_KINDS) - 1;	/* -k */

/* what each kind did: definitions, writes, hit events, hits, seconds */
static struct {
	unsigned long defs, accepted, rejected, hitdefs, enabled, hits;
	double secs;
} kst[K_KINDS];

/* ------------------------------------------------ general definitions */

/* functions that exist, are safe to probe and get hit while the fuzzer runs */
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
/* both machines' names: each machine refuses the other's */
static const char *const regs[] = {
	"%ax", "%bx", "%cx", "%dx", "%si", "%di", "%bp", "%sp", "%r8", "%r15",
	"%ip", "%flags", "%cs", "%ss", "%orig_ax", "%rax", "%eax", "%x0", "%",
	"%x1", "%x29", "%x30", "%x31", "%lr", "%pc", "%pstate",
};
static const char *const vars[] = {
	"$stack", "$stack0", "$stack1", "$stack31", "$stack10000", "$retval",
	"$comm", "$COMM", "$arg1", "$arg2", "$arg8", "$arg0", "$arg999",
	"$arg*", "$", "$none", "$argfoo", "$stack-1",
	"$current", "$current->pid", "$current->comm", "$current->nosuch",
	"$current.pid", "$current-pid", "$currentx", "$current->",
	"$current->pid->x", "$current->real_parent->comm", "$current->mm->mmap_base",
	"$current->se.vruntime", "$current->comm->x", "$CURRENT",
	"(file)$arg1->f_flags", "(struct file *)%di->f_mode", "((file)%si)->f_pos",
	"(task_struct,se)%di->pid", "(task_struct,se.vruntime)%di->comm",
	"(file", "(file)", "()%di", "(,)%di->x", "(file,)%di->x", "(file **)%di",
	"((file)%di", "(file)$comm->x", "(nosuch_t)%di->x", "(file)%di->nosuch",
	"(file)%di.f_mode", "+0((file)%di->f_inode)", "(atomic_t)%di->counter",
	"(file,f_path->mnt)%di->f_mode", "((((file)", "(file))%di->f_mode",
	"(file)(%di)->f_flags", "(dentry)((file)%di->f_path.dentry)->d_name.name",
	"(file)(%di)", "(file)(%di", "(file)@jiffies+8->f_mode", "(file,f_pos)%di",
	"this_cpu_ptr(@runqueues)", "this_cpu_read(@runqueues)", "this_cpu_read(%di)",
	"this_cpu_ptr(+8(%si))", "this_cpu_read(", "this_cpu_ptr()", "this_cpu_x(%di)",
	"(rq)this_cpu_ptr(@runqueues)->cpu", "this_cpu_read(this_cpu_ptr(%di))",
	"this_cpu_read($comm)", "+0(+0(+0(+0(+0(+0(+0(+0(+0(%di)))))))))",
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
	"u8[", "u8[3]x", "int", "", "u", "string[", "b@/", "struct",
	"struct[2]", "structx",
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

/* a definition from the grammar */
static void gen_definition(struct buf *b)
{
	int nargs, i;
	const char *sym;

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
	sym = pick(4) ? ONE_OF(safe_syms) : ONE_OF(other_syms);
	switch (pick(8)) {
	case 0: add(b, "%s+%u", sym, pick(40)); break;
	case 1: add(b, "%s%%return", sym); break;
	case 2: add(b, "0x%llx", (unsigned long long)rnd()); break;
	case 3: add(b, "%s%%%s", sym, pick(2) ? "hoge" : "return+1"); break;
	default: add(b, "%s", sym);
	}
	nargs = pick(5) ? pick(6) : pick(140);
	for (i = 0; i < nargs; i++) {
		add(b, " ");
		gen_arg(b);
	}
}

/* byte-level edits, at or after byte @from */
static void mutate(struct buf *b, size_t from)
{
	static const char junk[] = " \t:%$@+-()[]/.=\\\"*&^#!0123456789xuzb";
	int edits = 1 + pick(4);

	while (edits-- && from <= b->n) {
		size_t at = from + pick(b->n - from + 1);

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

/* ------------------------------------------- what the hit calls pass */

/*
 * User memory for the calls' pointer arguments: good memory the kernel
 * may fill (two pages), a page of 'a' with no NUL followed by a page
 * without access, a read-only page, a string longer than PATH_MAX; and
 * the files the calls read and write.  The kernel is never handed a
 * random address it could write to, nor a random fd (one could be the
 * fuzzer's own kprobe_events).
 */
static struct {
	size_t page;
	char *good, *edge, *noaccess, *ro, *huge;
	int zero, null, dir;	/* /dev/zero (read-write), /dev/null (write-only), / */
} mem;

#define UNMAPPED	((char *)0x10000)	/* below a static program's text */

static int umem_init(void)
{
	size_t pg = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 5 * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return -1;
	mem.page = pg;
	mem.good = m;
	mem.edge = m + 2 * pg;
	mem.noaccess = m + 3 * pg;
	mem.ro = m + 4 * pg;
	memset(mem.edge, 'a', pg);
	memset(mem.ro, 'r', pg - 1);
	mem.huge = malloc(3 * pg + 1);
	if (!mem.huge || mprotect(mem.noaccess, pg, PROT_NONE) ||
	    mprotect(mem.ro, pg, PROT_READ))
		return -1;
	memset(mem.huge, 'a', 3 * pg);
	mem.huge[3 * pg] = '\0';
	mem.zero = open("/dev/zero", O_RDWR);
	mem.null = open("/dev/null", O_WRONLY);
	mem.dir = open("/", O_RDONLY | O_DIRECTORY);
	return 0;
}

/* a pointer to nothing the program can use */
static char *ubad(void)
{
	switch (pick(6)) {
	case 0: return NULL;
	case 1: return UNMAPPED + pick(4096);
	case 2: return mem.noaccess + pick(mem.page);
	case 3: return (char *)(uintptr_t)(KERNEL_ADDR + pick(4096));
	case 4: return (char *)(uintptr_t)(rnd() | 1ULL << 63);
	default: return mem.ro + pick(mem.page);	/* bad to write to */
	}
}

/* a path: a good one (at a random alignment) or a bad pointer */
static char *upath(void)
{
	static const char *const paths[] = {
		"/etc/hostname", "/", "/dev/null", "/dev/zero", "/proc/self/stat",
		"/proc/self/exe", "/proc/self/cwd", "/nonexistent", "", ".", "..",
		"/etc/../etc/hostname", "//dev//zero", "/dev/zero/x", "guest",
	};
	char *p;

	switch (pick(12)) {
	case 0: case 1: return ubad();
	case 2: return mem.edge + mem.page - 1 - pick(32);	/* runs into no access */
	case 3: return mem.huge + pick(8);
	case 4: return (char *)(uintptr_t)rnd();	/* the kernel only reads it */
	default:
		p = mem.good + pick(64);
		strcpy(p, ONE_OF(paths));
		return p;
	}
}

static size_t ucount(void)
{
	static const size_t counts[] = {
		0, 1, 8, 4096, 1 << 20, SIZE_MAX, SSIZE_MAX, (size_t)INT_MAX + 1,
	};

	return pick(4) ? counts[pick(N_OF(counts))] : (size_t)rnd();
}

/* a buffer the kernel writes to, and its size */
static char *wbuf(size_t *count)
{
	if (pick(3) == 0) {
		*count = ucount();
		return ubad();
	}
	*count = pick(4) ? pick(mem.page) : mem.page;
	return mem.good + pick(64);
}

static int ufd(void)
{
	switch (pick(10)) {
	case 0: return mem.null;
	case 1: return mem.dir;
	case 2: return -1;
	case 3: return INT_MAX;
	default: return mem.zero;
	}
}

static int udirfd(void)
{
	return pick(4) ? AT_FDCWD : ufd();
}

static long uoff(void)
{
	static const long offs[] = { 0, 1, -1, 4096, 1L << 40, LONG_MIN, LONG_MAX };

	return pick(3) ? offs[pick(N_OF(offs))] : (long)rnd();
}

/* open flags that only ever read: no create, truncate, append or write */
static long open_flags(void)
{
	static const long some[] = {
		O_RDONLY, O_CLOEXEC, O_DIRECTORY, O_NOFOLLOW, O_PATH, O_NONBLOCK,
		O_NOATIME, O_LARGEFILE,
	};
	long f = pick(8) ? some[pick(N_OF(some))] | some[pick(N_OF(some))] : (long)rnd();

	f &= ~(long)(O_ACCMODE | O_CREAT | O_EXCL | O_TRUNC | O_APPEND |
		     (O_TMPFILE & ~O_DIRECTORY));
	return f | O_NOCTTY;
}

/* --------------------------------------------------- the hit calls */

static struct {
	unsigned long defs, accepted, enabled, enable_failed;
	unsigned long calls, hits, hitless;
	unsigned long trace_reads, latency_reads, trace_bytes, trace_errors;
	unsigned long joins, joins_accepted, delete_errors;
} st;

static long call(long nr, long a, long b, long c, long d)
{
	st.calls++;
	return syscall(nr, a, b, c, d);
}

static void close_if(long fd)
{
	if (fd >= 0)
		close(fd);
}

static void drive_openat2(void)
{
	/* struct open_how, on the second good page, with zeroes after it */
	uint64_t *how = (uint64_t *)(mem.good + mem.page);
	char *p = (char *)how;
	size_t size = 3 * sizeof(*how);

	memset(how, 0, 64);
	how[0] = open_flags();
	how[1] = pick(8) ? 0 : rnd() & 07777;
	how[2] = pick(2) ? 0 : pick(2) ? 1u << pick(6) : rnd();
	switch (pick(8)) {
	case 0: size = ucount(); break;
	case 1: size = 64; break;
	case 2: p = ubad(); break;
	}
	close_if(call(SYS_openat2, udirfd(), (long)upath(), (long)p, size));
}

static void drive_open(void)
{
	if (pick(4) == 0)
		drive_openat2();
	else
		close_if(call(SYS_openat, udirfd(), (long)upath(), open_flags(),
			      rnd() & 07777));
}

static void drive_read(void)
{
	size_t n;
	char *buf = wbuf(&n);

	call(SYS_read, ufd(), (long)buf, n, 0);
}

static void drive_pread(void)
{
	size_t n;
	char *buf = wbuf(&n);

	call(SYS_pread64, ufd(), (long)buf, n, uoff());
}

/* the data may be any pointer: the kernel only reads it (or not at all) */
static void drive_write(void)
{
	int fd = pick(4) ? mem.null : ufd();

	call(SYS_write, fd, (long)upath(), pick(2) ? pick(64) : ucount(), 0);
}

static void drive_lseek(void)
{
	call(SYS_lseek, ufd(), uoff(), pick(7), 0);
}

static void drive_stat(void)
{
	static const long flags[] = {
		0, AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH, AT_NO_AUTOMOUNT, 0x10000000,
	};
	size_t n;
	char *path = upath(), *st_buf = wbuf(&n);

	call(SYS_newfstatat, udirfd(), (long)path, (long)st_buf, ONE_OF(flags));
}

static void drive_readlink(void)
{
	size_t n;
	char *path = upath(), *buf = wbuf(&n);

	call(SYS_readlinkat, udirfd(), (long)path, (long)buf, (int)n);
}

/* ------------------------------------------------------ the targets */

/*
 * Functions the fuzzer reaches with a call of its own.  A name that
 * starts with '@' is a syscall wrapper (SYSCALL_PREFIX), whose one
 * argument is the struct pt_regs of the user registers; its params are
 * then the syscall's, found in those registers (its BTF fields are
 * wrapper_fields).  Kinds of params: i an integer, u a user string, b a
 * user buffer, k a kernel pointer.
 */
struct target {
	const char *sym;
	const char *params;
	const char *btf[4];	/* parameter names (by position) */
	const char *fields[3];	/* BTF field expressions */
	void (*drive)(void);
};

static const struct target targets[] = {
	{ "do_sys_openat2", "iuk", { "dfd", "filename", "how" },
	  { "how->flags", "how->resolve", "how->mode" }, drive_open },
	{ "do_sys_open", "iuii", { "dfd", "filename", "flags", "mode" },
	  { "filename", "flags", "mode" }, drive_open },
	{ "vfs_open", "kk", { "path", "file" },
	  { "path->dentry->d_name.name", "file->f_flags", "path->mnt" }, drive_open },
	{ "ksys_read", "ibi", { "fd", "buf", "count" },
	  { "fd", "buf", "count" }, drive_read },
	{ "vfs_read", "kbik", { "file", "buf", "count", "pos" },
	  { "file->f_mode", "file->f_path.dentry->d_name.name", "file->f_pos" }, drive_read },
	{ "ksys_pread64", "ibii", { "fd", "buf", "count", "pos" },
	  { "fd", "count", "pos" }, drive_pread },
	{ "ksys_write", "ibi", { "fd", "buf", "count" },
	  { "fd", "buf", "count" }, drive_write },
	{ "vfs_write", "kbik", { "file", "buf", "count", "pos" },
	  { "file->f_mode", "file->f_inode->i_ino", "file->f_pos" }, drive_write },
	{ "vfs_llseek", "kii", { "file", "offset", "whence" },
	  { "file->f_pos", "offset", "whence" }, drive_lseek },
	{ "vfs_fstatat", "iuki", { "dfd", "filename", "stat", "flags" },
	  { "stat->size", "stat->mode", "flags" }, drive_stat },
	{ "do_readlinkat", "iubi", { "dfd", "pathname", "buf", "bufsiz" },
	  { "pathname", "bufsiz", "buf" }, drive_readlink },
	{ "@openat", "iuii", { 0 }, { 0 }, drive_open },
	{ "@openat2", "iubi", { 0 }, { 0 }, drive_openat2 },
	{ "@read", "ibi", { 0 }, { 0 }, drive_read },
	{ "@write", "ibi", { 0 }, { 0 }, drive_write },
	{ "@pread64", "ibii", { 0 }, { 0 }, drive_pread },
	{ "@lseek", "iii", { 0 }, { 0 }, drive_lseek },
	{ "@newfstatat", "iubi", { 0 }, { 0 }, drive_stat },
	{ "@readlinkat", "iubi", { 0 }, { 0 }, drive_readlink },
};

static int is_wrapper(const struct target *t)
{
	return t->sym[0] == '@';
}

static void add_sym(struct buf *b, const struct target *t)
{
	if (is_wrapper(t))
		add(b, "%s%s", SYSCALL_PREFIX, t->sym + 1);
	else
		add(b, "%s", t->sym);
}

/* 1 to 4 calls that reach @t, with fuzzed arguments */
static void drive(const struct target *t)
{
	int n = 1 + pick(4);

	while (n--)
		t->drive();
}

/* -------------------------------------------------- hit definitions */

#define HIT_ARGS_MAX	16

enum { A_PARAM, A_RETVAL, A_EXTRA, A_GENERAL };

struct hitarg {
	int src;		/* A_*: how the fetch was made */
	int mem;		/* A_PARAM: the fetch reads memory */
	char name[16];		/* empty: the kernel names it */
	char fetch[160];	/* a whole argument word for A_GENERAL */
	char type[24];		/* empty: the default type */
};

struct hitdef {
	const struct target *t;
	unsigned int event;	/* fz/h<event> */
	int ret;		/* 0 entry, 1 "r[maxactive]:", 2 "p: SYM%return" */
	unsigned int maxactive;	/* for "r": 0 for none */
	int has_off;
	unsigned int off;	/* for an entry probe with has_off */
	int nargs;
	struct hitarg a[HIT_ARGS_MAX];
};

/* an expression whose value is parameter @i of @t */
static void gen_value(struct buf *b, const struct target *t, int i)
{
	int fp = cur_kind == K_FPROBE;	/* no registers in an fprobe */

	if (is_wrapper(t)) {
		add(b, "+%u(%s)", sys_arg_off[i], !fp && pick(4) ? arg_regs[0] :
		    pick(2) ? "$arg1" : "regs");
		return;
	}
	switch (pick(fp ? 4 : 10)) {
	case 0: case 1: add(b, "$arg%d", i + 1); break;
	case 2: case 3: add(b, "%s", t->btf[i]); break;
	case 4: add(b, "%s", ONE_OF(arg_regs)); break;	/* maybe another one */
	default: add(b, "%s", arg_regs[i]);
	}
}

/* parameter @i, or the memory it points to when @mem */
static void gen_param_fetch(struct buf *b, const struct target *t, int i, int mem)
{
	int user = strchr("ub", t->params[i]) != NULL, nested = pick(8) == 0;

	if (!mem) {
		gen_value(b, t, i);
		return;
	}
	if (pick(8) == 0)
		user = !user;
	if (nested)
		add(b, "+%u(", pick(2) ? 0 : 8 * pick(4));
	add(b, "%c%s%u(", pick(8) ? '+' : '-', user && pick(2) ? "u" : "",
	    pick(3) ? 0 : pick(64));
	gen_value(b, t, i);
	add(b, nested ? "))" : ")");
}

/* a type for a fetch of a parameter of kind @kind, from memory or not */
static const char *gen_type(int kind, int mem)
{
	static const char *const scalar[] = {
		"", "", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
		"x8", "x16", "x32", "x64", "char", "symbol", "b4@3/32", "b1@0/8",
		"b13@50/64",
	};
	static const char *const memory[] = {
		"string", "ustring", "string[2]", "ustring[3]", "u8[16]", "char[8]",
		"x64[3]", "s16[5]",
	};
	static const char *const kernel[] = { "%pd", "%pD", "symstr", "symbol" };

	if (mem && (kind == 'u' ? pick(4) != 0 : pick(4) == 0))
		return ONE_OF(memory);
	if (kind == 'k' && pick(6) == 0)
		return ONE_OF(kernel);
	return ONE_OF(scalar);
}

/* a type that needs a fetch from memory: strings and arrays */
static int memory_type(const char *type)
{
	return strstr(type, "string") || strchr(type, '[');
}

/* a value or memory of a return probe; returns the kind for its type */
static int gen_retval(struct buf *b, int mem)
{
	static const char *const value[] = { "$retval", "$retval", RET_REG };
	static const char *const memory[] = {
		"+0($retval)", "+u0($retval)", "+8(+0($retval))", "-8($retval)",
	};

	if (mem)
		add(b, "%s", ONE_OF(memory));
	else
		add(b, "%s", cur_kind == K_FPROBE ? "$retval" : ONE_OF(value));
	return mem ? 'k' : 'i';
}

/* a fetch that is no parameter of the target: returns the kind, 0 for none */
static int gen_extra(struct buf *b, const struct target *t)
{
	static const char *const task[] = {
		"$current", "$current->pid", "$current->tgid",
		"$current->real_parent->tgid", "$current->se.vruntime",
		"$current->flags", "$current->mm", "(task_struct)$current->pid",
		"(task_struct,se)+0($current)->pid",
	};

	switch (pick(9)) {
	case 0: add(b, "%s", pick(2) ? "$comm" : "$COMM"); return 0;
	case 7: add(b, "%s", ONE_OF(task)); return 'i';
	case 1: add(b, "$stack%u", pick(8)); return 'k';
	case 2: add(b, "$stack"); return 'k';
	case 3: add(b, "@linux_proc_banner%s", pick(2) ? "" : "+3"); return 'u';
	case 4: add(b, "\\%lld", (long long)(rnd() >> pick(64))); return 'i';
	case 5: add(b, "$arg%u", 1 + pick(8)); return 'i';
	default:
		add(b, "%s", is_wrapper(t) ? ONE_OF(wrapper_fields) : t->fields[pick(3)]);
		return 'k';
	}
}

/*
 * The fetch of @a (and a->mem), made the way a->src says, for a probe on
 * h->t; @mem: whether a parameter is read from memory, -1 for either.
 * Returns the kind of the value, for its type (0: no type).
 */
static int gen_hit_fetch(const struct hitdef *h, struct hitarg *a, int mem)
{
	const struct target *t = h->t;
	int i, kind, any = mem < 0;
	struct buf b;

	b.n = 0;
	b.s[0] = '\0';
	if (any)
		mem = pick(2);
	switch (a->src) {
	case A_GENERAL:
		gen_arg(&b);
		kind = 0;
		break;
	case A_RETVAL:
		kind = gen_retval(&b, mem);
		break;
	case A_EXTRA:
		kind = gen_extra(&b, t);
		mem = kind == 'u';	/* @linux_proc_banner is memory */
		break;
	default:
		i = pick(strlen(t->params));
		kind = t->params[i];
		if (any)	/* pointers are mostly followed, integers not */
			mem = kind == 'i' ? pick(4) == 0 : pick(4) != 0;
		gen_param_fetch(&b, t, i, mem);
	}
	a->mem = mem;
	snprintf(a->fetch, sizeof(a->fetch), "%.*s", (int)sizeof(a->fetch) - 1, b.s);
	return kind;
}

static void gen_hit_arg(const struct hitdef *h, struct hitarg *a, int pos)
{
	unsigned int r = pick(20);
	int kind;

	a->src = r < 3 ? A_GENERAL : r < 5 ? A_EXTRA :
		 h->ret && r < 9 ? A_RETVAL : A_PARAM;
	a->name[0] = '\0';
	if (a->src != A_GENERAL && pick(32) == 0)
		strcpy(a->name, "dup");
	else if (a->src != A_GENERAL && pick(8))	/* a join keeps it */
		snprintf(a->name, sizeof(a->name), "%c%d", "xyzpqn"[pick(6)], pos);
	kind = gen_hit_fetch(h, a, -1);
	snprintf(a->type, sizeof(a->type), "%s",
		 kind ? gen_type(kind, a->mem) : pick(4) ? "" : "string");
}

/* an offset into the function, for an entry probe, now and then */
static void gen_offset(struct hitdef *h)
{
	static const unsigned int near[] = { 0, 4, 8, 9, 12, 16 };

	h->has_off = !h->ret && cur_kind == K_KPROBE && pick(8) == 0;
	h->off = pick(2) ? ONE_OF(near) : pick(64);
	h->off -= h->off % INSN_ALIGN;
}

static void gen_hitdef(struct hitdef *h)
{
	int i;

	h->t = &targets[pick(N_OF(targets))];
	h->event = pick(100);
	h->ret = pick(3) == 0 ? 1 + pick(2) : 0;
	h->maxactive = pick(4) ? 0 : pick(2) ? 1 + pick(8) : pick(5000);
	gen_offset(h);
	h->nargs = pick(8) ? pick(7) : pick(HIT_ARGS_MAX + 1);
	for (i = 0; i < h->nargs; i++)
		gen_hit_arg(h, &h->a[i], i);
}

/* the definition line of @h into @b; returns where its arguments start */
static size_t render_hitdef(const struct hitdef *h, struct buf *b)
{
	const struct hitarg *a;
	size_t args;
	int i;

	b->n = 0;
	b->s[0] = '\0';
	if (cur_kind == K_FPROBE)	/* fprobes take no maxactive */
		add(b, "f:fz/f%u ", h->event);
	else if (h->ret == 1 && h->maxactive)
		add(b, "r%u:fz/h%u ", h->maxactive, h->event);
	else
		add(b, "%c:fz/h%u ", h->ret == 1 ? 'r' : 'p', h->event);
	add_sym(b, h->t);
	if (h->ret == 2 || (h->ret && cur_kind == K_FPROBE))
		add(b, "%%return");
	else if (!h->ret && h->has_off)
		add(b, "+%u", h->off);
	args = b->n;
	for (i = 0; i < h->nargs; i++) {
		a = &h->a[i];
		add(b, " ");
		if (a->name[0] && a->src != A_GENERAL)
			add(b, "%s=", a->name);
		add(b, "%s", a->fetch);
		if (a->type[0] && a->src != A_GENERAL)
			add(b, ":%s", a->type);
	}
	return args;
}

/*
 * An argument of a join: the same name and type, read another way (from
 * a register where the first probe read memory, and the other way round,
 * or just elsewhere); sometimes renamed or retyped (to be refused), or
 * left as it was.
 */
static void vary_arg(const struct hitdef *j, struct hitarg *a, int pos)
{
	int mem = -1;

	switch (pick(16)) {
	case 0:
		snprintf(a->name, sizeof(a->name), "j%d", pos);
		return;
	case 1:
		snprintf(a->type, sizeof(a->type), "%s", gen_type('k', a->mem));
		return;
	case 2: case 3:
		return;
	}
	if (a->src == A_RETVAL && !j->ret)
		a->src = A_PARAM;
	if (memory_type(a->type))
		mem = pick(8) != 0;
	else if (pick(3))
		mem = !a->mem;
	gen_hit_fetch(j, a, mem);
}

/* a second probe for the event of @h: another place, the same arguments */
static void gen_join(const struct hitdef *h, struct hitdef *j)
{
	int k;

	*j = *h;
	if (pick(4))
		j->t = &targets[pick(N_OF(targets))];
	if (pick(8) == 0)
		j->ret = h->ret ? 0 : 1 + pick(2);	/* the other kind */
	else if (h->ret)
		j->ret = 1 + pick(2);
	j->maxactive = pick(2) ? h->maxactive : pick(9);
	gen_offset(j);
	for (k = 0; k < j->nargs; k++)
		vary_arg(j, &j->a[k], k);
	if (j->nargs && pick(10) == 0) {
		j->nargs--;
	} else if (j->nargs < HIT_ARGS_MAX && pick(10) == 0) {
		gen_hit_arg(j, &j->a[j->nargs], j->nargs);
		j->nargs++;
	}
}

/* ------------------------------------------------------------ files */

/* Seconds spent, by kind of work: see the summary line in main(). */
enum { T_ACCEPT, T_REJECT, T_CHECK, T_DELETE, T_HIT, T_TRACE, T_KINDS };
static double spent[T_KINDS];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Appends to the definition files go through descriptors kept open:
 * each write() is parsed on its own, and an open() and close() per
 * definition cost as much as the parse itself under the debug config.
 */
static int append_fd(const char *path)
{
	static const char *paths[3];
	static int fds[3] = { -1, -1, -1 };
	int i;

	for (i = 0; i < 3 && paths[i]; i++)
		if (!strcmp(paths[i], path))
			return fds[i];
	if (i == 3)
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

/* ------------------------------------------------ error_log checks */

/*
 * Each rejected owned write is checked right after it: error_log must
 * then hold exactly one entry more (an "error:" line and a caret line)
 * than before it, so one line that logs two entries cannot hide another
 * that logs none.  error_log keeps the last 16 entries: it is emptied
 * every BATCH checked lines, and after every write whose entries are
 * not counted (lines other parsers own, deletes of every event).
 * Accepted events (hit events among them, disabled again) stay until
 * LIVE_MAX of them exist, which also exercises name clashes and deletes.
 */
#define BATCH		8
#define LIVE_MAX	16

struct pending {
	struct buf b;
	const char *file;
};

static struct pending pend;
static int logged, live, live_dyn, quiet, verbose;
static unsigned long unlogged;
static char log_buf[1 << 16];

static const char *target(int dyn)
{
	return dyn ? TR "dynamic_events" : TR "kprobe_events";
}

/* A TAP diagnostic line keeps to one line: newlines show as \n. */
static void print_oneline(const char *s)
{
	for (; *s; s++)
		if (*s == '\n')
			fputs("\\n", stdout);
		else
			putchar(*s);
}

/* the slowest definition writes, shown in the summary */
#define SLOWEST	6
static struct {
	double t;
	int err;
	char line[128];
} slow[SLOWEST];

static void note_slow(const struct pending *p, double t, int err)
{
	int i = SLOWEST - 1;

	if (t <= slow[i].t)
		return;
	for (; i > 0 && slow[i - 1].t < t; i--)
		slow[i] = slow[i - 1];
	slow[i].t = t;
	slow[i].err = err;
	snprintf(slow[i].line, sizeof(slow[i].line), "%.*s",
		 (int)strcspn(p->b.s, "\n"), p->b.s);
}

static int write_def(const struct pending *p)
{
	double t = now();
	int err = write_file(p->file, p->b.s, p->b.n, 0);

	t = now() - t;
	spent[err ? T_REJECT : T_ACCEPT] += t;
	note_slow(p, t, err);
	if (verbose) {
		printf("# kpfuzz: %s %d '", p->file + strlen(TR), err);
		print_oneline(p->b.s);
		printf("'\n");
	}
	return err;
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
	if (quiet || unlogged > 20)
		return;
	printf("# %d error_log entries (want 1, with a caret) after %s for %s: '",
	       entries, strerror(-err), p->file + strlen(TR));
	print_oneline(p->b.s);
	printf("'\n");
}

/* empties error_log: the next check counts from 0 */
static void clear_log(void)
{
	write_file(TR "error_log", "", 0, 1);
	logged = 0;
}

/* @p was accepted: its event is live until the next delete_all() */
static void note_live(const struct pending *p)
{
	live++;
	live_dyn += !strcmp(p->file, TR "dynamic_events");
}

/*
 * An eprobe on a fuzzed event keeps that event busy, and dynamic_events
 * then refuses to be emptied: the eprobes go first, one at a time.
 */
static void delete_eprobes_first(void)
{
	char *line, *save = NULL, del[160];
	int err;

	read_file(TR "dynamic_events", log_buf, sizeof(log_buf));
	for (line = strtok_r(log_buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "e:", 2))
			continue;
		snprintf(del, sizeof(del), "-:%.*s", (int)strcspn(line + 2, " "), line + 2);
		write_file(TR "dynamic_events", del, strlen(del), 0);
	}
	err = write_file(TR "dynamic_events", "", 0, 1);
	if (err && ++st.delete_errors <= 5 && !quiet)
		printf("# kpfuzz: emptying dynamic_events: %s\n", strerror(-err));
}

/* every event of every kind, whoever made it: a clean start */
static void delete_every_kind(void)
{
	write_file(TR "kprobe_events", "", 0, 1);
	write_file(TR "uprobe_events", "", 0, 1);
	if (write_file(TR "dynamic_events", "", 0, 1))
		delete_eprobes_first();
	clear_log();
	live = live_dyn = 0;
}

/*
 * Deletes every event the fuzzer made: through kprobe_events when only
 * kprobes are fuzzed (and through dynamic_events too when a line there
 * was accepted: it may have been an f: or other non-kprobe event), else
 * through dynamic_events, which lists every kind.
 */
static void delete_all(void)
{
	double t;

	if (!live)
		return;	/* nothing to delete: spare the truncation */
	t = now();
	if (kinds_on == 1u << K_KPROBE)
		write_file(TR "kprobe_events", "", 0, 1);
	if ((kinds_on != 1u << K_KPROBE || live_dyn) &&
	    write_file(TR "dynamic_events", "", 0, 1))
		delete_eprobes_first();
	clear_log();
	spent[T_DELETE] += now() - t;
	live = live_dyn = 0;
}

/* a rejected owned line (refused with @err): one error_log entry more */
static void rejected_line(const struct pending *p, int err)
{
	double t = now();
	int e, c;

	count_log(&e, &c);
	if (e != logged + 1 || c != logged + 1) {
		report_unlogged(p, err, e - logged);
		clear_log();
	} else if (++logged == BATCH) {
		clear_log();
	}
	spent[T_CHECK] += now() - t;
}

/* ------------------------------------------------------ hit cycles */

#define TRACE_READ_MAX	(64 << 10)

static void trace_error(const char *path, int err)
{
	if (++st.trace_errors <= 5 && !quiet)
		printf("# kpfuzz: reading %s: %s\n", path + strlen(TR), strerror(err));
}

/* @path to its end, or to TRACE_READ_MAX bytes; returns the bytes read */
static size_t read_bounded(const char *path, int flags)
{
	static char chunk[4096];
	size_t total = 0;
	ssize_t r = 0;
	int fd = open(path, O_RDONLY | flags);

	if (fd < 0) {
		trace_error(path, errno);
		return 0;
	}
	while (total < TRACE_READ_MAX && (r = read(fd, chunk, sizeof(chunk))) > 0)
		total += r;
	if (r < 0 && errno != EAGAIN)
		trace_error(path, errno);
	close(fd);
	return total;
}

/*
 * Print the records: trace (which leaves them in the buffer) now and
 * then, trace_pipe always, which empties the buffer for the next cycle.
 */
static void read_traces(int joined)
{
	int lat = pick(4) == 0;
	double t = now();

	if (lat)
		write_file(TR "options/latency-format", "1", 1, 1);
	if (joined || pick(4) == 0) {
		st.trace_bytes += read_bounded(TR "trace", 0);
		st.trace_reads++;
	}
	st.trace_bytes += read_bounded(TR "trace_pipe", O_NONBLOCK);
	st.trace_reads++;
	if (lat) {
		write_file(TR "options/latency-format", "0", 1, 1);
		st.latency_reads++;
	}
	spent[T_TRACE] += now() - t;
}

/*
 * The hits of the probes of event fz/@ev in @profile, one line per probe
 * whose column @col (from 1) names the event, with its group or without,
 * and whose next column is the hits.  Only fz/ has names like @ev.
 */
static unsigned long profile_count(const char *profile, int col, const char *ev)
{
	char *line, *save = NULL, *word, *slash, *wsave;
	unsigned long sum = 0;
	int c;

	read_file(profile, log_buf, sizeof(log_buf));
	for (line = strtok_r(log_buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		wsave = NULL;
		word = strtok_r(line, " \t", &wsave);
		for (c = 1; word && c < col; c++)
			word = strtok_r(NULL, " \t", &wsave);
		if (!word)
			continue;
		slash = strrchr(word, '/');
		if (strcmp(slash ? slash + 1 : word, ev))
			continue;
		word = strtok_r(NULL, " \t", &wsave);
		if (word)
			sum += strtoul(word, NULL, 10);
	}
	return sum;
}

/* the hit event of a kprobe or fprobe hit definition: h<event>, f<event> */
static const char *hit_event(const struct hitdef *h)
{
	static char ev[16];

	snprintf(ev, sizeof(ev), "%c%u", cur_kind == K_FPROBE ? 'f' : 'h', h->event);
	return ev;
}

static unsigned long profile_hits(const struct hitdef *h)
{
	if (cur_kind == K_FPROBE)
		return profile_count(TR "fprobe_profile", 1, hit_event(h));
	return profile_count(TR "kprobe_profile", 1, hit_event(h));
}

static void count_hits(unsigned long hits)
{
	st.hits += hits;
	kst[cur_kind].hits += hits;
	st.hitless += !hits;
}

/* a second probe on the event of @h; 1 if the kernel took it */
static int try_join(const struct hitdef *h, struct hitdef *j)
{
	struct pending *p = &pend;
	int err;

	gen_join(h, j);
	render_hitdef(j, &p->b);
	p->file = target(cur_kind == K_FPROBE || pick(4) == 0);
	st.joins++;
	err = write_def(p);
	if (err) {
		rejected_line(p, err);
		return 0;
	}
	st.joins_accepted++;
	note_live(p);
	return 1;
}

/*
 * Enable the event of @h, call its places, disable it, read the records.
 * One time in three a join comes first, or (one time in four of those)
 * while the event is enabled; trace is read after every accepted join.
 */
static void hit_cycle(const struct hitdef *h)
{
	static struct hitdef j;
	int join = pick(3) == 0 ? 1 + (pick(4) == 0) : 0, joined = 0, err;
	char path[64];
	unsigned long hits;
	double t = now();

	if (join == 1)
		joined = try_join(h, &j);
	hits = profile_hits(h);	/* an older event of that name has counted some */
	snprintf(path, sizeof(path), TR "events/fz/%s/enable", hit_event(h));
	if (write_file(path, "1", 1, 1)) {
		st.enable_failed++;
		spent[T_HIT] += now() - t;
		return;
	}
	st.enabled++;
	kst[cur_kind].enabled++;
	if (join == 2)
		joined = try_join(h, &j);
	drive(h->t);
	if (joined)
		drive(j.t);
	err = write_file(path, "0", 1, 1);
	if (err && !quiet)
		printf("# kpfuzz: disabling fz/%s: %s\n", hit_event(h), strerror(-err));
	count_hits(profile_hits(h) - hits);
	spent[T_HIT] += now() - t;
	read_traces(joined);
}

/* ------------------------------------------------------ submissions */

static unsigned long accepted, rejected;

/*
 * The words of @line as the kernel splits them, up to a '#' (the rest is
 * a comment): their count, the first into @w0 (@len0 bytes) and the
 * second into @w1 (@len1 bytes), cut to fit, empty when none.
 */
static int line_words(const char *line, char *w0, size_t len0,
		      char *w1, size_t len1)
{
	size_t n = strcspn(line, "#"), i = 0, k;
	int argc = 0;

	w0[0] = w1[0] = '\0';
	while (i < n) {
		while (i < n && isspace((unsigned char)line[i]))
			i++;
		if (i == n)
			break;
		for (k = i; k < n && !isspace((unsigned char)line[k]); k++)
			;
		if (argc == 0)
			snprintf(w0, len0, "%.*s", (int)(k - i), line + i);
		else if (argc == 1)
			snprintf(w1, len1, "%.*s", (int)(k - i), line + i);
		argc++;
		i = k;
	}
	return argc;
}

/* the uprobe parser's place: a '/', and a digit after the last ':' */
static int uprobe_place(const char *word)
{
	const char *colon = strrchr(word, ':');

	return strchr(word, '/') && colon && isdigit((unsigned char)colon[1]);
}

/*
 * Must a refusal of @p leave an error_log entry?  Each parser documents
 * the lines it owns, and logs every refusal of those:
 *   kprobe_events   every line, deletes and unknown commands too;
 *   uprobe_events   p and r lines whose second word is a uprobe place
 *                   (a '/' and a digit after the last ':'): the others
 *                   are declined with EINVAL and no entry, and deletes
 *                   go to the generic dynamic event code;
 *   dynamic_events  p and r lines (the kprobe parser logs what it does
 *                   not hand to the uprobe parser), and e, f and t lines
 *                   of two words or more; the rest (deletes, unknown
 *                   commands, a lone head) is the generic code's, which
 *                   logs nothing.
 */
static int owned(const struct pending *p)
{
	char w0[64], w1[LINE_MAX_LEN];
	int argc = line_words(p->b.s, w0, sizeof(w0), w1, sizeof(w1));

	if (!strcmp(p->file, TR "kprobe_events"))
		return 1;
	if (!strcmp(p->file, TR "uprobe_events"))
		return (w0[0] == 'p' || w0[0] == 'r') && argc >= 2 && uprobe_place(w1);
	if (w0[0] == 'p' || w0[0] == 'r')
		return 1;
	return w0[0] && strchr("eft", w0[0]) && argc >= 2;
}

/* Writes @p: 0 when accepted (the event is live), else the error. */
static int submit(struct pending *p)
{
	int err = write_def(p);

	if (!err) {
		accepted++;
		kst[cur_kind].accepted++;
		note_live(p);
		return 0;
	}
	rejected++;
	kst[cur_kind].rejected++;
	if (owned(p))
		rejected_line(p, err);
	else
		clear_log();	/* other parsers' entries stay out */
	return err;
}

/* the next definition's buffer, after making room for it */
static struct pending *next_pending(const char *file)
{
	struct pending *p;

	if (live >= LIVE_MAX)
		delete_all();
	p = &pend;
	p->b.n = 0;
	p->b.s[0] = '\0';
	p->file = file;
	return p;
}

/*
 * Enable fz/@ev, call @fire(@arg) 1 to 4 times, disable it, count the
 * hits its probes made (@profile, the name in column @col) and print the
 * records.  For the kinds without joins.
 */
static void fire_event(const char *ev, const char *profile, int col,
		       void (*fire)(const void *), const void *arg)
{
	unsigned long hits = profile_count(profile, col, ev);
	char path[64];
	double t = now();
	int n = 1 + pick(4), err;

	snprintf(path, sizeof(path), TR "events/fz/%s/enable", ev);
	if (write_file(path, "1", 1, 1)) {
		st.enable_failed++;
		spent[T_HIT] += now() - t;
		return;
	}
	st.enabled++;
	kst[cur_kind].enabled++;
	while (n--)
		fire(arg);
	err = write_file(path, "0", 1, 1);
	if (err && !quiet)
		printf("# kpfuzz: disabling fz/%s: %s\n", ev, strerror(-err));
	count_hits(profile_count(profile, col, ev) - hits);
	spent[T_HIT] += now() - t;
	read_traces(0);
}

/* an argument name, now and then a clash, or none */
static void gen_arg_name(struct buf *b, int pos)
{
	if (pick(32) == 0)
		add(b, "dup=");
	else if (pick(8))
		add(b, "%c%d=", "xyzpqn"[pick(6)], pos);
}

/* a hit definition's arguments: mutated one time in six */
static void mutate_args(struct buf *b, size_t args)
{
	if (b->n > args + 1 && pick(6) == 0)
		mutate(b, args + 1);	/* never the place before them */
}

/* --------------------------------------------------- kprobe, fprobe */

/* a hit definition: on acceptance, its hit cycle */
static void hit_definition(void)
{
	static struct hitdef h;
	struct pending *p = next_pending(target(cur_kind == K_FPROBE));
	size_t args;

	gen_hitdef(&h);
	args = render_hitdef(&h, &p->b);
	if (pick(6) == 0)
		mutate(&p->b, args);
	st.defs++;
	if (submit(p))
		return;
	st.accepted++;
	hit_cycle(&h);
}

static void general_definition(void)
{
	int dyn = pick(10) == 0;
	struct pending *p = next_pending(target(dyn));

	gen_definition(&p->b);
	if (pick(3) == 0)
		mutate(&p->b, 0);
	submit(p);
}

/* f:, f:SYM%return: places and arguments from the kprobe grammar */
static void fprobe_general(void)
{
	struct pending *p = next_pending(TR "dynamic_events");
	const struct target *t = &targets[pick(N_OF(targets))];
	struct buf *b = &p->b;
	int nargs, i;

	switch (pick(8)) {
	case 0: add(b, "f "); break;
	case 1: add(b, "f%u:fz/e%u ", pick(2) ? pick(16) : (unsigned int)rnd(), pick(1000)); break;
	case 2: add(b, "f:%s/%s ", ONE_OF(names), ONE_OF(names)); break;
	case 3: add(b, "f:fz.e%u ", pick(1000)); break;
	default: add(b, "f:fz/e%u ", pick(1000));
	}
	switch (pick(8)) {
	case 0: add(b, "%s", pick(2) ? ONE_OF(safe_syms) : ONE_OF(other_syms)); break;
	case 1: add(b, "vfs_*"); break;
	default: add_sym(b, t);
	}
	switch (pick(12)) {
	case 0: case 1: case 2: add(b, "%%return"); break;
	case 3: add(b, "+%u", pick(32)); break;
	case 4: add(b, "%%return+%u", pick(8)); break;
	case 5: add(b, "%%ret"); break;
	}
	nargs = pick(5) ? pick(6) : pick(140);
	for (i = 0; i < nargs; i++) {
		add(b, " ");
		gen_arg(b);
	}
	if (pick(3) == 0)
		mutate(b, 0);
	submit(p);
}

/* ---------------------------------------------------------- uprobes */

/*
 * Uprobe targets: functions of this program that are never inlined or
 * cloned and only do arithmetic on their arguments.  The probes read
 * what the arguments point to, good or faulting memory; the functions
 * never do.  usem is a reference counter (a semaphore, in the uprobe
 * sense) the kernel may count in while a probe that names it is on.
 */
#define UTARGET __attribute__((noipa, used, noinline))

static volatile long usink;
volatile uint64_t uglobal = 0x1122334455667788ULL;
volatile uint16_t usem __attribute__((section(".data")));	/* file-backed */

UTARGET long uf_str(const char *s, long n)
{
	usink += n;
	return (long)(uintptr_t)s + n;
}

UTARGET long uf_buf(const void *p, size_t n, long x)
{
	usink ^= x;
	return (long)n - x + (long)(uintptr_t)p;
}

UTARGET long uf_six(long a, long b, long c, long d, long e, long f)
{
	usink++;
	return a + b + c + d + e + f;
}

UTARGET const char *uf_ret(const char *s)
{
	usink++;
	return s;
}

/* params as in targets[]; ret: the kind of the return value */
static struct utarget {
	const char *params;
	int ret;
	unsigned long off;	/* its file offset, from the ELF headers */
} utargets[] = {
	{ "ui", 'i' }, { "bii", 'i' }, { "iiiiii", 'i' }, { "u", 'u' },
};

static void ucall(const void *arg)
{
	const struct utarget *u = arg;
	long a[6];
	size_t n;
	char *p;
	int i;

	st.calls++;
	switch (u - utargets) {
	case 0:
		p = upath();
		uf_str(p, (long)rnd());
		break;
	case 1:
		p = pick(2) ? wbuf(&n) : (n = pick(64), upath());
		uf_buf(p, n, (long)rnd());
		break;
	case 2:
		for (i = 0; i < 6; i++)
			a[i] = pick(2) ? (long)rnd() : (long)(uintptr_t)upath();
		uf_six(a[0], a[1], a[2], a[3], a[4], a[5]);
		break;
	default:
		uf_ret(upath());
	}
}

/* This program: its path, and where its PT_LOAD segments are in the file. */
static struct {
	char path[PATH_MAX];
	unsigned long bias;	/* run-time address less ELF address */
	Elf64_Phdr ph[16];
	int nph;
	unsigned long glob_rel;	/* @+OFFSET of uglobal, text-relative */
	unsigned long glob_off, sem_off;	/* file offsets */
} self;

/* the file offset of @addr in this program, 0 for none */
static unsigned long file_offset(const volatile void *addr)
{
	unsigned long va = (uintptr_t)addr - self.bias;
	const Elf64_Phdr *ph;
	int i;

	for (i = 0; i < self.nph; i++) {
		ph = &self.ph[i];
		if (ph->p_type == PT_LOAD && va >= ph->p_vaddr &&
		    va < ph->p_vaddr + ph->p_filesz)
			return va - ph->p_vaddr + ph->p_offset;
	}
	return 0;
}

/* Reads this program's ELF headers: the file offsets of the targets. */
static int self_init(void)
{
	static const void *const fns[] = { uf_str, uf_buf, uf_six, uf_ret };
	unsigned long phdr_va = 0;
	Elf64_Ehdr eh;
	ssize_t n = readlink("/proc/self/exe", self.path, sizeof(self.path) - 1);
	int fd, i, ok;
	Elf64_Phdr *ph;

	if (n <= 0)
		return -1;
	self.path[n] = '\0';
	fd = open(self.path, O_RDONLY);
	if (fd < 0)
		return -1;
	ok = pread(fd, &eh, sizeof(eh), 0) == sizeof(eh) &&
	     !memcmp(eh.e_ident, ELFMAG, SELFMAG) && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
	     eh.e_phentsize == sizeof(Elf64_Phdr) && eh.e_phnum <= N_OF(self.ph) &&
	     pread(fd, self.ph, eh.e_phnum * sizeof(Elf64_Phdr), eh.e_phoff) ==
	     (ssize_t)(eh.e_phnum * sizeof(Elf64_Phdr));
	close(fd);
	if (!ok)
		return -1;
	self.nph = eh.e_phnum;
	/* the bias: where the headers are mapped, less where the ELF says */
	for (i = 0; i < self.nph; i++) {
		ph = &self.ph[i];
		if (ph->p_type == PT_LOAD && eh.e_phoff >= ph->p_offset &&
		    eh.e_phoff < ph->p_offset + ph->p_filesz)
			phdr_va = ph->p_vaddr + eh.e_phoff - ph->p_offset;
	}
	if (phdr_va && getauxval(AT_PHDR))
		self.bias = getauxval(AT_PHDR) - phdr_va;
	for (i = 0; i < (int)N_OF(fns); i++)
		if (!(utargets[i].off = file_offset(fns[i])))
			return -1;
	/* @+OFFSET counts from the start of the file as the text maps it */
	self.glob_rel = (uintptr_t)&uglobal - self.bias -
			((uintptr_t)uf_str - self.bias - utargets[0].off);
	self.glob_off = file_offset(&uglobal);
	self.sem_off = file_offset(&usem);
	return 0;
}

/* an argument of a uprobe on @u (a return probe when @ret) */
static void gen_uarg(struct buf *b, const struct utarget *u, int ret, int pos)
{
	int i = pick(strlen(u->params)), kind = u->params[i], mem = 0;

	if (pick(12) == 0) {
		gen_arg(b);	/* the general grammar */
		return;
	}
	gen_arg_name(b, pos);
	switch (pick(ret ? 12 : 10)) {
	case 0: add(b, "$stack%u", pick(10)); break;
	case 1: add(b, pick(4) ? "$comm" : "$stack"); kind = 0; break;
	case 2: add(b, "@+%#lx", pick(2) ? self.glob_rel : self.glob_off); break;
	case 3: add(b, "@%#lx", (unsigned long)(uintptr_t)(pick(2) ? (void *)&uglobal : upath()));
		kind = 'u';
		mem = 1;
		break;
	case 4: add(b, "\\%lld", (long long)(rnd() >> pick(64))); break;
	case 10: add(b, "$retval"); kind = u->ret == 'u' ? 'k' : 'i'; break;
	case 11:
		add(b, "%c%s%u($retval)", pick(8) ? '+' : '-', pick(4) ? "" : "u", pick(3) ? 0 : pick(64));
		kind = 'u';
		mem = 1;
		break;
	default:
		mem = kind == 'i' ? pick(4) == 0 : pick(4) != 0;
		if (!mem)
			add(b, "%s", pick(8) ? arg_regs[i] : ONE_OF(arg_regs));
		else if (pick(8) == 0)
			add(b, "+%u(+0(%s))", 8 * pick(2), arg_regs[i]);
		else
			add(b, "%c%s%u(%s)", pick(8) ? '+' : '-', pick(4) ? "" : "u",
			    pick(3) ? 0 : pick(64), arg_regs[i]);
	}
	if (kind && pick(4))
		add(b, ":%s", gen_type(kind == 'k' ? 'i' : kind, mem));
	else if (!kind && pick(4) == 0)
		add(b, ":string");
}

/*
 * The place of a uprobe: this program at a target function, in the
 * grammar's order PATH:OFFSET[%return][(REFCTR)], with a reference
 * counter one time in sixteen.
 */
static void add_uplace(struct buf *b, const struct utarget *u, int retsuffix)
{
	add(b, "%s:%#lx", self.path, u->off);
	if (retsuffix)
		add(b, "%%return");
	if (pick(16) == 0)
		add(b, "(%#lx)", self.sem_off);
}

/*
 * A uprobe, uretprobe (r:) or "p: PATH:OFFSET%return" on a function of
 * this program, whose arguments read its parameters from the registers
 * and the memory they point to, the stack, this program's data by
 * address and by file offset; when accepted, the function is called.
 * The place is never mutated: an offset that is no instruction
 * boundary would break the program.
 */
static void uprobe_hit(void)
{
	struct pending *p = next_pending(pick(4) ? TR "uprobe_events" : TR "dynamic_events");
	const struct utarget *u = &utargets[pick(N_OF(utargets))];
	int ret = pick(3) == 0 ? 1 + pick(2) : 0;
	unsigned int ev = pick(100);
	int nargs = pick(8) ? pick(7) : pick(HIT_ARGS_MAX + 1), i;
	char name[16];
	size_t args;

	add(&p->b, "%c:fz/u%u ", ret == 1 ? 'r' : 'p', ev);
	add_uplace(&p->b, u, ret == 2);
	args = p->b.n;
	for (i = 0; i < nargs; i++) {
		add(&p->b, " ");
		gen_uarg(&p->b, u, ret, i);
	}
	mutate_args(&p->b, args);
	st.defs++;
	kst[cur_kind].hitdefs++;
	if (submit(p))
		return;
	st.accepted++;
	snprintf(name, sizeof(name), "u%u", ev);
	fire_event(name, TR "uprobe_profile", 2, ucall, u);
}

static void uprobe_general(void)
{
	struct pending *p = next_pending(pick(4) ? TR "uprobe_events" : TR "dynamic_events");
	const struct utarget *u = &utargets[pick(N_OF(utargets))];
	struct buf *b = &p->b;
	int nargs, i, ret = pick(3) == 0;

	switch (pick(8)) {
	case 0: add(b, "%c ", ret ? 'r' : 'p'); break;
	case 1: add(b, "r%u:fz/e%u ", pick(8), pick(1000)); break;
	case 2: add(b, "-:fz/e%u", pick(1000)); goto write;
	case 3: add(b, "p:%s/%s ", ONE_OF(names), ONE_OF(names)); break;
	case 4: add(b, "%c:fz/e%u ", "pruefx"[pick(6)], pick(1000)); break;
	default: add(b, "%c:fz/e%u ", ret ? 'r' : 'p', pick(1000));
	}
	switch (pick(12)) {
	case 0: add(b, "/nonexistent/kpfuzz:%#lx", u->off); break;
	case 1: add(b, "/:%#lx", u->off); break;
	case 2: add(b, "/dev/null:0"); break;
	case 3: add(b, "%s:%#llx", self.path, (unsigned long long)rnd() >> pick(64)); break;
	case 4: add(b, "%s:%ld", self.path, (long)u->off * (pick(2) ? 1 : -1)); break;
	case 5: add(b, "%s:%s", self.path, pick(2) ? "" : "zz"); break;
	case 6: add(b, "%s", self.path); break;
	case 7: add(b, "%s:%#lx(%#llx)", self.path, u->off,
		    (unsigned long long)(pick(2) ? self.glob_off + pick(8) : rnd() >> pick(64)));
		break;
	default: add_uplace(b, u, 0);
	}
	if (pick(6) == 0)
		add(b, pick(4) ? "%%return" : "%%ret");
	nargs = pick(5) ? pick(6) : pick(140);
	for (i = 0; i < nargs; i++) {
		add(b, " ");
		gen_uarg(b, u, ret, i);
	}
write:
	if (pick(3) == 0)
		mutate(b, 0);
	submit(p);
}

/* ---------------------------------------------------------- eprobes */

/* events the fuzzer triggers with calls of its own, and their fields */
static const struct etarget {
	const char *event;
	const char *fields[4];
	const char *kinds;	/* as targets[]'s params */
	void (*drive)(void);
} etargets[] = {
	{ "syscalls.sys_enter_openat", { "dfd", "filename", "flags", "mode" }, "iuii", drive_open },
	{ "syscalls.sys_exit_openat", { "ret" }, "i", drive_open },
	{ "syscalls.sys_enter_read", { "fd", "buf", "count" }, "ibi", drive_read },
	{ "syscalls.sys_exit_read", { "ret" }, "i", drive_read },
	{ "syscalls.sys_enter_write", { "fd", "buf", "count" }, "iui", drive_write },
	{ "syscalls.sys_enter_pread64", { "fd", "buf", "count", "pos" }, "ibii", drive_pread },
	{ "syscalls.sys_enter_lseek", { "fd", "offset", "whence" }, "iii", drive_lseek },
	{ "syscalls.sys_enter_newfstatat", { "dfd", "filename", "statbuf", "flag" }, "iubi", drive_stat },
	{ "syscalls.sys_enter_readlinkat", { "dfd", "pathname", "buf", "bufsiz" }, "iubi", drive_readlink },
	{ "raw_syscalls.sys_enter", { "id", "args" }, "ik", NULL },
	{ "raw_syscalls.sys_exit", { "id", "ret" }, "ii", NULL },
};

static void drive_any(void)
{
	targets[pick(N_OF(targets))].drive();
}

static void ecall(const void *arg)
{
	const struct etarget *e = arg;

	(e->drive ? e->drive : drive_any)();
}

/* an argument of an eprobe on @e: its fields, read and cast */
static void gen_earg(struct buf *b, const struct etarget *e, int pos)
{
	static const char *const casts[] = {
		"(file)", "(task_struct)", "(struct file *)", "(open_how)", "(",
	};
	int i = pick(strlen(e->kinds)), kind = e->kinds[i], mem = 0;
	const char *f = e->fields[i];

	if (pick(12) == 0) {
		gen_arg(b);
		return;
	}
	gen_arg_name(b, pos);
	switch (pick(14)) {
	case 0: add(b, "%s", pick(4) ? "$comm" : "$COMM"); kind = 0; break;
	case 1: add(b, "$common_pid"); kind = 'i'; break;
	case 2: add(b, "@linux_proc_banner%s", pick(2) ? "" : "+3"); kind = 'u'; mem = 1; break;
	case 3: add(b, "\\%lld", (long long)(rnd() >> pick(64))); kind = 'i'; break;
	case 4: add(b, "%s$%s%s", ONE_OF(casts), f, pick(2) ? "->f_mode" : ""); kind = 'i'; break;
	case 5: add(b, "+%u(+%u($%s))", 8 * pick(3), 8 * pick(3), f); mem = 1; break;
	case 6: add(b, "$%s", ONE_OF(etargets).fields[0]); break;	/* maybe not ours */
	case 7: add(b, "$%s", f); mem = kind != 'i'; break;	/* a pointer as a string */
	default:
		mem = kind == 'i' ? pick(4) == 0 : pick(4) != 0;
		if (mem)
			add(b, "%c%s%u($%s)", pick(8) ? '+' : '-',
			    kind != 'i' && pick(2) ? "u" : "", pick(3) ? 0 : pick(64), f);
		else
			add(b, "$%s", f);
	}
	if (kind && pick(4))
		add(b, ":%s", gen_type(kind, mem));
	else if (!kind && pick(4) == 0)
		add(b, ":string");
}

static void gen_efilter(struct buf *b, const struct etarget *e)
{
	static const char *const ops[] = { "==", "!=", "<", ">=", "&", "~" };

	switch (pick(4)) {
	case 0: add(b, " if common_pid != 0"); break;
	case 1: add(b, " if ((%s", e->fields[0]); break;
	default: add(b, " if %s %s %d", e->fields[pick(strlen(e->kinds))], ONE_OF(ops), (int)pick(8) - 1);
	}
}

/*
 * An eprobe on an event the fuzzer's own calls trigger, whose arguments
 * read the event's fields (numbers, user pointers followed in user or
 * kernel memory, casts), sometimes with a filter; when accepted, the
 * calls are made.
 */
static void eprobe_hit(void)
{
	struct pending *p = next_pending(TR "dynamic_events");
	const struct etarget *e = &etargets[pick(N_OF(etargets))];
	unsigned int ev = pick(100);
	int nargs = pick(8) ? pick(7) : pick(HIT_ARGS_MAX + 1), i;
	char name[16];
	size_t args;

	add(&p->b, "e:fz/x%u %s", ev, e->event);
	args = p->b.n;
	for (i = 0; i < nargs; i++) {
		add(&p->b, " ");
		gen_earg(&p->b, e, i);
	}
	if (pick(8) == 0)
		gen_efilter(&p->b, e);
	mutate_args(&p->b, args);
	st.defs++;
	kst[cur_kind].hitdefs++;
	if (submit(p))
		return;
	st.accepted++;
	snprintf(name, sizeof(name), "x%u", ev);
	fire_event(name, TR "eprobe_profile", 1, ecall, e);
}

static void eprobe_general(void)
{
	static const char *const others[] = {
		"syscalls/sys_enter_openat", "sched.sched_switch", "sched.sched_process_exec",
		"nosuch.event", "syscalls", "syscalls.", ".sys_enter_read",
		"syscalls.sys_enter_nosuch", "fz.e1", "fz.h1", "fz/e2", "kprobes.e3",
		"ftrace.function", "eprobes.sys_enter_openat", "syscalls.sys_enter_openat.x",
		"", "sched.*", "timer.hrtimer_start",
	};
	struct pending *p = next_pending(TR "dynamic_events");
	const struct etarget *e = &etargets[pick(N_OF(etargets))];
	struct buf *b = &p->b;
	int nargs, i;

	switch (pick(8)) {
	case 0: add(b, "e "); break;
	case 1: add(b, "e:fz.e%u ", pick(1000)); break;
	case 2: add(b, "e:%s/%s ", ONE_OF(names), ONE_OF(names)); break;
	case 3: add(b, "e%u:fz/e%u ", pick(8), pick(1000)); break;
	case 4: add(b, "e:fz/ "); break;
	default: add(b, "e:fz/e%u ", pick(1000));
	}
	add(b, "%s", pick(4) ? e->event : ONE_OF(others));
	nargs = pick(5) ? pick(6) : pick(140);
	for (i = 0; i < nargs; i++) {
		add(b, " ");
		gen_earg(b, e, i);
	}
	if (pick(6) == 0)
		gen_efilter(b, e);
	if (pick(3) == 0)
		mutate(b, 0);
	submit(p);
}

/* --------------------------------------------------------- tprobes */

/* tracepoints the fuzzer's calls reach, their arguments (BTF) and fields */
static const struct tptarget {
	const char *tp;
	const char *args[6];
	const char *kinds;
	const char *fields[3];	/* none: the syscall wrappers' regs fields */
} tptargets[] = {
	{ "sys_enter", { "regs", "id" }, "ki", { 0 } },
	{ "sys_exit", { "regs", "ret" }, "ki", { 0 } },
	{ "kmalloc", { "call_site", "ptr", "bytes_req", "bytes_alloc", "gfp_flags", "node" },
	  "ikiiii", { "bytes_req", "ptr", "call_site" } },
	{ "kfree", { "call_site", "ptr" }, "ik", { "ptr", "call_site", "ptr" } },
	{ "kmem_cache_alloc", { "call_site", "ptr", "s", "gfp_flags", "node" }, "ikkii",
	  { "s->name", "s->size", "ptr" } },
	{ "kmem_cache_free", { "call_site", "ptr", "s" }, "ikk",
	  { "s->name", "s->object_size", "call_site" } },
	{ "sched_switch", { "preempt", "prev", "next", "prev_state" }, "ikki",
	  { "prev->pid", "next->comm", "prev->se.vruntime" } },
};

static void tcall(const void *arg)
{
	(void)arg;
	drive_any();
}

/* an argument of a tracepoint probe on @tp */
static void gen_targ(struct buf *b, const struct tptarget *tp, int pos)
{
	int i = pick(strlen(tp->kinds)), kind = tp->kinds[i], mem = 0;

	if (pick(12) == 0) {
		gen_arg(b);
		return;
	}
	gen_arg_name(b, pos);
	switch (pick(12)) {
	case 0: add(b, "%s", pick(4) ? "$comm" : "$stack0"); kind = 0; break;
	case 1: add(b, "$arg%d", i + 1); break;
	case 2: add(b, "\\%lld", (long long)(rnd() >> pick(64))); kind = 'i'; break;
	case 3: add(b, "%s", pick(2) ? "$retval" : "$current->pid"); kind = 'i'; break;
	case 4: case 5:
		add(b, "%s", tp->fields[0] ? tp->fields[pick(3)] : ONE_OF(wrapper_fields));
		kind = 'i';
		break;
	default:
		mem = kind == 'k' && pick(2);
		if (mem)
			add(b, "+%u(%s)", 8 * pick(8), tp->args[i]);
		else
			add(b, "%s", tp->args[i]);
	}
	if (kind && pick(4))
		add(b, ":%s", gen_type(kind, mem));
}

/*
 * A probe on a tracepoint the fuzzer's calls reach (the syscall entry
 * and exit, kmalloc, kfree and the slab caches', which opening a file
 * reaches, sched_switch), whose arguments are the
 * tracepoint's, by name, by number and through their fields.
 */
static void tprobe_hit(void)
{
	struct pending *p = next_pending(TR "dynamic_events");
	const struct tptarget *tp = &tptargets[pick(N_OF(tptargets))];
	unsigned int ev = pick(100);
	int nargs = pick(8) ? pick(7) : pick(HIT_ARGS_MAX + 1), i;
	char name[16];
	size_t args;

	add(&p->b, "t:fz/t%u %s", ev, tp->tp);
	args = p->b.n;
	for (i = 0; i < nargs; i++) {
		add(&p->b, " ");
		gen_targ(&p->b, tp, i);
	}
	mutate_args(&p->b, args);
	st.defs++;
	kst[cur_kind].hitdefs++;
	if (submit(p))
		return;
	st.accepted++;
	snprintf(name, sizeof(name), "t%u", ev);
	fire_event(name, TR "fprobe_profile", 1, tcall, tp);
}

static void tprobe_general(void)
{
	static const char *const others[] = {
		"nosuch_tracepoint", "sched:sched_switch", "nomod:sys_enter", "sched_switch:x",
		"sys_enter%return", "kmalloc+8", "", "1tp", "sched_process_fork",
		"vfs_read", "kprobe_dispatcher",
	};
	struct pending *p = next_pending(TR "dynamic_events");
	const struct tptarget *tp = &tptargets[pick(N_OF(tptargets))];
	struct buf *b = &p->b;
	int nargs, i;

	switch (pick(8)) {
	case 0: add(b, "t "); break;
	case 1: add(b, "t:fz.e%u ", pick(1000)); break;
	case 2: add(b, "t:%s/%s ", ONE_OF(names), ONE_OF(names)); break;
	case 3: add(b, "t%u:fz/e%u ", pick(8), pick(1000)); break;
	default: add(b, "t:fz/e%u ", pick(1000));
	}
	add(b, "%s", pick(4) ? tp->tp : ONE_OF(others));
	nargs = pick(5) ? pick(6) : pick(140);
	for (i = 0; i < nargs; i++) {
		add(b, " ");
		gen_targ(b, tp, i);
	}
	if (pick(3) == 0)
		mutate(b, 0);
	submit(p);
}

/* ------------------------------------------------------------- main */

/* one definition of the current kind: a hit definition when @hit */
static void definition(int hit)
{
	switch (cur_kind) {
	case K_KPROBE: case K_FPROBE:
		if (hit) {
			kst[cur_kind].hitdefs++;
			hit_definition();
		} else if (cur_kind == K_KPROBE) {
			general_definition();
		} else {
			fprobe_general();
		}
		break;
	case K_UPROBE: hit ? uprobe_hit() : uprobe_general(); break;
	case K_EPROBE: hit ? eprobe_hit() : eprobe_general(); break;
	default: hit ? tprobe_hit() : tprobe_general();
	}
}

static void summary(unsigned long count, double start)
{
	double t = now() - start;

	printf("# kpfuzz: %lu accepted, %lu rejected, %lu rejected without an error_log entry; hits driven %lu, trace bytes read %lu, joins tried %lu, accepted %lu\n",
	       accepted, rejected, unlogged, st.hits, st.trace_bytes,
	       st.joins, st.joins_accepted);
	printf("# kpfuzz: hit definitions %lu, accepted %lu, enabled %lu (%lu failed to enable, %lu without a hit), %lu calls; %lu reads of trace and trace_pipe (%lu cycles with latency-format, %lu read errors)\n",
	       st.defs, st.accepted, st.enabled, st.enable_failed, st.hitless,
	       st.calls, st.trace_reads, st.latency_reads, st.trace_errors);
	printf("# kpfuzz: %.0f s, %.1f definitions/s; seconds in accepted writes %.0f, rejected writes %.0f, error_log checks %.0f, deletes %.0f, hit cycles %.0f, trace reads %.0f\n",
	       t, count / t, spent[T_ACCEPT], spent[T_REJECT], spent[T_CHECK],
	       spent[T_DELETE], spent[T_HIT], spent[T_TRACE]);
	for (int k = 0; k < K_KINDS; k++) {
		if (!(kinds_on & 1u << k))
			continue;
		printf("# kpfuzz: %s: %lu definitions (%lu hit definitions), %lu writes accepted, %lu refused; %lu events enabled, %lu hits; %.0f s, %.1f definitions/s\n",
		       kind_names[k], kst[k].defs, kst[k].hitdefs, kst[k].accepted,
		       kst[k].rejected, kst[k].enabled, kst[k].hits, kst[k].secs,
		       kst[k].secs > 0 ? kst[k].defs / kst[k].secs : 0);
	}
	if (st.delete_errors)
		printf("# kpfuzz: %lu deletes of every event refused\n", st.delete_errors);
	for (int i = 0; i < SLOWEST && slow[i].t > 0; i++) {
		printf("# kpfuzz: slow write %.1f ms (%s): '", slow[i].t * 1e3,
		       slow[i].err ? strerror(-slow[i].err) : "accepted");
		print_oneline(slow[i].line);
		printf("'\n");
	}
}

static unsigned long count = 10000, hit_every = 20;

FIXTURE(fuzz) {
};

FIXTURE_SETUP(fuzz)
{
	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_EQ(0, umem_init()) TH_LOG("cannot map the memory the calls use: %s",
					 strerror(errno));
	if (kinds_on & 1u << K_UPROBE)
		ASSERT_EQ(0, self_init()) TH_LOG("cannot read this program's ELF headers");
	delete_every_kind();
}

FIXTURE_TEARDOWN(fuzz)
{
	delete_all();
}

/* A million definitions take hours in a TCG guest: a day's timeout. */
TEST_F_TIMEOUT(fuzz, definitions, 24 * 3600)
{
	double start = now(), t;
	int kinds[K_KINDS], nkinds = 0, k;
	unsigned long i;

	for (k = 0; k < K_KINDS; k++)
		if (kinds_on & 1u << k)
			kinds[nkinds++] = k;
	for (i = 0; i < count; i++) {
		if (i && i % 50000 == 0 && !quiet)
			printf("# kpfuzz: %lu definitions in %.0f s, %lu rejected without an error_log entry, %lu hits\n",
			       i, now() - start, unlogged, st.hits);
		cur_kind = kinds[nkinds > 1 ? pick(nkinds) : 0];
		kst[cur_kind].defs++;
		t = now();
		definition(hit_every && pick(hit_every) == 0);
		kst[cur_kind].secs += now() - t;
	}
	delete_all();
	summary(count, start);
	if (unlogged && getenv("TK_BASE") && !strcmp(getenv("TK_BASE"), "1")) {
		printf("# kpfuzz: base kernel: unlogged rejections counted, not failed\n");
		return;
	}
	EXPECT_EQ(0, unlogged) TH_LOG("rejected writes without an error_log entry");
}

/* -k: a comma-separated list of kind names, or "all"; 0 for a bad one */
static unsigned int parse_kinds(const char *list)
{
	char *copy = strdup(list), *name, *save = NULL;
	unsigned int set = 0;
	int k;

	for (name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		if (!strcmp(name, "all")) {
			set |= (1u << K_KINDS) - 1;
			continue;
		}
		for (k = 0; k < K_KINDS && strcmp(name, kind_names[k]); k++)
			;
		if (k == K_KINDS) {
			set = 0;
			break;
		}
		set |= 1u << k;
	}
	free(copy);
	return set;
}

static int usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-n COUNT] [-s SEED] [-H N] [-k KINDS] [-q] [-P] [harness options]\n"
		"  -n COUNT  definitions in all, shared at random among the kinds (10000)\n"
		"  -s SEED   the random seed: the same seed makes the same definitions\n"
		"  -H N      one definition in N is a hit definition, 0 for none (20)\n"
		"  -k KINDS  a comma-separated list of kprobe (with kretprobes), uprobe\n"
		"            (with uretprobes), eprobe, fprobe (with f:SYM%%return), tprobe,\n"
		"            or all (the default)\n"
		"  -q        no diagnostics but the summary\n"
		"  -P        every definition written: its file, the error (0 when\n"
		"            accepted) and its text\n", prog);
	return KSFT_FAIL;
}

/*
 * Definitions print user addresses (uprobe arguments @ADDR on this
 * program's data and buffers): the same seed makes the same text only
 * when the address space is laid out the same way each run.  Unless
 * address randomization is already off, turn it off and start again.
 */
static void fixed_layout(char **argv)
{
	int pers = personality(0xffffffff);

	if (pers == -1 || pers & ADDR_NO_RANDOMIZE)
		return;
	if (personality(pers | ADDR_NO_RANDOMIZE) != -1)
		execv("/proc/self/exe", argv);
	printf("# kpfuzz: address randomization stays on (%s): a seed may not reproduce\n",
	       strerror(errno));
}

/* Takes kpfuzz's own options out of argv; the harness gets the rest. */
int main(int argc, char **argv)
{
	char **rest;
	int i, n = 0;

	fixed_layout(argv);
	rest = calloc(argc + 1, sizeof(*rest));
	if (!rest)
		return KSFT_FAIL;
	rest[n++] = argv[0];
	for (i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "-n") && v)
			count = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "-s") && v)
			rng_state = strtoull(argv[++i], NULL, 0) | 1;
		else if (!strcmp(argv[i], "-H") && v)
			hit_every = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "-k") && v) {
			kinds_on = parse_kinds(argv[++i]);
			if (!kinds_on)
				return usage(argv[0]);
		} else if (!strcmp(argv[i], "-q"))
			quiet = 1;
		else if (!strcmp(argv[i], "-P"))
			verbose = 1;
		else
			rest[n++] = argv[i];
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# kpfuzz: %lu definitions, one in %lu a hit definition, seed %#llx, kinds",
	       count, hit_every, (unsigned long long)rng_state);
	for (i = 0; i < K_KINDS; i++)
		if (kinds_on & 1u << i)
			printf(" %s", kind_names[i]);
	printf("\n");
	return test_harness_run(n, rest);
}
