// SPDX-License-Identifier: GPL-2.0
/*
 * kpperf - kprobe events through perf's kprobe PMU, and BPF through them.
 *
 *   kpperf            normal boot: each check must work
 *   kpperf lockdown   lockdown=confidentiality boot: every probe must be
 *                     refused with EPERM
 *
 * Checks, each a "@@RESULT PASS|FAIL|SKIP perf:NAME" line:
 *   entry     perf_event_open(kprobe PMU, kprobe_func=do_sys_openat2)
 *             counts the opens this program makes;
 *   return    the same with the PMU's retprobe bit;
 *   local     such events are local: they never show in kprobe_events;
 *   sample    a sampled record of the entry event carries the raw kprobe
 *             record: this pid, and the probed address;
 *   bpf       a BPF kprobe program attached to the entry event through
 *             PERF_EVENT_IOC_SET_BPF counts the same opens in a map;
 *   bpf-drop  as the program returns 0, perf itself counts nothing;
 *   bpf-query BPF_TASK_FD_QUERY names the kprobe, its symbol and offset;
 *   tracefs   a kprobe event of tracefs opened by its id counts the opens,
 *             cannot be deleted while perf holds it, and can after.
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

#define PMU "/sys/bus/event_source/devices/kprobe/"
#define TRACEFS "/sys/kernel/tracing/"
#define OPENS 10

static int failures;

static void result(int ok, const char *name, const char *why)
{
	printf("@@RESULT %s perf:%s%s%s%s\n", ok ? "PASS" : "FAIL", name,
	       why ? " (" : "", why ? why : "", why ? ")" : "");
	if (!ok)
		failures++;
}

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

static void check_count(const char *name, int retprobe)
{
	int64_t count = 0;
	char why[64];
	int fd = open_kprobe(retprobe);

	if (fd < 0) {
		snprintf(why, sizeof(why), "perf_event_open: %s", strerror(errno));
		result(0, name, why);
		return;
	}
	count = count_opens(fd);
	snprintf(why, sizeof(why), "%lld hits for %d opens", (long long)count, OPENS);
	result(count >= OPENS, name, why);
	close(fd);
}

static void check_local(void)
{
	int fd = open_kprobe(0), found = 0;
	char line[512];
	FILE *f;

	if (fd < 0) {
		result(0, "local", strerror(errno));
		return;
	}
	f = fopen("/sys/kernel/tracing/kprobe_events", "r");
	while (f && fgets(line, sizeof(line), f))
		found |= strstr(line, "do_sys_openat2") != NULL;
	if (f)
		fclose(f);
	close(fd);
	result(!found, "local", found ? "listed in kprobe_events" : NULL);
}

/* The first sample's raw record: trace_entry (pid at 4), then __probe_ip. */
static void check_sample(void)
{
	size_t page = sysconf(_SC_PAGESIZE), len = 9 * page;
	struct perf_event_mmap_page *meta;
	struct perf_event_header *hdr;
	uint32_t raw_size = 0;
	uint64_t ip = 0;
	int fd, pid = 0;
	char why[80];
	unsigned char *raw;

	fd = open_kprobe_attr(0, 1);
	if (fd < 0) {
		result(0, "sample", strerror(errno));
		return;
	}
	meta = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED) {
		result(0, "sample", "mmap of the perf ring failed");
		close(fd);
		return;
	}
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
	snprintf(why, sizeof(why), "raw size %u, pid %d (ours %d), ip %s",
		 raw_size, pid, getpid(), ip ? "set" : "0");
	result(raw_size >= 16 && pid == getpid() && ip, "sample", why);
	munmap(meta, len);
	close(fd);
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

