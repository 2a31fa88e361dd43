/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Small sysfs/debugfs/procfs file helpers and profile facts. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rig.h"

int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = 0;
	return 0;
}

int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;
	int e;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	e = errno;
	close(fd);
	if (n < 0)
		return -e;
	return (size_t)n == strlen(s) ? 0 : -EIO;
}

long read_long(const char *path)
{
	char buf[64];

	if (read_file(path, buf, sizeof(buf)))
		return -1;
	return strtol(buf, NULL, 0);
}

int mdev_type_of(const char *uuid, char *type, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/bus/mdev/devices/%s/mdev_type", uuid);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return -errno;
	link[n] = 0;
	snprintf(type, len, "%s", basename(link));
	return 0;
}

uint64_t profile_bar1_size(const char *type)
{
	static const struct { const char *type; uint64_t bar1; } t[] = {
		{ "vgsp-h100-10g", 256 * MIB }, { "vgsp-h100-20g", 512 * MIB },
		{ "vgsp-h100-40g", 1 * GIB },   { "vgsp-h100-80g", 2 * GIB },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(t[i].type, type))
			return t[i].bar1;
	return 0;
}

void new_uuid(char *out)
{
	if (read_file("/proc/sys/kernel/random/uuid", out, 37))
		snprintf(out, 37, "%08x-0000-4000-8000-%012x", (unsigned)getpid(), (unsigned)rand());
}
