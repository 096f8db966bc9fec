// SPDX-License-Identifier: GPL-2.0
/*
 * kpperf - kprobe events through perf's kprobe PMU, and BPF through them.
 *
 * A kselftest_harness program (TAP on stdout).  Tests:
 *   entry       perf_event_open(kprobe PMU, kprobe_func=do_sys_openat2)
 *               counts the opens this program makes;
 *   ret         the same with the PMU's retprobe bit;
 *   local       such events are local: they never show in kprobe_events;
 *   sample      a sampled record of the entry event carries the raw kprobe
 *               record: this pid, and the probed address;
 *   bpf.count   a BPF kprobe program attached to the entry event through
 *               PERF_EVENT_IOC_SET_BPF counts the same opens in a map;
 *   bpf.drop    as the program returns 0, perf itself counts nothing;
 *   bpf.query   BPF_TASK_FD_QUERY names the kprobe, its symbol and offset;
 *   tracefs     a kprobe event of tracefs opened by its id counts the opens,
 *               cannot be deleted while perf holds it, and can after;
 *   lockdown_entry, lockdown_ret
 *               under lockdown=confidentiality every probe is refused with
 *               EPERM.
 * The lockdown tests skip on a kernel that is not locked down, and the
 * others skip on one that is.  Run one set with -t/-T, as the harness
 * allows: the suite runs "kpperf -T lockdown_entry -T lockdown_ret" and the
 * locked-down boot "kpperf -t lockdown_entry -t lockdown_ret".
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
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define PMU "/sys/bus/event_source/devices/kprobe/"
#define TRACEFS "/sys/kernel/tracing/"
#define OPENS 10

/* Whether the kernel is locked down against reading its memory. */
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

/* Probes need root, and a kernel that is not locked down. */
#define NEED_UNLOCKED() do { \
	if (geteuid()) \
		SKIP(return, "needs root"); \
	if (locked_down()) \
		SKIP(return, "the kernel is locked down"); \
} while (0)

static long read_long(const char *path, const char *prefix)
{
	char buf[64] = "";
	FILE *f = fopen(path, "r");

	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	if (prefix && strncmp(buf, prefix, strlen(prefix)))
		return -1;
	return strtol(buf + (prefix ? strlen(prefix) : 0), NULL, 10);
}