/* BPF_TASK_FD_QUERY on the perf event @fd that has a program attached. */
static void check_bpf_query(int fd)
{
	char buf[128] = "", why[160];
	union bpf_attr attr;
	int ok;

	memset(&attr, 0, sizeof(attr));
	attr.task_fd_query.pid = getpid();
	attr.task_fd_query.fd = fd;
	attr.task_fd_query.buf = (uint64_t)(unsigned long)buf;
	attr.task_fd_query.buf_len = sizeof(buf);
	if (sys_bpf(BPF_TASK_FD_QUERY, &attr) < 0) {
		result(0, "bpf-query", strerror(errno));
		return;
	}
	ok = attr.task_fd_query.fd_type == BPF_FD_TYPE_KPROBE &&
	     !strcmp(buf, "do_sys_openat2") && !attr.task_fd_query.probe_offset;
	snprintf(why, sizeof(why), "type %u, symbol \"%s\", offset %llu",
		 attr.task_fd_query.fd_type, buf,
		 (unsigned long long)attr.task_fd_query.probe_offset);
	result(ok, "bpf-query", why);
}

static void check_bpf(void)
{
	union bpf_attr attr;
	uint64_t value = 0;
	int64_t count = 0;
	uint32_t key = 0;
	int map, prog, fd;
	char why[80];

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 8;
	attr.max_entries = 1;
	map = sys_bpf(BPF_MAP_CREATE, &attr);
	prog = map < 0 ? -1 : load_counter(map);
	fd = open_kprobe(0);
	if (map < 0 || prog < 0 || fd < 0) {
		snprintf(why, sizeof(why), "setup (map %d, prog %d, event %d): %s",
			 map, prog, fd, strerror(errno));
		result(0, "bpf", why);
		return;
	}
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog) < 0) {
		result(0, "bpf", "PERF_EVENT_IOC_SET_BPF failed");
		return;
	}
	count = count_opens(fd);
	snprintf(why, sizeof(why), "perf counted %lld", (long long)count);
	result(count == 0, "bpf-drop", why);
	check_bpf_query(fd);
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map;
	attr.key = (uint64_t)(unsigned long)&key;
	attr.value = (uint64_t)(unsigned long)&value;
	sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr);
	snprintf(why, sizeof(why), "map counted %llu for %d opens",
		 (unsigned long long)value, OPENS);
	result(value >= OPENS, "bpf", why);
	close(fd);
	close(prog);
	close(map);
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
static void check_tracefs(void)
{
	struct perf_event_attr attr;
	int64_t count = 0;
	char why[96];
	long id;
	int fd, busy;

	if (write_events("p:kpperf/opens do_sys_openat2\n")) {
		result(0, "tracefs", "cannot define kpperf/opens");
		return;
	}
	id = read_long(TRACEFS "events/kpperf/opens/id", NULL);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = id;
	attr.disabled = 1;
	fd = id < 0 ? -1 : syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		result(0, "tracefs", "perf_event_open by id failed");
		write_events("-:kpperf/opens\n");
		return;
	}
	count = count_opens(fd);
	busy = write_events("-:kpperf/opens\n") == -EBUSY;
	close(fd);
	write_events("-:kpperf/opens\n");
	snprintf(why, sizeof(why), "%lld hits for %d opens, %s while held, %s after",
		 (long long)count, OPENS, busy ? "EBUSY" : "not EBUSY",
		 listed("kpperf/opens") ? "still listed" : "deleted");
	result(count >= OPENS && busy && !listed("kpperf/opens"), "tracefs", why);
}

static void check_locked_down(void)
{
	char why[64];
	int fd;

	fd = open_kprobe(0);
	snprintf(why, sizeof(why), "%s", fd < 0 ? strerror(errno) : "probe created");
	result(fd < 0 && errno == EPERM, "lockdown-entry", why);
	if (fd >= 0)
		close(fd);
	fd = open_kprobe(1);
	snprintf(why, sizeof(why), "%s", fd < 0 ? strerror(errno) : "probe created");
	result(fd < 0 && errno == EPERM, "lockdown-return", why);
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "lockdown")) {
		check_locked_down();
	} else {
		check_count("entry", 0);
		check_count("return", 1);
		check_local();
		check_sample();
		check_bpf();
		check_tracefs();
	}
	return failures ? 1 : 0;
}
