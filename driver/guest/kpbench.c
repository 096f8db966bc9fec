// SPDX-License-Identifier: GPL-2.0
/*
 * kpbench - guest time of N calls of a cheap system call, for measuring
 * what a probe adds per hit.
 *
 *   kpbench [N [SYSCALL]]   SYSCALL: getppid (default) or getpid
 *
 * Prints "kpbench N NS": the best of three runs of N calls, in
 * nanoseconds of CLOCK_MONOTONIC.  Under QEMU -icount shift=0 the guest
 * clock advances one nanosecond per instruction, so with a probe on the
 * system call enabled and then disabled, the difference divided by N is
 * the instructions a hit adds.  Not a test: it is not in suite.list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	long nr = argc > 2 && !strcmp(argv[2], "getpid") ? SYS_getpid :
							    SYS_getppid;
	long long best = -1, t;
	int run;
	long i;

	for (run = 0; run < 3; run++) {
		t = now_ns();
		for (i = 0; i < n; i++)
			syscall(nr);
		t = now_ns() - t;
		if (best < 0 || t < best)
			best = t;
	}
	printf("kpbench %ld %lld\n", n, best);
	return 0;
}
