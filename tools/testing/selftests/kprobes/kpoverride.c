// SPDX-License-Identifier: GPL-2.0
/*
 * kpoverride - a BPF program that overrides a function's return, on a
 * kprobe event that several probes feed.
 *
 * bpf_override_return() makes the probed function return at once: safe
 * only at the entry of a function on the error-injection list.  BPF checks
 * the event when the program attaches; the program then runs on every
 * probe of the event, those that join later included.  A kselftest_harness
 * program (TAP on stdout).  Tests:
 *   override.join    with an overriding program attached to kpovr/ovr (on
 *                    the getppid syscall, which is injectable), a probe in
 *                    the middle of the function and one on a function that
 *                    is not injectable are refused with EBUSY and an
 *                    error_log entry; the entry of another injectable
 *                    function joins, and is overridden too; the calls
 *                    of a child process are overridden on neither; once
 *                    the program is gone the mid-function probe joins;
 *   attach_mid       an overriding program does not attach to an event
 *                    one of whose probes sits in the middle of a function,
 *                    even when its first probe is on an entry.
 * The programs are raw BPF instructions loaded with bpf(2) and attached
 * with PERF_EVENT_IOC_SET_BPF to the event's perf event.  They override
 * the calls of the test's own process only: the event's program runs on
 * every hit in every task, and the rest of the system must go on calling
 * getppid() and getpid().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define TRACEFS "/sys/kernel/tracing/"

#if defined(__x86_64__)
#define SYSFN(name)	"__x64_sys_" name
#elif defined(__aarch64__)
#define SYSFN(name)	"__arm64_sys_" name
#else
#define SYSFN(name)	"sys_" name
#endif

/* Not on the error-injection list, and called by truncate() only. */
#define NOT_INJECTABLE	"vfs_truncate"
#define JOIN_REFUSED	"overrides the return"

static int locked_down(void)
{
	char buf[128] = "";
	FILE *f = fopen("/sys/kernel/security/lockdown", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	return strstr(buf, "[confidentiality]") != NULL;
}

#define NEED_UNLOCKED() do { \
	if (geteuid()) \
		SKIP(return, "needs root"); \
	if (locked_down()) \
		SKIP(return, "the kernel is locked down"); \
} while (0)

/* Append @s to kprobe_events: 0 or -errno. */
static int write_events(const char *s)
{
	int fd = open(TRACEFS "kprobe_events", O_WRONLY | O_APPEND);
	int ret;

	if (fd < 0)
		return -errno;
	ret = write(fd, s, strlen(s)) < 0 ? -errno : 0;
	close(fd);
	return ret;
}

static int error_log_has(const char *text)
{
	FILE *f = fopen(TRACEFS "error_log", "r");
	char line[512];
	int found = 0;

	while (f && fgets(line, sizeof(line), f))
		found |= strstr(line, text) != NULL;
	if (f)
		fclose(f);
	return found;
}

static void error_log_clear(void)
{
	int fd = open(TRACEFS "error_log", O_WRONLY | O_TRUNC);

	if (fd >= 0)
		close(fd);
}

/*
 * The first offset into @func, past its entry, where a probe may sit: an
 * entry probe is accepted there and a return probe is not.  0 if none.
 */
static int mid_offset(const char *func)
{
	char def[128];
	int off, entry;

	for (off = 1; off < 64; off++) {
		snprintf(def, sizeof(def), "p:kpovr/mid %s+%d\n", func, off);
		if (write_events(def))
			continue;
		write_events("-:kpovr/mid\n");
		snprintf(def, sizeof(def), "r:kpovr/mid %s+%d\n", func, off);
		entry = !write_events(def);
		write_events("-:kpovr/mid\n");
		if (!entry)
			return off;
	}
	return 0;
}

/* A perf counting event on the tracefs event @name ("GROUP/EVENT"). */
static int open_event(const char *name)
{
	struct perf_event_attr attr;
	char path[256], buf[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), TRACEFS "events/%s/id", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = strtoull(buf, NULL, 10);
	return syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
}

/* Where load_override() patches in the tgid the program acts for. */
#define TGID_INSN	3

/*
 * A program on a kprobe event runs on every hit, in every task: it
 * overrides the return for the process @tgid only, and lets the calls of
 * every other process (the test runner's, a child's) go on.
 *
 *	r6 = r1				ctx
 *	r0 = bpf_get_current_pid_tgid()
 *	r0 >>= 32			tgid
 *	if r0 != tgid goto out
 *	r1 = r6
 *	r2 = -EUCLEAN
 *	bpf_override_return(r1, r2)
 * out:	r0 = 0
 *	exit
 */
static int load_override(pid_t tgid)
{
	struct bpf_insn prog[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 6, .src_reg = 1 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_get_current_pid_tgid },
		{ .code = BPF_ALU64 | BPF_RSH | BPF_K, .dst_reg = 0, .imm = 32 },
		{ .code = BPF_JMP | BPF_JNE | BPF_K, .dst_reg = 0, .off = 3 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 1, .src_reg = 6 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 2, .imm = -EUCLEAN },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_override_return },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static char log[4096];
	union bpf_attr attr;

	prog[TGID_INSN].imm = tgid;
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_KPROBE;
	attr.insns = (uint64_t)(unsigned long)prog;
	attr.insn_cnt = sizeof(prog) / sizeof(prog[0]);
	attr.license = (uint64_t)(unsigned long)"GPL";
	attr.log_buf = (uint64_t)(unsigned long)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	return syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
}