static int open_kprobe_attr(int retprobe, int sample)
{
	struct perf_event_attr attr;
	long type = read_long(PMU "type", NULL);
	long bit = read_long(PMU "format/retprobe", "config:");

	if (type < 0 || bit < 0) {
		errno = ENODEV;
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = retprobe ? 1ULL << bit : 0;
	attr.config1 = (uint64_t)(unsigned long)"do_sys_openat2";	/* kprobe_func */
	attr.config2 = 0;						/* probe_offset */
	attr.disabled = 1;
	if (sample) {
		attr.sample_period = 1;
		attr.sample_type = PERF_SAMPLE_RAW;
		attr.wakeup_events = 1;
	}
	/* this process, any CPU */
	return syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
}

static int open_kprobe(int retprobe)
{
	return open_kprobe_attr(retprobe, 0);
}

static void make_opens(void)
{
	int i;

	for (i = 0; i < OPENS; i++)
		close(open("/proc/self/stat", O_RDONLY));
}

/* Count with @fd enabled around OPENS opens; -1 if it cannot be read. */
static int64_t count_opens(int fd)
{
	uint64_t count;

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	make_opens();
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		return -1;
	return count;
}

static void expect_counted(struct __test_metadata *_metadata, int retprobe)
{
	int fd = open_kprobe(retprobe);
	int64_t count;

	ASSERT_LE(0, fd) TH_LOG("perf_event_open: %s", strerror(errno));
	count = count_opens(fd);
	close(fd);
	EXPECT_LE(OPENS, count) TH_LOG("%lld hits for %d opens", (long long)count, OPENS);
}

TEST(entry)
{
	NEED_UNLOCKED();
	expect_counted(_metadata, 0);
}

TEST(ret)
{
	NEED_UNLOCKED();
	expect_counted(_metadata, 1);
}

TEST(local)
{
	int fd, found = 0;
	char line[512];
	FILE *f;

	NEED_UNLOCKED();
	fd = open_kprobe(0);
	ASSERT_LE(0, fd) TH_LOG("perf_event_open: %s", strerror(errno));
	f = fopen("/sys/kernel/tracing/kprobe_events", "r");
	ASSERT_NE(NULL, f) TH_LOG("kprobe_events: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		found |= strstr(line, "do_sys_openat2") != NULL;
	fclose(f);
	close(fd);
	EXPECT_EQ(0, found) TH_LOG("a perf kprobe is listed in kprobe_events");
}

/* The first sample's raw record: trace_entry (pid at 4), then __probe_ip. */
TEST(sample)
{
	size_t page = sysconf(_SC_PAGESIZE), len = 9 * page;
	struct perf_event_mmap_page *meta;
	struct perf_event_header *hdr;
	uint32_t raw_size = 0;
	uint64_t ip = 0;
	unsigned char *raw;
	int fd, pid = 0;

	NEED_UNLOCKED();
	fd = open_kprobe_attr(0, 1);
	ASSERT_LE(0, fd) TH_LOG("perf_event_open: %s", strerror(errno));
	meta = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, meta) TH_LOG("mmap of the perf ring: %s", strerror(errno));
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	close(open("/proc/self/stat", O_RDONLY));
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	hdr = (void *)((char *)meta + page);
	if (meta->data_head && hdr->type == PERF_RECORD_SAMPLE) {
		memcpy(&raw_size, hdr + 1, sizeof(raw_size));
		raw = (unsigned char *)(hdr + 1) + sizeof(raw_size);
		memcpy(&pid, raw + 4, sizeof(pid));
		memcpy(&ip, raw + 8, sizeof(ip));
	}
	munmap(meta, len);
	close(fd);
	EXPECT_LE(16, raw_size) TH_LOG("raw record of %u bytes", raw_size);
	EXPECT_EQ(getpid(), pid);
	EXPECT_NE(0, ip) TH_LOG("no probed address in the record");
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/*
 * map[0] += 1 on every hit:
 *   r1 = map; *(u32 *)(r10 - 4) = 0; r2 = r10 - 4; call lookup;
 *   if r0 == 0 goto out; r1 = 1; lock *(u64 *)(r0 + 0) += r1; out: r0 = 0
 */
static int load_counter(int map)
{
	struct bpf_insn prog[] = {
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 1,
		  .src_reg = BPF_PSEUDO_MAP_FD, .imm = map },
		{ 0 },
		{ .code = BPF_ST | BPF_MEM | BPF_W, .dst_reg = 10, .off = -4, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 2, .src_reg = 10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 2, .imm = -4 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_map_lookup_elem },
		{ .code = BPF_JMP | BPF_JEQ | BPF_K, .dst_reg = 0, .off = 2, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 1, .imm = 1 },
		{ .code = BPF_STX | BPF_ATOMIC | BPF_DW, .dst_reg = 0, .src_reg = 1,
		  .imm = BPF_ADD },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static char log[4096];
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_KPROBE;
	attr.insns = (uint64_t)(unsigned long)prog;
	attr.insn_cnt = sizeof(prog) / sizeof(prog[0]);
	attr.license = (uint64_t)(unsigned long)"GPL";
	attr.log_buf = (uint64_t)(unsigned long)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	return sys_bpf(BPF_PROG_LOAD, &attr);
}

/* A counting BPF program attached to an entry event of the kprobe PMU. */
FIXTURE(bpf) {
	int map, prog, fd;
};

FIXTURE_SETUP(bpf)
{
	union bpf_attr attr;

	self->map = self->prog = self->fd = -1;
	NEED_UNLOCKED();
	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 8;
	attr.max_entries = 1;
	self->map = sys_bpf(BPF_MAP_CREATE, &attr);
	ASSERT_LE(0, self->map) TH_LOG("BPF_MAP_CREATE: %s", strerror(errno));
	self->prog = load_counter(self->map);
	ASSERT_LE(0, self->prog) TH_LOG("BPF_PROG_LOAD: %s", strerror(errno));
	self->fd = open_kprobe(0);
	ASSERT_LE(0, self->fd) TH_LOG("perf_event_open: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_SET_BPF, self->prog))
		TH_LOG("PERF_EVENT_IOC_SET_BPF: %s", strerror(errno));
}

FIXTURE_TEARDOWN(bpf)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->prog >= 0)
		close(self->prog);
	if (self->map >= 0)
		close(self->map);
}

/* What the program counted in its map. */
static uint64_t map_count(struct __test_metadata *_metadata, int map)
{
	union bpf_attr attr;
	uint64_t value = 0;
	uint32_t key = 0;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map;
	attr.key = (uint64_t)(unsigned long)&key;
	attr.value = (uint64_t)(unsigned long)&value;
	EXPECT_EQ(0, sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr))
		TH_LOG("BPF_MAP_LOOKUP_ELEM: %s", strerror(errno));
	return value;
}

