// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vgsp-vfu: the vgsp device core behind a vfio-user socket, so a stock QEMU
 * (vfio-user-pci) can give the emulated GPU to a guest without vgsp.ko.
 *
 *   vgsp-vfu --socket PATH [--profile h100-10g] [--uuid UUID] [--msix N]
 *            [--stats FILE] [--log FILE] [--log-reads N] [--log-dma] [--persist]
 *            [--backend sim|hostd] [--rm-log FILE] [--fb sysmem|vidmem]
 *            [--fb-cache PAGES]
 *
 * --backend hostd (a build with HOSTD=1, on a machine with an NVIDIA GPU):
 * compute launches and copies run on the GPU (backend_hostd.h); the
 * instance refuses to start if the GPU cannot be used. --rm-log: hostd's
 * RM call log. --fb vidmem: the guest's FB is a partition of the GPU's
 * memory instead of host memory (hostd only); the core then keeps copies
 * of the FB lines it reads, since it reads that memory uncached through
 * the GPU's BAR1 (kernel/core/mm/fb_cache.c): --fb-cache sets how many
 * 4 KiB pages at most (default VFU_HOSTD_FB_CACHE_PAGES, 0 = none).
 *
 * The core's views (counters, info, bar0_unknown, GSP views) plus our own
 * frontend view are written to --stats every second, after each client's
 * disconnect and at exit, and to stderr on SIGUSR1. --log is the transcript of the vfio-user
 * session, the core's trace events included (lines "trace vgsp_...").
 */
#define _GNU_SOURCE /* accept4 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/select.h>
#include "device.h"
#include "view.h"
#include "gsp/gsp.h"
#include "mm/bar_share.h"
#include "mm/mm.h"
#include "os_user.h"
#include "codec.h"
#include "server.h"
#ifdef VGSP_HOSTD
#include "backend_hostd.h"

static const struct vfu_be_hooks hostd_hooks = {
	.dma_added = vfu_hostd_dma_added,
	.dma_removed = vfu_hostd_dma_removed,
	.show = vfu_hostd_show,
};
#endif

static volatile sig_atomic_t stop_flag, dump_flag;
static const char *stats_path;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		dump_flag = 1;
	else
		stop_flag = 1;
}

struct fprinter {
	struct vgsp_printer p;
	FILE *f;
};

__attribute__((format(printf, 2, 3)))
static void fprint(struct vgsp_printer *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(((struct fprinter *)p)->f, fmt, ap);
	va_end(ap);
}

static void show_bar_share(struct vfu_server *s, FILE *f)
{
	struct vgsp_bar_share_stats st;

	vgsp_bar_share_stats(s->dev, &st);
	fprintf(f, "bar3_mmap %s\n", s->bar3.fd >= 0 ? "on" : "off");
	fprintf(f, "bar3_share syncs %llu lends %llu reclaims %llu errors %llu shared %llu unshared %llu unshared_peak %llu aliases %llu alias_bytes %llu\n",
		(unsigned long long)st.syncs, (unsigned long long)st.lends,
		(unsigned long long)st.reclaims, (unsigned long long)st.errors,
		(unsigned long long)st.shared, (unsigned long long)st.unshared,
		(unsigned long long)st.unshared_peak, (unsigned long long)st.aliases,
		(unsigned long long)st.alias_bytes);
}

static void show_views(struct vfu_server *s, FILE *f)
{
	struct fprinter fp = { .p = { .print = fprint }, .f = f };
	unsigned int i;

	for (i = 0; i < vgsp_core_nviews; i++) {
		fprintf(f, "== %s\n", vgsp_core_views[i].name);
		vgsp_core_views[i].show(s->dev, &fp.p);
	}
	for (i = 0; i < vgsp_gsp_nviews; i++) {
		fprintf(f, "== %s\n", vgsp_gsp_views[i].name);
		vgsp_gsp_views[i].show(s->dev, &fp.p);
	}
	fprintf(f, "== vfu\n");
	vfu_server_show(s, f);
	show_bar_share(s, f);
	if (s->be && s->be->show) {
		fprintf(f, "== backend\n");
		s->be->show(s->be_arg, f);
	}
}

/* Write to FILE.tmp then rename: readers never see a half-written file. */
static void write_stats(struct vfu_server *s)
{
	char tmp[4096];
	FILE *f;

	if (!stats_path)
		return;
	snprintf(tmp, sizeof(tmp), "%s.tmp", stats_path);
	f = fopen(tmp, "w");
	if (!f)
		return;
	show_views(s, f);
	if (fclose(f) == 0)
		rename(tmp, stats_path);
}

static void tick(struct vfu_server *s)
{
	if (dump_flag) {
		dump_flag = 0;
		show_views(s, stderr);
	}
	write_stats(s);
	if (s->log)
		fflush(s->log);
}

