// SPDX-License-Identifier: GPL-2.0 OR MIT
/* A sealed memfd for BAR3 (see bar_map.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
#include "bar_map.h"

int vfu_bar_map_open(struct vfu_bar_map *m, size_t size)
{
	int fd, err;
	void *p;

	m->fd = -1;
	m->mem = NULL;
	m->size = 0;
	fd = memfd_create("vgsp-bar3", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)size) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)) {
		err = -errno;
		close(fd);
		return err;
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		err = -errno;
		close(fd);
		return err;
	}
	m->fd = fd;
	m->mem = p;
	m->size = size;
	return 0;
}

void vfu_bar_map_close(struct vfu_bar_map *m)
{
	if (m->mem)
		munmap(m->mem, m->size);
	if (m->fd >= 0)
		close(m->fd);
	m->fd = -1;
	m->mem = NULL;
	m->size = 0;
}
