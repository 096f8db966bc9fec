// SPDX-License-Identifier: GPL-2.0
/*
 * uptarget - the program the uprobe event tests probe (test.d/dynevent/uprobe_*.tc).
 *
 *   uptarget syms     print "NAME OFFSET" for each probe target: the
 *                     offset in this file that a uprobe definition wants
 *                     ("$FTRACETEST_ROOT/uptarget:OFFSET"), found from
 *                     /proc/self/maps, so no host tool has to know how
 *                     the linker laid the file out.  up_global's line is
 *                     the offset that @+OFFS of a probe on these
 *                     functions reads it at (its address minus the text
 *                     mapping's bias).
 *   uptarget run N    call every target N times with known arguments:
 *                     up_greet("hello-uprobe"), up_bytes({de,ad,be,ef}),
 *                     up_add(40, 2) (returns 42), up_poke((void *)16).
 *   uptarget perf ID N
 *                     count event ID (a tracepoint-type perf event, events/
 *                     .../id) in this task over "run N"; print the count
 *   uptarget pmu N    count a uprobe made by perf's uprobe PMU on up_add
 *                     in this task over "run N"; print the count
 *   uptarget fresh FILE N
 *                     N times: map FILE (read-only, private) and call
 *                     up_greet() on its first byte before anything
 *                     touched the mapping, so that the page is not
 *                     present in this task when a probe reads it
 *   uptarget long LEN call up_greet() once on a string of LEN 'x's
 *
 * In "run" the arguments live on the stack and up_global is read before
 * the calls, so their pages are present when a probe reads them; "fresh"
 * is the case where they are not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#define TARGET	__attribute__((noipa, used))

static volatile long sink;
volatile unsigned int up_global = 0x12345678;

TARGET int up_greet(const char *s)
{
	sink += s[0];
	return (int)strlen(s);
}

TARGET int up_bytes(const unsigned char *p)
{
	sink += p[0];
	return p[0] + p[1] + p[2] + p[3];
}

TARGET long up_add(long a, long b)
{
	sink++;
	return a + b;
}

TARGET int up_poke(const char *s)
{
	sink++;
	return s != NULL;
}

/* The mapping of this file that holds @addr: its start and file offset. */
static int find_mapping(unsigned long addr, unsigned long *start,
			unsigned long *off)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi, pgoff;

		if (sscanf(line, "%lx-%lx %*s %lx", &lo, &hi, &pgoff) != 3)
			continue;
		if (addr >= lo && addr < hi) {
			*start = lo;
			*off = pgoff;
			found = 1;
		}
	}
	fclose(f);
	return found;
}

static int print_sym(const char *name, void *fn, unsigned long *bias)
{
	unsigned long start, off, addr = (unsigned long)fn;

	if (!find_mapping(addr, &start, &off))
		return 1;
	*bias = start - off;
	printf("%s 0x%lx\n", name, addr - *bias);
	return 0;
}

static int syms(void)
{
	unsigned long bias = 0;
	int bad = 0;

	bad |= print_sym("up_greet", (void *)up_greet, &bias);
	bad |= print_sym("up_bytes", (void *)up_bytes, &bias);
	bad |= print_sym("up_add", (void *)up_add, &bias);
	bad |= print_sym("up_poke", (void *)up_poke, &bias);
	printf("up_global 0x%lx\n", (unsigned long)&up_global - bias);
	return bad;
}

static void run(long n)
{
	unsigned char bytes[4] = { 0xde, 0xad, 0xbe, 0xef };
	char greeting[32];

	strcpy(greeting, "hello-uprobe");
	sink += up_global;
	while (n-- > 0) {
		up_greet(greeting);
		up_bytes(bytes);
		sink += up_add(40, 2);
		up_poke((const char *)16);
	}
}

/* Count @attr's event in this task over "run @n"; -1 when it fails. */
static long long count_run(struct perf_event_attr *attr, long n)
{
	long long count = -1;
	int fd;

	attr->size = sizeof(*attr);
	attr->disabled = 1;
	fd = syscall(__NR_perf_event_open, attr, 0, -1, -1, 0);
	if (fd < 0) {
		perror("perf_event_open");
		return -1;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	run(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		count = -1;
	close(fd);
	return count;
}

static int perf_tracepoint(unsigned long id, long n)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.config = id,
	};

	printf("%lld\n", count_run(&attr, n));
	return 0;
}

/* The uprobe PMU's type, from sysfs; -1 if there is none. */
static int uprobe_pmu_type(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/uprobe/type", "r");
	int type = -1;

	if (f) {
		if (fscanf(f, "%d", &type) != 1)
			type = -1;
		fclose(f);
	}
	return type;
}

static int perf_pmu(long n)
{
	struct perf_event_attr attr = { .type = uprobe_pmu_type() };
	unsigned long start, off;
	static char self[4096];
	ssize_t len;

	if ((int)attr.type < 0 ||
	    !find_mapping((unsigned long)up_add, &start, &off))
		return 1;
	/* this program, wherever it was installed */
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0)
		return 1;
	self[len] = '\0';
	attr.config1 = (unsigned long)self;			/* uprobe_path */
	attr.config2 = (unsigned long)up_add - start + off;	/* probe_offset */
	printf("%lld\n", count_run(&attr, n));
	return 0;
}

static int fresh(const char *path, long n)
{
	int fd = open(path, O_RDONLY);
	void *p;

	if (fd < 0) {
		perror(path);
		return 1;
	}
	while (n-- > 0) {
		p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		up_greet(p);
		munmap(p, 4096);
	}
	close(fd);
	return 0;
}

static int long_string(long len)
{
	char *s;

	if (len < 0)
		return 1;
	s = malloc(len + 1);
	if (!s)
		return 1;
	memset(s, 'x', len);
	s[len] = '\0';
	up_greet(s);
	free(s);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "syms"))
		return syms();
	if (argc == 3 && !strcmp(argv[1], "run")) {
		run(strtol(argv[2], NULL, 0));
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "perf"))
		return perf_tracepoint(strtoul(argv[2], NULL, 0),
				       strtol(argv[3], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "pmu"))
		return perf_pmu(strtol(argv[2], NULL, 0));
	if (argc == 4 && !strcmp(argv[1], "fresh"))
		return fresh(argv[2], strtol(argv[3], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "long"))
		return long_string(strtol(argv[2], NULL, 0));
	fprintf(stderr,
		"usage: uptarget syms | run N | perf ID N | pmu N | fresh FILE N | long LEN\n");
	return 2;
}
