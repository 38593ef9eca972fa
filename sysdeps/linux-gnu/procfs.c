#include "procfs.h"

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

long procfs_status_field(pid_t pid, const char *key, int base)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	size_t klen = strlen(key);
	long v = -1;
	char line[256];
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
			v = (long)strtoul(line + klen + 1, NULL, base);
			break;
		}
	fclose(f);
	return v;
}

bool procfs_caught(pid_t tid, int sig)
{
	long mask = procfs_status_field(tid, "SigCgt", 16);
	return (unsigned long)mask & (1UL << (sig - 1));
}

/* Read up to LEN - 1 bytes of the /proc file of PID named NAME into BUF,
 * NUL-terminated; returns the bytes read, 0 if none. */
static size_t read_file(pid_t pid, const char *name, char *buf, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0 ? (size_t)n : 0;
}

char procfs_state(pid_t tid)
{
	char buf[256];
	if (!read_file(tid, "stat", buf, sizeof(buf)))
		return 0;
	/* The state follows the command name, which may hold ')'. */
	char *paren = strrchr(buf, ')');
	return paren && paren[1] ? paren[2] : 0;
}

void procfs_comm(pid_t pid, char *buf, size_t len)
{
	read_file(pid, "comm", buf, len);
	buf[strcspn(buf, "\n")] = '\0';
}

uint64_t procfs_auxv(pid_t pid, unsigned long type)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	Elf64_auxv_t av[64];
	ssize_t n = read(fd, av, sizeof(av));
	close(fd);
	for (ssize_t i = 0; i < n / (ssize_t)sizeof(av[0]); i++)
		if (av[i].a_type == type)
			return av[i].a_un.a_val;
	return 0;
}

int procfs_exe(pid_t pid, char *buf, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	ssize_t n = readlink(path, buf, len - 1);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

bool procfs_executable(pid_t pid, uint64_t addr)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	bool x = false;
	char line[512];
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char perms[8];
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 &&
		    addr >= lo && addr < hi) {
			x = perms[2] == 'x';
			break;
		}
	}
	fclose(f);
	return x;
}