TEST_F(bpf, count)
{
	uint64_t value;

	count_opens(self->fd);
	value = map_count(_metadata, self->map);
	EXPECT_LE(OPENS, value) TH_LOG("the map counted %llu for %d opens",
				       (unsigned long long)value, OPENS);
}

/* The program ran on every hit, and returned 0: perf kept none of them. */
TEST_F(bpf, drop)
{
	int64_t kept = count_opens(self->fd);
	uint64_t ran = map_count(_metadata, self->map);

	EXPECT_LE(OPENS, ran) TH_LOG("the program ran %llu times for %d opens",
				     (unsigned long long)ran, OPENS);
	EXPECT_EQ(0, kept);
}

TEST_F(bpf, query)
{
	union bpf_attr attr;
	char buf[128] = "";

	memset(&attr, 0, sizeof(attr));
	attr.task_fd_query.pid = getpid();
	attr.task_fd_query.fd = self->fd;
	attr.task_fd_query.buf = (uint64_t)(unsigned long)buf;
	attr.task_fd_query.buf_len = sizeof(buf);
	ASSERT_EQ(0, sys_bpf(BPF_TASK_FD_QUERY, &attr))
		TH_LOG("BPF_TASK_FD_QUERY: %s", strerror(errno));
	EXPECT_EQ(BPF_FD_TYPE_KPROBE, attr.task_fd_query.fd_type);
	EXPECT_STREQ("do_sys_openat2", buf);
	EXPECT_EQ(0, attr.task_fd_query.probe_offset);
}

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

static int listed(const char *word)
{
	FILE *f = fopen(TRACEFS "kprobe_events", "r");
	char line[512];
	int found = 0;

	while (f && fgets(line, sizeof(line), f))
		found |= strstr(line, word) != NULL;
	if (f)
		fclose(f);
	return found;
}

/* The tracefs event kpperf/opens, through perf by its id. */
TEST(tracefs)
{
	struct perf_event_attr attr;
	int64_t count;
	int fd, busy;
	long id;

	NEED_UNLOCKED();
	ASSERT_EQ(0, write_events("p:kpperf/opens do_sys_openat2\n"));
	id = read_long(TRACEFS "events/kpperf/opens/id", NULL);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = id;
	attr.disabled = 1;
	fd = id < 0 ? -1 : syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		write_events("-:kpperf/opens\n");
	ASSERT_LE(0, fd) TH_LOG("perf_event_open of event id %ld: %s", id, strerror(errno));
	count = count_opens(fd);
	busy = write_events("-:kpperf/opens\n");
	close(fd);
	write_events("-:kpperf/opens\n");
	EXPECT_LE(OPENS, count) TH_LOG("%lld hits for %d opens", (long long)count, OPENS);
	EXPECT_EQ(-EBUSY, busy) TH_LOG("deleting an event perf holds");
	EXPECT_EQ(0, listed("kpperf/opens")) TH_LOG("still listed after perf let go");
}

static void expect_refused(struct __test_metadata *_metadata, int retprobe)
{
	int fd, err;

	if (!locked_down())
		SKIP(return, "the kernel is not locked down");
	fd = open_kprobe(retprobe);
	err = errno;
	if (fd >= 0)
		close(fd);
	EXPECT_EQ(-1, fd) TH_LOG("a probe was created under lockdown");
	EXPECT_EQ(EPERM, err) TH_LOG("refused with %s", strerror(err));
}

TEST(lockdown_entry)
{
	expect_refused(_metadata, 0);
}

TEST(lockdown_ret)
{
	expect_refused(_metadata, 1);
}

TEST_HARNESS_MAIN
