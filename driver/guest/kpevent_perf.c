// SPDX-License-Identifier: GPL-2.0
/*
 * kpevent_perf - kprobe events through perf_event_open(2) and BPF.
 *
 * Cases (each prints "@@RESULT PASS|FAIL|SKIP name"):
 *   pmu-count        perf's kprobe PMU: a local probe on getppid() counts
 *                    exactly the calls of this task, and is not listed in
 *                    kprobe_events
 *   pmu-retprobe     the same with the retprobe bit
 *   pmu-sample       a sampled record holds the head (pid, probed address)
 *   tracefs-event    a kprobe event of tracefs opened by its id counts the
 *                    calls, and cannot be deleted while perf holds it
 *   bpf-prog         a BPF program on the event runs on every hit; as it
 *                    returns 0, perf gets no record
 *   bpf-fd-query     BPF_TASK_FD_QUERY reports the kprobe and its symbol
 */
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

#define TRACEFS	"/sys/kernel/tracing/"
#define FUNC	"__x64_sys_getppid"
#define CALLS	1000

static int failures;

static void result(const char *status, const char *name, const char *why)
{
	printf("@@RESULT %s %s%s%s%s\n", status, name, why ? " (" : "",
	       why ? why : "", why ? ")" : "");
	if (!strcmp(status, "FAIL"))
		failures++;
}

static long read_long(const char *path)
{
	char buf[64] = "";
	long v = -1;
	FILE *f = fopen(path, "r");

	if (f && fgets(buf, sizeof(buf), f))
		v = strtol(buf, NULL, 0);
	if (f)
		fclose(f);
	return v;
}

/* "config:N" in the PMU's format file: the retprobe bit. */
static int retprobe_bit(void)
{
	char buf[64] = "";
	FILE *f = fopen("/sys/bus/event_source/devices/kprobe/format/retprobe",
			"r");
	int bit = -1;

	if (f && fgets(buf, sizeof(buf), f))
		sscanf(buf, "config:%d", &bit);
	if (f)
		fclose(f);
	return bit;
}

static int write_str(const char *path, const char *s, int append)
{
	int fd = open(path, O_WRONLY | (append ? O_APPEND : O_TRUNC));
	int ret;

	if (fd < 0)
		return -errno;
	ret = write(fd, s, strlen(s)) < 0 ? -errno : 0;
	close(fd);
	return ret;
}

/* Does kprobe_events mention @word? */
static int listed(const char *word)
{
	char line[512];
	FILE *f = fopen(TRACEFS "kprobe_events", "r");
	int found = 0;

	while (f && fgets(line, sizeof(line), f))
		found |= strstr(line, word) != NULL;
	if (f)
		fclose(f);
	return found;
}

static int perf_open(struct perf_event_attr *attr)
{
	return syscall(SYS_perf_event_open, attr, 0, -1, -1, 0);
}

static int kprobe_pmu_open(int retprobe, int sample)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	long type = read_long("/sys/bus/event_source/devices/kprobe/type");

	if (type < 0)
		return -ENOENT;
	attr.type = type;
	if (retprobe)
		attr.config = 1ULL << retprobe_bit();
	attr.kprobe_func = (uintptr_t)FUNC;
	attr.disabled = 1;
	if (sample) {
		attr.sample_period = 1;
		attr.sample_type = PERF_SAMPLE_RAW;
		attr.wakeup_events = 1;
	}
	return perf_open(&attr);
}

/* Call getppid() CALLS times with the counter on; its final count. */
static long count_calls(int fd)
{
	long long count = -1;
	int i;

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < CALLS; i++)
		syscall(SYS_getppid);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		return -1;
	return count;
}

static void test_pmu_count(int retprobe)
{
	const char *name = retprobe ? "pmu-retprobe" : "pmu-count";
	int fd;
	long n;

	if (retprobe && retprobe_bit() < 0) {
		result("SKIP", name, "no retprobe bit");
		return;
	}
	fd = kprobe_pmu_open(retprobe, 0);
	if (fd < 0) {
		result(fd == -ENOENT ? "SKIP" : "FAIL", name, "perf_event_open");
		return;
	}
	if (listed(FUNC))
		result("FAIL", name, "the local probe is listed in kprobe_events");
	else if ((n = count_calls(fd)) != CALLS)
		result("FAIL", name, "count is not the number of calls");
	else
		result("PASS", name, NULL);
	close(fd);
}

/* The raw record of the first sample in the ring: head + probed address. */
static void test_pmu_sample(void)
{
	struct perf_event_mmap_page *meta;
	struct perf_event_header *hdr;
	size_t page = sysconf(_SC_PAGESIZE), len = 9 * page;
	uint32_t raw_size;
	unsigned char *raw;
	int fd, pid;
	uint64_t ip;

	fd = kprobe_pmu_open(0, 1);
	if (fd < 0) {
		result(fd == -ENOENT ? "SKIP" : "FAIL", "pmu-sample",
		       "perf_event_open");
		return;
	}
	meta = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED) {
		result("FAIL", "pmu-sample", "mmap");
		close(fd);
		return;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	syscall(SYS_getppid);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);

	hdr = (void *)((char *)meta + page);
	if (meta->data_head == 0 || hdr->type != PERF_RECORD_SAMPLE) {
		result("FAIL", "pmu-sample", "no sample");
		goto out;
	}
	memcpy(&raw_size, hdr + 1, sizeof(raw_size));
	raw = (unsigned char *)(hdr + 1) + sizeof(raw_size);
	memcpy(&pid, raw + 4, sizeof(pid));	/* trace_entry.pid */
	memcpy(&ip, raw + 8, sizeof(ip));	/* __probe_ip */
	if (raw_size < 16 || pid != getpid() || !ip)
		result("FAIL", "pmu-sample", "bad raw record");
	else
		result("PASS", "pmu-sample", NULL);
