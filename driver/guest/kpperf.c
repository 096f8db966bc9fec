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
 *   bpf       a BPF kprobe program attached to the entry event through
 *             PERF_EVENT_IOC_SET_BPF counts the same opens in a map.
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
#include <unistd.h>

#define PMU "/sys/bus/event_source/devices/kprobe/"
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

static int open_kprobe(int retprobe)
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
	/* this process, any CPU */
	return syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
}

static void make_opens(void)
{
	int i;

	for (i = 0; i < OPENS; i++)
		close(open("/proc/self/stat", O_RDONLY));
}

static void check_count(const char *name, int retprobe)
{
	uint64_t count = 0;
	char why[64];
	int fd = open_kprobe(retprobe);

	if (fd < 0) {
		snprintf(why, sizeof(why), "perf_event_open: %s", strerror(errno));
		result(0, name, why);
		return;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	make_opens();
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		count = 0;
	snprintf(why, sizeof(why), "%llu hits for %d opens", (unsigned long long)count, OPENS);
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

static void check_bpf(void)
{
	union bpf_attr attr;
	uint64_t value = 0;
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
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	make_opens();
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
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
		check_bpf();
	}
	return failures ? 1 : 0;
}
