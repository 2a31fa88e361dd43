/* SPDX-License-Identifier: MIT */
/*
 * hostd_attach.c - `vgsp-hostd attach`: serve vgsp.ko's backend=hostd
 * instances through /dev/vgsp-hostd (docs/forwarding.md §5) with the CPU
 * executor (ring_serve.c). Sleeps on the eventfd the kernel signals; after
 * each wake it lists the instances, maps new ones, serves every ring and
 * kicks the instances that got completions. No polling when idle.
 *
 * By default it maps each instance's guest RAM itself (the view at
 * VGSP_HR_VIEW_OFF(id), VGSP_HR_FEAT_GUEST_VIEW): guest-RAM extents are
 * not staged by the kernel. An access to the view the kernel refuses (an
 * IOVA the VMM unmapped meanwhile) is a SIGBUS, caught around each item:
 * that item completes with EFAULT and hostd carries on.
 *
 *   vgsp-hostd attach [--dev PATH] [--serve-items N] [--staged]
 *   vgsp-hostd attach --probe [--dev PATH]
 *
 * --staged: do not map guest RAM; the kernel stages it (ring version 1's
 * way, kept for comparison and tests).
 * --serve-items N: serve N items, then leave later ones pending (test rigs:
 * a hostd that hangs, so its death has work to fail). Exit codes: 0 on
 * SIGTERM/SIGINT, 3 when another hostd is attached (EBUSY), 1 otherwise.
 * --probe (test rigs, with no hostd attached): the device's refusals, one
 * "probe NAME OK|FAIL errno" line each, then it detaches; exit 0 if all
 * were refused as they should be.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ring_serve.h"
#include "../../kernel/core/hostd_ring.h"

struct served {
	void *map;
	void *view; /* guest RAM by IOVA, or NULL (staged) */
	struct hr_server srv;
};

static volatile sig_atomic_t stop;
static sigjmp_buf view_jmp;
static volatile sig_atomic_t in_item;