out:
	munmap(meta, len);
	close(fd);
}

/* The tracefs event kpperf/getppid, opened through perf by its id. */
static int tracefs_event_open(void)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	long id;

	if (write_str(TRACEFS "kprobe_events", "p:kpperf/getppid " FUNC "\n",
		      1))
		return -ENOENT;
	id = read_long(TRACEFS "events/kpperf/getppid/id");
	if (id < 0)
		return -ENOENT;
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = id;
	attr.disabled = 1;
	attr.sample_period = 1;
	return perf_open(&attr);
}

static void test_tracefs_event(int fd)
{
	if (count_calls(fd) != CALLS)
		result("FAIL", "tracefs-event", "count is not the number of calls");
	else if (write_str(TRACEFS "kprobe_events", "-:kpperf/getppid\n", 1) != -EBUSY)
		result("FAIL", "tracefs-event", "deleted while perf has it");
	else
		result("PASS", "tracefs-event", NULL);
}

/* An array map of one u64 and a program that adds 1 to it and drops. */
static int bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static int bpf_counter_prog(int map_fd)
{
	struct bpf_insn insns[] = {
		/* *(u32 *)(fp - 4) = 0 */
		{ .code = BPF_ST | BPF_MEM | BPF_W, .dst_reg = BPF_REG_10,
		  .off = -4, .imm = 0 },
		/* r1 = map */
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_PSEUDO_MAP_FD, .imm = map_fd },
		{ 0 },
		/* r2 = fp - 4 */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_2,
		  .src_reg = BPF_REG_10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_2,
		  .imm = -4 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_map_lookup_elem },
		/* if r0 == 0 goto out */
		{ .code = BPF_JMP | BPF_JEQ | BPF_K, .dst_reg = BPF_REG_0,
		  .off = 2, .imm = 0 },
		/* r1 = 1; lock *(u64 *)(r0 + 0) += r1 */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1,
		  .imm = 1 },
		{ .code = BPF_STX | BPF_ATOMIC | BPF_DW, .dst_reg = BPF_REG_0,
		  .src_reg = BPF_REG_1, .imm = BPF_ADD },
		/* out: return 0, no perf record */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr = {
		.prog_type = BPF_PROG_TYPE_KPROBE,
		.insns = (uintptr_t)insns,
		.insn_cnt = sizeof(insns) / sizeof(insns[0]),
		.license = (uintptr_t)"GPL",
	};

	return bpf(BPF_PROG_LOAD, &attr);
}

static long long bpf_counter_read(int map_fd)
{
	long long value = -1;
	uint32_t key = 0;
	union bpf_attr attr = {
		.map_fd = map_fd,
		.key = (uintptr_t)&key,
		.value = (uintptr_t)&value,
	};

	return bpf(BPF_MAP_LOOKUP_ELEM, &attr) ? -1 : value;
}

static void test_bpf_query(int fd, int prog_fd)
{
	char buf[256] = "";
	union bpf_attr attr = {
		.task_fd_query = {
			.pid = getpid(), .fd = fd,
			.buf = (uintptr_t)buf, .buf_len = sizeof(buf),
		},
	};

	if (bpf(BPF_TASK_FD_QUERY, &attr))
		result("FAIL", "bpf-fd-query", "BPF_TASK_FD_QUERY");
	else if (attr.task_fd_query.fd_type != BPF_FD_TYPE_KPROBE ||
		 strcmp(buf, FUNC) || attr.task_fd_query.probe_offset)
		result("FAIL", "bpf-fd-query", "wrong kprobe info");
	else
		result("PASS", "bpf-fd-query", NULL);
}

static void test_bpf(int fd)
{
	union bpf_attr map_attr = {
		.map_type = BPF_MAP_TYPE_ARRAY,
		.key_size = 4, .value_size = 8, .max_entries = 1,
	};
	int map_fd, prog_fd;
	long n;

	map_fd = bpf(BPF_MAP_CREATE, &map_attr);
	prog_fd = map_fd < 0 ? -1 : bpf_counter_prog(map_fd);
	if (prog_fd < 0) {
		result("SKIP", "bpf-prog", "cannot load a BPF program");
		result("SKIP", "bpf-fd-query", "cannot load a BPF program");
		return;
	}
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd)) {
		result("FAIL", "bpf-prog", "PERF_EVENT_IOC_SET_BPF");
	} else {
		n = count_calls(fd);
		if (bpf_counter_read(map_fd) != CALLS)
			result("FAIL", "bpf-prog", "the program missed hits");
		else if (n != 0)
			result("FAIL", "bpf-prog", "records the program dropped");
		else
			result("PASS", "bpf-prog", NULL);
		test_bpf_query(fd, prog_fd);
	}
	close(prog_fd);
	close(map_fd);
}

int main(void)
{
	int fd;

	test_pmu_count(0);
	test_pmu_count(1);
	test_pmu_sample();

	fd = tracefs_event_open();
	if (fd < 0) {
		result("FAIL", "tracefs-event", "cannot open the event");
	} else {
		test_tracefs_event(fd);
		test_bpf(fd);
		close(fd);
	}
	write_str(TRACEFS "kprobe_events", "-:kpperf/getppid\n", 1);
	if (listed("kpperf"))
		result("FAIL", "tracefs-event", "not deleted after perf closed it");
	return failures ? 1 : 0;
}
