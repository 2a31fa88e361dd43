/* SPDX-License-Identifier: MIT */
/*
 * rm.c - thin wrappers over the NVIDIA RM ioctls (NV_ESC_RM_*).  Each call
 * logs one line so the evidence log shows every step and its RM status.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hostd.h"
#include "nvrm_abi.h"

static int nv_ioctl(int fd, unsigned nr, void *arg, size_t size)
{
	int r;
	do {
		r = ioctl(fd, NVRM_IOWR(nr, size), arg);
	} while (r < 0 && (errno == EINTR || errno == EAGAIN));
	return r;
}

static void logf_(struct hd_dev *d, const char *what, uint32_t a, uint32_t status, int rc)
{
	if (d->log)
		fprintf(d->log, "rm: %-34s 0x%08x -> %s status=0x%x%s%s\n", what, a,
			rc < 0 ? "ioctl-error" : (status ? "FAIL" : "ok"), status,
			rc < 0 ? " errno=" : "", rc < 0 ? strerror(errno) : "");
	if (rc < 0 || status)
		d->last_status = rc < 0 ? 0xffffffffu : status;
}

int rm_alloc(struct hd_dev *d, uint32_t parent, uint32_t *handle, uint32_t cls,
	     void *params, uint32_t size, const char *what)
{
	struct nvos64_alloc a;
	memset(&a, 0, sizeof(a));
	a.hRoot = d->client;
	a.hObjectParent = parent;
	a.hObjectNew = *handle;
	a.hClass = cls;
	a.pAllocParms = (uint64_t)(uintptr_t)params;
	a.paramsSize = size;
	int rc = nv_ioctl(d->ctl, NV_ESC_RM_ALLOC, &a, sizeof(a));
	logf_(d, what, cls, a.status, rc);
	if (rc < 0 || a.status)
		return -1;
	*handle = a.hObjectNew;
	return 0;
}

int rm_control(struct hd_dev *d, uint32_t obj, uint32_t cmd, void *params, uint32_t size,
	       const char *what)
{
	struct nvos54_control c;
	memset(&c, 0, sizeof(c));
	c.hClient = d->client;
	c.hObject = obj;
	c.cmd = cmd;
	c.params = (uint64_t)(uintptr_t)params;
	c.paramsSize = size;
	int rc = nv_ioctl(d->ctl, NV_ESC_RM_CONTROL, &c, sizeof(c));
	logf_(d, what, cmd, c.status, rc);
	return (rc < 0 || c.status) ? -1 : 0;
}

int rm_free(struct hd_dev *d, uint32_t parent, uint32_t obj)
{
	struct nvos00_free f = { d->client, parent, obj, 0 };
	int rc = nv_ioctl(d->ctl, NV_ESC_RM_FREE, &f, sizeof(f));
	return (rc < 0 || f.status) ? -1 : 0;
}

/* The mapping context lives on a file descriptor: vidmem and register
 * pages need a /dev/nvidiaN fd registered to our control fd, system
 * memory can use a fresh control-device fd.  The fd stays open for the
 * lifetime of the mapping. */
int rm_map_cpu(struct hd_dev *d, uint32_t hdev, uint32_t hmem, uint64_t size, int use_ctl,
	       void **cpu, int *fd_out, const char *what)
{
	int fd = open(use_ctl ? "/dev/nvidiactl" : "/dev/nvidia0", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		logf_(d, "open map fd", 0, 0, -1);
		return -1;
	}
	if (!use_ctl) {
		struct nv_register_fd reg = { d->ctl };
		int rc = nv_ioctl(fd, NV_ESC_REGISTER_FD, &reg, sizeof(reg));
		if (rc < 0) {
			logf_(d, "register map fd", 0, 0, rc);
			close(fd);
			return -1;
		}
	}
	struct nvos33_map_with_fd m;
	memset(&m, 0, sizeof(m));
	m.params.hClient = d->client;
	m.params.hDevice = hdev;
	m.params.hMemory = hmem;
	m.params.length = size;
	m.fd = fd;
	int rc = nv_ioctl(d->ctl, NV_ESC_RM_MAP_MEMORY, &m, sizeof(m));
	logf_(d, what, hmem, m.params.status, rc);
	if (rc < 0 || m.params.status) {
		close(fd);
		return -1;
	}
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		logf_(d, "mmap", hmem, 0, -1);
		close(fd);
		return -1;
	}
	*cpu = p;
	*fd_out = fd;
	return 0;
}

