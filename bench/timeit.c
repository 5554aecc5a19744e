// timeit.c - run a command once and report its wall time, CPU time and peak RSS.
//
//   cc -O2 -o timeit timeit.c
//   timeit [-e ERRFILE] -- COMMAND [ARG ...]
//
// The command runs with stdin from /dev/null, stdout to /dev/null and stderr to
// ERRFILE (default /dev/null). When it ends, timeit prints one line:
//
//   WALL_US CPU_US MAXRSS_KIB STATUS
//
// WALL_US is CLOCK_MONOTONIC from just before posix_spawn to wait4's return;
// CPU_US is user + system time and MAXRSS_KIB is ru_maxrss, both from wait4
// (the numbers GNU time prints as %U+%S and %M). STATUS is the exit status, or
// 128+signal. timeit exits 0 when it could run the command, 127 otherwise.
//
// Why not bash's $EPOCHREALTIME around /usr/bin/time: on the 2-core VMs a bash
// fork+exec costs 10-20 ms and varies with load, against about 2.5 ms for a
// posix_spawn of /bin/true (measured 2026-11-30), and the deep workload itself
// takes about 20 ms. posix_spawn uses clone(CLONE_VM|CLONE_VFORK), so the
// parent's size does not matter either.
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static void usage(void) {
	fputs("usage: timeit [-e ERRFILE] -- COMMAND [ARG ...]\n", stderr);
	exit(127);
}

int main(int argc, char **argv) {
	const char *errfile = "/dev/null";
	int c;
	while ((c = getopt(argc, argv, "+e:")) != -1) {
		if (c == 'e')
			errfile = optarg;
		else
			usage();
	}
	if (optind >= argc)
		usage();

	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	struct timespec t0, t1;
	pid_t pid;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int err = posix_spawnp(&pid, argv[optind], &fa, NULL, argv + optind, environ);
	if (err != 0) {
		fprintf(stderr, "timeit: %s: %s\n", argv[optind], strerror(err));
		return 127;
	}
	int st;
	struct rusage ru;
	if (wait4(pid, &st, 0, &ru) < 0) {
		perror("timeit: wait4");
		return 127;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);

	long long wall = (long long)(t1.tv_sec - t0.tv_sec) * 1000000 + (t1.tv_nsec - t0.tv_nsec) / 1000;
	long long cpu = (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
	                ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
	int status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	printf("%lld %lld %ld %d\n", wall, cpu, ru.ru_maxrss, status);
	return 0;
}