static int parse_uuid(const char *str, u8 out[16])
{
	unsigned int i = 0;

	while (*str && i < 32) {
		int v;

		if (*str == '-') {
			str++;
			continue;
		}
		if (*str >= '0' && *str <= '9')
			v = *str - '0';
		else if (*str >= 'a' && *str <= 'f')
			v = *str - 'a' + 10;
		else if (*str >= 'A' && *str <= 'F')
			v = *str - 'A' + 10;
		else
			return -1;
		out[i / 2] = (u8)((i & 1) ? (out[i / 2] | v) : (v << 4));
		i++;
		str++;
	}
	return (i == 32 && !*str) ? 0 : -1;
}

static int listen_unix(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(a.sun_path)) {
		fprintf(stderr, "vgsp-vfu: socket path too long\n");
		return -1;
	}
	strcpy(a.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	unlink(path);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(fd, 1) < 0) {
		perror("vgsp-vfu: bind/listen");
		close(fd);
		return -1;
	}
	return fd;
}

static void usage(void)
{
	fprintf(stderr, "usage: vgsp-vfu --socket PATH [--profile ID] [--uuid UUID] "
		"[--msix N] [--stats FILE] [--log FILE] [--log-reads N] [--log-dma] [--persist]\n"
		"                [--backend sim|hostd] [--rm-log FILE] [--mmap]\n"
		"                [--fb sysmem|vidmem] [--fb-cache PAGES]\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "profile", required_argument, NULL, 'p' },
		{ "uuid", required_argument, NULL, 'u' },
		{ "msix", required_argument, NULL, 'm' },
		{ "stats", required_argument, NULL, 'S' },
		{ "log", required_argument, NULL, 'l' },
		{ "log-reads", required_argument, NULL, 'r' },
		{ "persist", no_argument, NULL, 'P' },
		{ "log-dma", no_argument, NULL, 'D' },
		{ "backend", required_argument, NULL, 'B' },
		{ "rm-log", required_argument, NULL, 'R' },
		{ "mmap", no_argument, NULL, 'M' },
		{ "fb", required_argument, NULL, 'F' },
		{ "fb-cache", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *sock = NULL, *profile_id = "h100-10g", *log_path = NULL;
	const char *backend = "sim", *rm_log_path = NULL;
	struct vgsp_dev_opts dopts = { 0 };
#ifdef VGSP_HOSTD
	struct vfu_hostd *hostd = NULL;
	FILE *rm_log = NULL;
#endif
	u8 uuid[16] = { 0x56, 0x67, 0x73, 0x70, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 1 };
	unsigned long msix = 8, log_reads = 4, fb_cache = 0;
	bool persist = false, log_dma = false, bar_mmap = false, fb_vidmem = false;
	bool fb_cache_set = false;
	static struct vfu_server srv;
	struct vfu_server *s = &srv;
	const struct vgsp_profile *prof;
	struct sigaction sa = { .sa_handler = on_signal };
	int c, lfd, ret = 0;
	char ustr[40];

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		char *end;

		switch (c) {
		case 's': sock = optarg; break;
		case 'p': profile_id = optarg; break;
		case 'u':
			if (parse_uuid(optarg, uuid)) {
				fprintf(stderr, "vgsp-vfu: bad --uuid\n");
				return 2;
			}
			break;
		case 'm':
			msix = strtoul(optarg, &end, 0);
			if (*end || msix < 1 || msix > VFU_MSIX_MAX) {
				fprintf(stderr, "vgsp-vfu: --msix must be 1..%d\n", VFU_MSIX_MAX);
				return 2;
			}
			break;
		case 'S': stats_path = optarg; break;
		case 'l': log_path = optarg; break;
		case 'r': log_reads = strtoul(optarg, NULL, 0); break;
		case 'P': persist = true; break;
		case 'D': log_dma = true; break;
		case 'B': backend = optarg; break;
		case 'R': rm_log_path = optarg; break;
		case 'M': bar_mmap = true; break;
		case 'F':
			if (strcmp(optarg, "sysmem") && strcmp(optarg, "vidmem")) {
				fprintf(stderr, "vgsp-vfu: --fb must be sysmem or vidmem\n");
				return 2;
			}
			fb_vidmem = !strcmp(optarg, "vidmem");
			break;
		case 'C':
			fb_cache = strtoul(optarg, &end, 0);
			if (*end || fb_cache > VGSP_FBC_MAX_PAGES) {
				fprintf(stderr, "vgsp-vfu: --fb-cache must be 0..%u pages\n",
					VGSP_FBC_MAX_PAGES);
				return 2;
			}
			fb_cache_set = true;
			break;
		default: usage(); return c == 'h' ? 0 : 2;
		}
	}
	if (!sock) {
		usage();
		return 2;
	}
	vgsp_os_user_init();
	prof = vgsp_profile_find(profile_id);
	if (!prof) {
		fprintf(stderr, "vgsp-vfu: unknown profile '%s'\n", profile_id);
		return 2;
	}
	if (vfu_server_init(s, (unsigned int)msix)) {
		fprintf(stderr, "vgsp-vfu: out of memory\n");
		return 1;
	}
	s->stop = &stop_flag;
	s->tick = tick;
	s->log_reads_per_off = (unsigned int)log_reads;
	s->log_dma = log_dma;
	if (log_path) {
		s->log = fopen(log_path, "w");
		if (!s->log) {
			perror("vgsp-vfu: --log");
			return 1;
		}
		/* the core's trace events join the transcript (docs/tracing.md) */
		vgsp_os_user_trace(vfu_server_trace_line, s);
	}
	if (fb_vidmem && strcmp(backend, "hostd")) {
		fprintf(stderr, "vgsp-vfu: --fb vidmem needs --backend hostd (the GPU's memory)\n");
		return 2;
	}
	if (!strcmp(backend, "hostd")) {
#ifdef VGSP_HOSTD
		if (rm_log_path) {
			rm_log = fopen(rm_log_path, "w");
			if (!rm_log) {
				perror("vgsp-vfu: --rm-log");
				return 1;
			}
			setvbuf(rm_log, NULL, _IOLBF, 0);
		}
		hostd = vfu_hostd_open(prof, rm_log, fb_vidmem);
		if (!hostd) {
			fprintf(stderr, "vgsp-vfu: --backend hostd: refusing to start (see above)\n");
			return 1;
		}
		vfu_hostd_dev_opts(hostd, &dopts);
		/* host memory is cached already: only BAR1 has a cache */
		if (fb_vidmem && fb_cache_set)
			dopts.fb_cache_pages = (u32)fb_cache;
		s->be = &hostd_hooks;
		s->be_arg = hostd;
#else
		fprintf(stderr, "vgsp-vfu: --backend hostd: this build has no hostd (make -C userspace/vfu HOSTD=1)\n");
		return 2;
#endif
	} else if (strcmp(backend, "sim")) {
		fprintf(stderr, "vgsp-vfu: unknown --backend '%s' (sim or hostd)\n", backend);
		return 2;
	}
	(void)rm_log_path;
	(void)fb_cache_set;	/* --fb vidmem needs hostd */
	/*
	 * --mmap: BAR3 mapped by the client (bar_map.h); a flat FB (hostd)
	 * cannot. Opt-in: an FB page CPU-RM maps at two BAR2 VAs (sub-page
	 * objects) is seen through one only (docs/rung1-guest.md).
	 */
	if (bar_mmap && !dopts.fb_flat) {
		int err = vfu_bar_map_open(&s->bar3, VGSP_BAR3_SIZE);

		if (err)
			fprintf(stderr, "vgsp-vfu: BAR3 stays trapped: memfd: %s\n",
				strerror(-err));
		dopts.bar3_shared = s->bar3.mem;
	}
	s->dev = vgsp_dev_create_opts(prof, uuid, (unsigned int)msix, &vfu_fe_ops,
				      s, &dopts);
	if (!s->dev) {
		fprintf(stderr, "vgsp-vfu: cannot create the device\n");
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	lfd = listen_unix(sock);
	if (lfd < 0)
		return 1;
	vgsp_uuid_to_str(uuid, ustr);
	fprintf(stderr, "vgsp-vfu: %s %s (%04x:%04x) uuid %s listening on %s, pid %d\n",
		prof->id, prof->product, prof->vendor, prof->device, ustr, sock,
		(int)getpid());
	write_stats(s);
	while (!stop_flag) {
		int cfd;
		fd_set rd;
		struct timeval tv = { .tv_sec = 1 };

		FD_ZERO(&rd);
		FD_SET(lfd, &rd);
		if (select(lfd + 1, &rd, NULL, NULL, &tv) <= 0) {
			tick(s);
			continue;
		}
		cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (cfd < 0)
			continue;
		fprintf(stderr, "vgsp-vfu: client connected\n");
		ret = vfu_serve(s, cfd);
		close(cfd);
		fprintf(stderr, "vgsp-vfu: client disconnected (%d)\n", ret);
		/* --stats shows the reset device at once, not a second later */
		write_stats(s);
		if (!persist)
			break;
	}
	close(lfd);
	unlink(sock);
	write_stats(s);
	show_views(s, stderr);
	if (s->log) {
		vgsp_os_user_trace(NULL, NULL);
		fclose(s->log);
	}
	vgsp_dev_destroy(s->dev);
	vfu_server_fini(s);
#ifdef VGSP_HOSTD
	vfu_hostd_close(hostd);
	if (rm_log)
		fclose(rm_log);
#endif
	return ret < 0 ? 1 : 0;
}