int rm_map_gpu_at(struct hd_dev *d, uint32_t hdma, uint32_t hmem, uint64_t offset, uint64_t len,
		  uint32_t flags, uint64_t *va, const char *what)
{
	struct nvos46_map_dma m;
	memset(&m, 0, sizeof(m));
	m.hClient = d->client;
	m.hDevice = d->device;
	m.hDma = hdma;
	m.hMemory = hmem;
	m.offset = offset;
	m.length = len;
	m.flags = flags;
	m.dmaOffset = (flags & NVOS46_FLAGS_DMA_OFFSET_FIXED) ? *va : 0;
	int rc = nv_ioctl(d->ctl, NV_ESC_RM_MAP_MEMORY_DMA, &m, sizeof(m));
	logf_(d, what, hmem, m.status, rc);
	if (rc < 0 || m.status)
		return -1;
	*va = m.dmaOffset;
	return 0;
}

int rm_map_gpu(struct hd_dev *d, uint32_t hmem, uint64_t size, uint32_t flags, uint64_t *va,
	       const char *what)
{
	return rm_map_gpu_at(d, d->virt, hmem, 0, size, flags, va, what);
}

int rm_unmap_gpu(struct hd_dev *d, uint32_t hdma, uint32_t hmem, uint64_t va, uint32_t flags,
		 const char *what)
{
	struct nvos47_unmap_dma u;
	memset(&u, 0, sizeof(u));
	u.hClient = d->client;
	u.hDevice = d->device;
	u.hDma = hdma;
	u.hMemory = hmem;
	u.flags = flags;
	u.dmaOffset = va;
	u.size = 0;
	int rc = nv_ioctl(d->ctl, NV_ESC_RM_UNMAP_MEMORY_DMA, &u, sizeof(u));
	logf_(d, what, hmem, u.status, rc);
	return (rc < 0 || u.status) ? -1 : 0;
}

int rm_register_fd(struct hd_dev *d, int fd)
{
	struct nv_register_fd reg = { d->ctl };
	int rc = nv_ioctl(fd, NV_ESC_REGISTER_FD, &reg, sizeof(reg));
	logf_(d, "register /dev/nvidia0 fd", 0, 0, rc);
	return rc < 0 ? -1 : 0;
}

/* NV_ESC_RM_ALLOC_MEMORY on a registered /dev/nvidia0 fd (d->gpu): the
 * only path that turns a user VA range into an OS-descriptor object */
int rm_alloc_os_desc(struct hd_dev *d, uint32_t *handle, void *cpu, uint64_t size, uint32_t flags,
		     const char *what)
{
	struct nvos02_with_fd a;
	memset(&a, 0, sizeof(a));
	a.params.hRoot = d->client;
	a.params.hObjectParent = d->device;
	a.params.hObjectNew = *handle;
	a.params.hClass = NV01_MEMORY_SYSTEM_OS_DESCRIPTOR;
	a.params.flags = flags;
	a.params.pMemory = (uint64_t)(uintptr_t)cpu;
	a.params.limit = size - 1;
	a.fd = -1;
	int rc = nv_ioctl(d->gpu, NV_ESC_RM_ALLOC_MEMORY, &a, sizeof(a));
	logf_(d, what, NV01_MEMORY_SYSTEM_OS_DESCRIPTOR, a.params.status, rc);
	if (rc < 0 || a.params.status)
		return -1;
	*handle = a.params.hObjectNew;
	return 0;
}

int rm_version_query(struct hd_dev *d, char *out, size_t cap)
{
	struct nv_rm_api_version v;
	memset(&v, 0, sizeof(v));
	v.cmd = NV_RM_API_VERSION_CMD_QUERY;
	int rc = nv_ioctl(d->ctl, NV_ESC_CHECK_VERSION_STR, &v, sizeof(v));
	logf_(d, "query driver version", 0, 0, rc);
	if (cap)
		out[0] = 0;
	if (rc < 0 || !cap)
		return -1;
	v.versionString[sizeof(v.versionString) - 1] = 0;
	snprintf(out, cap, "%s", v.versionString);
	return 0;
}