/* A refused page of the view: back to serve_guarded(), the item fails. */
static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	if (in_item) {
		in_item = 0;
		siglongjmp(view_jmp, 1);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* hr_server_run, one item at a time under the SIGBUS guard. */
static int serve_guarded(struct hr_server *srv, unsigned max)
{
	volatile unsigned done = 0;

	while (done < max) {
		if (sigsetjmp(view_jmp, 1)) {
			hr_server_abort(srv, -EFAULT);
			done++;
			continue;
		}
		in_item = 1;
		int n = hr_server_run(srv, 1);
		in_item = 0;
		if (n < 0)
			return n;
		if (!n)
			break;
		done++;
	}
	return (int)done;
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void drop(struct served *s, unsigned id)
{
	hr_server_fini(&s->srv);
	munmap(s->map, VGSP_HR_MAP_BYTES);
	s->map = NULL;
	if (s->view)
		munmap(s->view, VGSP_HR_VIEW_BYTES);
	s->view = NULL;
	printf("vgsp-hostd: instance %u dropped\n", id);
}

static int expect(const char *name, int ret, int want_errno)
{
	int ok = ret < 0 && errno == want_errno;

	printf("probe %s %s %s\n", name, ok ? "OK" : "FAIL", ret < 0 ? strerror(errno) : "accepted");
	return ok;
}

static void *map_at(int fd, size_t len, off_t off)
{
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);

	if (m != MAP_FAILED)
		munmap(m, len);
	return m;
}

/* What the kernel must refuse from a file that is not (or is) attached. */
static int probe(int fd, int efd)
{
	struct vgsp_hostd_list l;
	struct vgsp_hostd_attach a = { .version = VGSP_HR_VERSION, .event_fd = efd };
	uint32_t id = VGSP_HR_MAX_INSTANCES - 1;
	int ok = 1;

	struct vgsp_hostd_attach_v1 old = { .version = 1, .event_fd = efd };

	ok &= expect("attach_v1", ioctl(fd, VGSP_HOSTD_ATTACH_V1, &old), EPROTO);
	ok &= expect("list_unattached", ioctl(fd, VGSP_HOSTD_LIST, &l), EPERM);
	ok &= expect("kick_unattached", ioctl(fd, VGSP_HOSTD_KICK, &id), EPERM);
	ok &= expect("mmap_unattached",
		     map_at(fd, VGSP_HR_MAP_BYTES, 0) == MAP_FAILED ? -1 : 0, EPERM);
	a.version = 99;
	ok &= expect("attach_version", ioctl(fd, VGSP_HOSTD_ATTACH, &a), EPROTO);
	a.version = VGSP_HR_VERSION;
	a.features = 0x80;
	ok &= expect("attach_features", ioctl(fd, VGSP_HOSTD_ATTACH, &a), EINVAL);
	a.features = 0;
	if (ioctl(fd, VGSP_HOSTD_ATTACH, &a)) {
		printf("probe attach FAIL %s\n", strerror(errno));
		return 0;
	}
	ok &= expect("attach_twice", ioctl(fd, VGSP_HOSTD_ATTACH, &a), EBUSY);
	ok &= expect("kick_absent", ioctl(fd, VGSP_HOSTD_KICK, &id), ENOENT);
	id = 1000;
	ok &= expect("kick_out_of_range", ioctl(fd, VGSP_HOSTD_KICK, &id), ENOENT);
	ok &= expect("ioctl_unknown", ioctl(fd, _IO(VGSP_HOSTD_IOC, 9)), ENOTTY);
	ok &= expect("mmap_absent",
		     map_at(fd, VGSP_HR_MAP_BYTES, (off_t)id % VGSP_HR_MAX_INSTANCES *
			    VGSP_HR_MAP_BYTES) == MAP_FAILED ? -1 : 0, ENOENT);
	ok &= expect("mmap_short",
		     map_at(fd, 4096, 0) == MAP_FAILED ? -1 : 0, EINVAL);
	ok &= expect("mmap_past_ids",
		     map_at(fd, VGSP_HR_MAP_BYTES, (off_t)VGSP_HR_MAX_INSTANCES *
			    VGSP_HR_MAP_BYTES) == MAP_FAILED ? -1 : 0, EINVAL);
	/* attached without the view: no guest RAM to map */
	ok &= expect("mmap_view_not_asked",
		     map_at(fd, 4096, (off_t)VGSP_HR_VIEW_OFF(0)) == MAP_FAILED ? -1 : 0,
		     EINVAL);
	return ok;
}

int hostd_attach_main(int argc, char **argv)
{
	int probe_only = 0;
	const char *dev = "/dev/vgsp-hostd";
	unsigned long long budget = ~0ull;
	uint32_t features = VGSP_HR_FEAT_GUEST_VIEW;
	static struct served tab[VGSP_HR_MAX_INSTANCES];

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--dev") && i + 1 < argc) {
			dev = argv[++i];
		} else if (!strcmp(argv[i], "--probe")) {
			probe_only = 1;
		} else if (!strcmp(argv[i], "--serve-items") && i + 1 < argc) {
			budget = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--staged")) {
			features = 0;
		} else {
			fprintf(stderr, "usage: vgsp-hostd attach [--dev PATH] [--serve-items N] [--staged] | --probe\n");
			return 2;
		}
	}
	int fd = open(dev, O_RDWR | O_CLOEXEC);
	int efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (fd < 0 || efd < 0) {
		fprintf(stderr, "vgsp-hostd: %s: %s\n", dev, strerror(errno));
		return 1;
	}
	if (probe_only) {
		int ok = probe(fd, efd);
		close(fd);
		return ok ? 0 : 1;
	}
	struct vgsp_hostd_attach a = { .version = VGSP_HR_VERSION, .event_fd = efd,
				       .features = features };
	if (ioctl(fd, VGSP_HOSTD_ATTACH, &a)) {
		int e = errno;
		fprintf(stderr, "vgsp-hostd: attach refused: %s%s\n", strerror(e),
			e == EBUSY ? " (another hostd is attached)" : "");
		return e == EBUSY ? 3 : 1;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	struct sigaction sa = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
	printf("vgsp-hostd: attached to %s (%s)\n", dev,
	       features ? "guest memory mapped by hostd" : "guest memory staged by the kernel");
	fflush(stdout);

	while (!stop) {
		struct vgsp_hostd_list l;
		uint64_t cnt;

		/* clear the eventfd first: a signal after this is not lost */
		if (read(efd, &cnt, sizeof(cnt)) < 0 && errno != EAGAIN)
			break;
		if (ioctl(fd, VGSP_HOSTD_LIST, &l))
			break;
		for (unsigned id = 0; id < VGSP_HR_MAX_INSTANCES; id++) {
			struct served *s = &tab[id];
			int want = (l.serving >> id) & 1;

			/* gone, failed, or a new instance under a reused id */
			if (s->map && (!want || hr_server_closed(&s->srv)))
				drop(s, id);
			if (!s->map && want) {
				void *m = mmap(NULL, VGSP_HR_MAP_BYTES, PROT_READ | PROT_WRITE,
					       MAP_SHARED, fd, (off_t)id * VGSP_HR_MAP_BYTES);
				if (m == MAP_FAILED)
					continue;
				s->map = m;
				if (hr_server_init(&s->srv, m, VGSP_HR_MAP_BYTES)) {
					fprintf(stderr, "vgsp-hostd: instance %u: bad ring layout\n", id);
					drop(s, id);
					continue;
				}
				/* its guest RAM: address space only, faulted page by page */
				if (features & VGSP_HR_FEAT_GUEST_VIEW) {
					void *v = mmap(NULL, VGSP_HR_VIEW_BYTES, PROT_READ | PROT_WRITE,
						       MAP_SHARED | MAP_NORESERVE, fd,
						       (off_t)VGSP_HR_VIEW_OFF(id));
					if (v == MAP_FAILED ||
					    hr_server_set_view(&s->srv, v, 0, VGSP_HR_VIEW_BYTES)) {
						fprintf(stderr, "vgsp-hostd: instance %u: no guest-RAM view: %s\n",
							id, strerror(errno));
						if (v != MAP_FAILED)
							munmap(v, VGSP_HR_VIEW_BYTES);
						drop(s, id);
						continue;
					}
					s->view = v;
				}
				printf("vgsp-hostd: serving instance %u\n", id);
			}
			if (!s->map || !budget)
				continue;
			unsigned max = budget < 64 ? (unsigned)budget : 64;
			int n = serve_guarded(&s->srv, max);
			if (n < 0) {
				fprintf(stderr, "vgsp-hostd: instance %u: broken ring\n", id);
				drop(s, id);
				continue;
			}
			if (n) {
				budget -= (unsigned)n;
				uint32_t kid = id;
				if (ioctl(fd, VGSP_HOSTD_KICK, &kid))
					fprintf(stderr, "vgsp-hostd: kick %u: %s\n", id, strerror(errno));
				/* more may be queued behind the ones served */
				uint64_t one = 1;
				if (write(efd, &one, sizeof(one)) < 0)
					break;
			}
		}
		fflush(stdout);
		struct pollfd p = { .fd = efd, .events = POLLIN };
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			break;
	}
	for (unsigned id = 0; id < VGSP_HR_MAX_INSTANCES; id++) {
		if (tab[id].map) {
			printf("vgsp-hostd: instance %u served %llu items, %llu errors, %llu bytes "
			       "through the view, %llu view faults\n", id,
			       (unsigned long long)tab[id].srv.st.completed,
			       (unsigned long long)tab[id].srv.st.errors,
			       (unsigned long long)tab[id].srv.st.view_bytes,
			       (unsigned long long)tab[id].srv.st.view_faults);
			drop(&tab[id], id);
		}
	}
	close(fd);
	return stop ? 0 : 1;
}