/*
 * The raw result of syscall @nr made in a child process, read back through
 * a pipe; the child's pid goes to @child.  -1 too when the child cannot
 * run or report.
 */
static long child_syscall(long nr, pid_t *child)
{
	long r = -1;
	int fds[2], status;

	if (pipe(fds))
		return -1;
	*child = fork();
	if (*child == 0) {
		close(fds[0]);
		r = syscall(nr);
		_exit(write(fds[1], &r, sizeof(r)) != sizeof(r));
	}
	close(fds[1]);
	if (*child > 0) {
		if (read(fds[0], &r, sizeof(r)) != sizeof(r))
			r = -1;
		if (waitpid(*child, &status, 0) != *child || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			r = -1;
	}
	close(fds[0]);
	return r;
}

/* kpovr/ovr on the getppid syscall, open in perf, and the program. */
FIXTURE(override) {
	int prog, fd, mid;
};

FIXTURE_SETUP(override)
{
	self->prog = self->fd = -1;
	NEED_UNLOCKED();
	write_events("-:kpovr/ovr\n");
	self->mid = mid_offset(SYSFN("getppid"));
	ASSERT_NE(0, self->mid) TH_LOG("no mid-function place in %s",
				       SYSFN("getppid"));
	ASSERT_EQ(0, write_events("p:kpovr/ovr " SYSFN("getppid") "\n"));
	self->prog = load_override(getpid());
	ASSERT_LE(0, self->prog) TH_LOG("BPF_PROG_LOAD: %s", strerror(errno));
	self->fd = open_event("kpovr/ovr");
	ASSERT_LE(0, self->fd) TH_LOG("perf_event_open: %s", strerror(errno));
}

FIXTURE_TEARDOWN(override)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->prog >= 0)
		close(self->prog);
	write_events("-:kpovr/ovr\n");
}

TEST_F(override, join)
{
	pid_t me = getpid(), child;
	char mid[128];
	int err;
	long r;

	snprintf(mid, sizeof(mid), "p:kpovr/ovr %s+%d\n", SYSFN("getppid"),
		 self->mid);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_SET_BPF, self->prog))
		TH_LOG("PERF_EVENT_IOC_SET_BPF: %s", strerror(errno));
	errno = 0;
	r = syscall(SYS_getppid);
	err = errno;
	ASSERT_EQ(-1, r) TH_LOG("getppid() was not overridden: %ld", r);
	ASSERT_EQ(EUCLEAN, err);
	/* the program acts for this process only: a child's call goes on */
	r = child_syscall(SYS_getppid, &child);
	EXPECT_EQ(me, r) TH_LOG("a child's getppid() was overridden: %ld", r);

	error_log_clear();
	EXPECT_EQ(-EBUSY, write_events(mid)) TH_LOG("%s+%d joined", SYSFN("getppid"),
						    self->mid);
	EXPECT_TRUE(error_log_has(JOIN_REFUSED));
	error_log_clear();
	EXPECT_EQ(-EBUSY, write_events("p:kpovr/ovr " NOT_INJECTABLE "\n"))
		TH_LOG("%s joined", NOT_INJECTABLE);
	EXPECT_TRUE(error_log_has(JOIN_REFUSED));

	/* the entry of an injectable function may join, and is overridden */
	EXPECT_EQ(0, write_events("p:kpovr/ovr " SYSFN("getpid") "\n"));
	errno = 0;
	r = syscall(SYS_getpid);
	err = errno;
	EXPECT_EQ(-1, r) TH_LOG("getpid() was not overridden: %ld", r);
	EXPECT_EQ(EUCLEAN, err);
	r = child_syscall(SYS_getpid, &child);
	EXPECT_LT(0, child);
	EXPECT_EQ(child, r) TH_LOG("a child's getpid() was overridden: %ld", r);

	/* no overriding program, no refusal */
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(0, write_events(mid));
	EXPECT_EQ(getppid(), syscall(SYS_getppid));
}

/* Every probe of the event counts, not only its first. */
TEST_F(override, attach_mid)
{
	char mid[128];
	int ret, err;

	snprintf(mid, sizeof(mid), "p:kpovr/ovr %s+%d\n", SYSFN("getppid"),
		 self->mid);
	ASSERT_EQ(0, write_events(mid));
	ret = ioctl(self->fd, PERF_EVENT_IOC_SET_BPF, self->prog);
	err = errno;
	if (!ret) {	/* take it off before anything calls getppid() */
		close(self->fd);
		self->fd = -1;
	}
	EXPECT_EQ(-1, ret) TH_LOG("attached over a mid-function probe");
	EXPECT_EQ(EINVAL, err);
}

TEST_HARNESS_MAIN
