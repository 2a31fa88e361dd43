// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vgsp-vfu-stress: lifecycle and many-tenant tests of the real vgsp-vfu
 * binary, driven over its vfio-user socket by synthetic VMMs (vfu_client.c,
 * with the guest-driver replay client of tests/replay for GSP boot and RPCs).
 *
 *   vgsp-vfu-stress kill    --vfu BIN --dir DIR [--iters N] [--seed S] [--rss-kib K]
 *   vgsp-vfu-stress tenants --vfu BIN --dir DIR [--n N] [--secs S] [--seed S]
 *                           [--p99-ms MS] [--max-ms MS]
 *
 * kill: one vgsp-vfu --persist instance; N times a VMM (child process) is
 * killed with SIGKILL at a random point of its session, cycling through
 * three targets: right after the handshake (before or while it maps memory
 * and arms MSI-X), during the GSP boot (FSP COT, queue link, INIT_DONE,
 * static info), and during GSP RPCs. After each kill a fresh VMM at once
 * gets a clean device: command register 0 (reset), the dead VMM's BAR1
 * marker gone, GSP off, and the whole OpenRM init sequence replayed against
 * the golden transcript. The server's counters must stay consistent
 * (opens == closes == sessions, resets == closes, no DMA window or eventfd
 * left, no rejected access), its fd and thread counts must return to their
 * baseline after every iteration, and its RSS may not grow by more than K KiB
 * (default 4096) over the run. The server must never die.
 *
 * tenants: N vgsp-vfu instances (one process each, as deployed); the even
 * ones get a well-behaved VMM (GSP boot, then a BAR0 read round trip and a
 * GSP control RPC round trip every 2 ms, timed), the odd ones a hostile VMM
 * (doorbell storms, random bytes in its GSP queues, random BAR0/config
 * accesses of any size, malformed vfio-user messages, DMA and IRQ requests
 * with bad arguments, resets, broken framing and reconnects). The first
 * quarter of the run is quiet (hostile VMMs wait), so the report has a
 * baseline. Asserted: every well-behaved round trip succeeds, with p99
 * under --p99-ms (default 250) and the slowest under --max-ms (default 3000)
 * for both the BAR0 read and the RPC during the storm; the well-behaved instances' counters equal exactly what their VMM
 * sent and show no rejected input; every hostile instance's bad-input
 * counters moved; every server survives and exits 0 on SIGTERM.
 *
 * Output: "PASS name" / "FAIL name: why" lines, figures as "FIGURE ..."
 * lines, and a last line "N passed, N failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "vfu_client.h"
#include "replay.h"
#include "golden.h"

static const char *vfu_bin, *work_dir;
static unsigned int n_pass, n_fail;

__attribute__((format(printf, 3, 4)))
static bool check(bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("PASS %s\n", name);
		n_pass++;
	} else {
		printf("FAIL %s: ", name);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		putchar('\n');
		n_fail++;
	}
	fflush(stdout);
	return ok;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_us(uint64_t us)
{
	struct timespec ts = { .tv_sec = (time_t)(us / 1000000),
			       .tv_nsec = (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* ---- the server process ---------------------------------------------- */

static const uint8_t test_uuid[16] = { 0x56, 0x67, 0x73, 0x70, 0, 0, 0x40, 0, 0x80 };

struct srv {
	pid_t pid;
	uint8_t uuid[16];	/* the instance's; the replay client checks it */
	char sock[108], stats[512], err[512];
};

static int srv_start(struct srv *s, const char *name, unsigned int idx, bool persist)
{
	char uuid[40];
	int i;

	snprintf(s->sock, sizeof(s->sock), "%s/%s.sock", work_dir, name);
	snprintf(s->stats, sizeof(s->stats), "%s/%s.stats", work_dir, name);
	snprintf(s->err, sizeof(s->err), "%s/%s.stderr", work_dir, name);
	snprintf(uuid, sizeof(uuid), "56677370-0000-4000-8000-%012x", 0x5000u + idx);
	memcpy(s->uuid, test_uuid, 16);
	s->uuid[14] = (uint8_t)((0x5000u + idx) >> 8);
	s->uuid[15] = (uint8_t)(0x5000u + idx);
	unlink(s->sock);
	unlink(s->stats);
	s->pid = fork();
	if (s->pid < 0)
		return -errno;
	if (s->pid == 0) {
		int fd = open(s->err, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd >= 0) {
			dup2(fd, 2);
			close(fd);
		}
		fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			close(fd);
		}
		if (persist)
			execl(vfu_bin, vfu_bin, "--socket", s->sock, "--stats", s->stats,
			      "--uuid", uuid, "--persist", (char *)NULL);
		else
			execl(vfu_bin, vfu_bin, "--socket", s->sock, "--stats", s->stats,
			      "--uuid", uuid, (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 500; i++) {
		struct stat st;

		if (!stat(s->sock, &st) && S_ISSOCK(st.st_mode) && !access(s->stats, R_OK))
			return 0;
		if (waitpid(s->pid, NULL, WNOHANG) == s->pid) {
			s->pid = 0;
			return -ECHILD;
		}
		sleep_us(10000);
	}
	return -ETIMEDOUT;
}

static bool srv_alive(struct srv *s)
{
	return s->pid > 0 && waitpid(s->pid, NULL, WNOHANG) == 0;
}

/* SIGTERM, wait up to 10 s; the wait status, or -1. */
static int srv_stop(struct srv *s)
{
	int st, i;

	if (s->pid <= 0)
		return -1;
	kill(s->pid, SIGTERM);
	for (i = 0; i < 1000; i++) {
		if (waitpid(s->pid, &st, WNOHANG) == s->pid) {
			s->pid = 0;
			return st;
		}
		sleep_us(10000);
	}
	kill(s->pid, SIGKILL);
	waitpid(s->pid, &st, 0);
	s->pid = 0;
	return -1;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n = 0, cap = 1 << 16;

	if (!f)
		return NULL;
	buf = malloc(cap + 1);
	while (buf) {
		size_t k = fread(buf + n, 1, cap - n, f);

		n += k;
		if (n < cap)
			break;
		cap *= 2;
		buf = realloc(buf, cap + 1);
	}
	fclose(f);
	if (buf)
		buf[n] = 0;
	return buf;
}

/* "view.key" from a stats file's text; 0 if found. */
static int stat_get(const char *buf, const char *view, const char *key, uint64_t *v)
{
	char hdr[64];
	const char *p, *end;
	size_t kl = strlen(key);

	snprintf(hdr, sizeof(hdr), "== %s\n", view);
	p = strstr(buf, hdr);
	if (!p)
		return -1;
	p += strlen(hdr);
	end = strstr(p, "\n== ");
	while (p && (!end || p < end)) {
		if (!strncmp(p, key, kl) && p[kl] == ' ') {
			*v = strtoull(p + kl + 1, NULL, 0);
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

static uint64_t sv(const char *buf, const char *view, const char *key)
{
	uint64_t v = ~0ull;

	if (stat_get(buf, view, key, &v))
		fprintf(stderr, "stats: no %s.%s\n", view, key);
	return v;
}

static const char *stat_str(const char *buf, const char *view, const char *key,
			    char *out, size_t cap)
{
	char hdr[64];
	const char *p;
	size_t kl = strlen(key);

	snprintf(out, cap, "?");
	snprintf(hdr, sizeof(hdr), "== %s\n", view);
	p = strstr(buf, hdr);
	for (p = p ? p + strlen(hdr) : NULL; p && strncmp(p, "== ", 3); ) {
		if (!strncmp(p, key, kl) && p[kl] == ' ') {
			size_t n = strcspn(p + kl + 1, "\n");

			snprintf(out, cap, "%.*s", (int)n, p + kl + 1);
			break;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return out;
}

/* Wait until the stats file shows counters.closes == @closes; its text. */
static char *stats_after(struct srv *s, uint64_t closes)
{
	int i;

	for (i = 0; i < 1000; i++) {
		char *b = slurp(s->stats);
		uint64_t c;

		if (b && !stat_get(b, "counters", "closes", &c) && c == closes)
			return b;
		free(b);
		sleep_us(5000);
	}
	return slurp(s->stats);
}

static long proc_count(pid_t pid, const char *sub)
{
	char path[64];
	DIR *d;
	struct dirent *e;
	long n = 0;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, sub);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static long proc_rss_kib(pid_t pid)
{
	char path[64], line[256];
	FILE *f;
	long v = -1;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t pct(const uint64_t *s, size_t n, unsigned int p)
{
	size_t i = (size_t)(((uint64_t)n * p + 99) / 100);

	return n ? s[i ? i - 1 : 0] : 0;
}

#define BAR1_MARK_OFF	0x2000u
#define BAR1_MARK	0x5a5aa5a5c3c33c3cull
#define PMC_BOOT_0	0x000000u
#define GSP_QUEUE_HEAD0	0x110c00u
#define USERMODE_DOORBELL 0xbb0090u

/* ---- kill: the VMM dies at a random point ----------------------------- */

enum { PH_START, PH_SETUP, PH_BOOT, PH_RPC, PH_DONE, PH_N };
static const char *const ph_name[PH_N] = { "start", "setup", "boot", "rpc", "done" };

struct kshared {
	volatile int phase;
	volatile unsigned int rpcs;
	volatile uint64_t setup_ns, boot_ns;
	volatile int error;
};

/* The VMM that gets killed: handshake, memory, MSI-X, BME, BAR1 marker, GSP boot, RPCs. */
static void victim(struct srv *s, struct kshared *sh, unsigned int max_rpcs)
{
	static struct vc c;
	struct rp_transport t;
	struct rp_client *rp;
	uint64_t mark = BAR1_MARK, t0;

	if (vc_connect(&c, s->sock, 10000)) {
		sh->error = 1;
		_exit(1);
	}
	sh->phase = PH_SETUP;
	t0 = now_ns();
	vc_transport(&c, &t, s->uuid);
	rp = rp_new(&t);		/* DMA_MAP of the replay arena */
	if (!rp || vc_msix0(&c) || vc_bus_master(&c) ||
	    vc_write(&c, 1, BAR1_MARK_OFF, &mark, 8)) {
		sh->error = 2;
		_exit(1);
	}
	sh->setup_ns = now_ns() - t0;
	sh->phase = PH_BOOT;
	t0 = now_ns();
	if (rp_boot(rp)) {
		sh->error = 3;
		_exit(1);
	}
	sh->boot_ns = now_ns() - t0;
	sh->phase = PH_RPC;
	while (sh->rpcs < max_rpcs) {
		if (rp_ping(rp, NULL, NULL)) {
			sh->error = 4;
			_exit(1);
		}
		sh->rpcs++;
	}
	sh->phase = PH_DONE;
	_exit(0);
}

/* A fresh VMM after the kill: the device must be clean and fully usable. */
static int fresh_check(struct srv *s, char *why, size_t whylen)
{
	struct vc c;
	struct rp_transport t;
	struct rp_client *rp;
	uint16_t cmd = 0xffff;
	uint64_t mark = ~0ull;
	int r, ret = -1;

	r = vc_connect(&c, s->sock, 10000);
	if (r) {
		snprintf(why, whylen, "connect/VERSION: %s", strerror(-r));
		return -1;
	}
	if ((r = vc_read(&c, VFU_PCI_CONFIG, 4, &cmd, 2)) || cmd != 0) {
		snprintf(why, whylen, "command register 0x%x after the kill (rc %d), want 0",
			 cmd, r);
		goto out;
	}
	if ((r = vc_read(&c, 1, BAR1_MARK_OFF, &mark, 8)) || mark != 0) {
		snprintf(why, whylen, "BAR1 marker 0x%llx survived (rc %d)",
			 (unsigned long long)mark, r);
		goto out;
	}
	vc_transport(&c, &t, s->uuid);
	rp = rp_new(&t);
	if (!rp || vc_msix0(&c)) {
		snprintf(why, whylen, "DMA_MAP or SET_IRQS refused");
		rp_free(rp);
		goto out;
	}
	r = rp_run_init(rp);
	/* on a difference, why holds the first differing line */
	if (rp_transcript_diff(rp_transcript(rp)->buf, golden_init, why, whylen) < 0) {
		if (r)
			snprintf(why, whylen, "rp_run_init: %d", r);
		else
			ret = 0;
	}
	rp_free(rp);
out:
	vc_close(&c);
	return ret;
}

/* After a failure: the tail of the server's stderr and its GSP views. */
static void dump_evidence(struct srv *s)
{
	char cmd[1200];

	printf("--- evidence: tail of %s\n", s->err);
	fflush(stdout);
	snprintf(cmd, sizeof(cmd), "tail -n 20 '%s'; sed -n '/^== gsp_state$/,/^== gsp_rpc$/p;/^== gsp_queue$/,/^== rpc_log$/p' '%s' | head -n 90",
		 s->err, s->stats);
	if (system(cmd) < 0)
		printf("(cannot run tail/sed)\n");
	printf("--- end of evidence\n");
	fflush(stdout);
}

static int do_kill(unsigned int iters, unsigned int rss_bound_kib)
{
	struct srv s = { 0 };
	struct kshared *sh = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	unsigned int i, hist[PH_N] = { 0 }, bad_iter = 0, bad_run = 0, sessions = 0;
	long fd0, thr0, rss0 = 0, rss, rss_max = 0, fds, thr;
	uint64_t boot_us, setup_us, t_start = now_ns(), fresh_ns = 0, fresh_max = 0;
	char why[512], name[64], *b;
	int r;

	if (sh == MAP_FAILED)
		return 1;
	r = srv_start(&s, "kill", 1, true);
	if (!check(!r, "vmm_kill.server_start", "%s (see %s)", strerror(-r), s.err))
		return 1;

	/* Calibration: one VMM that boots and leaves normally, then a fresh check. */
	memset(sh, 0, sizeof(*sh));
	{
		pid_t p = fork();
		int st;

		if (p == 0)
			victim(&s, sh, 50);
		waitpid(p, &st, 0);
		check(WIFEXITED(st) && WEXITSTATUS(st) == 0 && sh->phase == PH_DONE,
		      "vmm_kill.calibration", "the unkilled VMM failed (error %d, phase %s)",
		      sh->error, ph_name[sh->phase]);
		sessions++;
	}
	boot_us = sh->boot_ns / 1000;
	if (boot_us < 1000)
		boot_us = 1000;
	setup_us = sh->setup_ns / 1000;
	if (setup_us < 20)
		setup_us = 20;
	r = fresh_check(&s, why, sizeof(why));
	sessions++;
	check(!r, "vmm_kill.fresh_after_clean_exit", "%s", why);
	b = stats_after(&s, sessions);
	free(b);
	fd0 = proc_count(s.pid, "fd");
	thr0 = proc_count(s.pid, "task");
	printf("FIGURE vmm_kill baseline: server fds %ld threads %ld rss %ld KiB, setup (DMA_MAP, MSI-X, BME, BAR1) %llu us, GSP boot over vfio-user %llu us\n",
	       fd0, thr0, proc_rss_kib(s.pid), (unsigned long long)setup_us,
	       (unsigned long long)boot_us);

	for (i = 0; i < iters; i++) {
		unsigned int target = PH_SETUP + i % 3;
		uint64_t delay_us, t0, deadline;
		unsigned int fails0 = n_fail;
		pid_t p;
		int st, ph;

		memset(sh, 0, sizeof(*sh));
		p = fork();
		if (p == 0)
			victim(&s, sh, ~0u);
		deadline = now_ns() + 20000000000ull;
		while (sh->phase < (int)target && !sh->error && now_ns() < deadline)
			sleep_us(50);
		if (sh->phase < (int)target && !sh->error) {
			snprintf(name, sizeof(name), "vmm_kill.iter%u.reach", i);
			check(false, name, "the VMM did not reach the %s stage in 20 s (stuck in %s)",
			      ph_name[target], ph_name[sh->phase]);
		}
		switch (target) {
		case PH_SETUP: delay_us = rnd() % setup_us; break;
		case PH_BOOT: delay_us = rnd() % boot_us; break;
		default: delay_us = rnd() % 20000; break;
		}
		sleep_us(delay_us);
		ph = sh->phase;
		kill(p, SIGKILL);
		waitpid(p, &st, 0);
		if (!(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) || sh->error) {
			snprintf(name, sizeof(name), "vmm_kill.iter%u.victim", i);
			check(false, name, "the VMM failed before the kill (error %d, phase %s)",
			      sh->error, ph_name[ph]);
		}
		hist[ph]++;
		sessions++;
		if (!srv_alive(&s)) {
			check(false, "vmm_kill.server_alive", "vgsp-vfu died at iteration %u (see %s)",
			      i, s.err);
			return 1;
		}
		t0 = now_ns();
		r = fresh_check(&s, why, sizeof(why));
		t0 = now_ns() - t0;
		fresh_ns += t0;
		if (t0 > fresh_max)
			fresh_max = t0;
		sessions++;
		if (r) {
			snprintf(name, sizeof(name), "vmm_kill.iter%u.fresh", i);
			check(false, name, "after a kill in %s: %s", ph_name[ph], why);
		}
		b = stats_after(&s, sessions);
		if (!b) {
			check(false, "vmm_kill.stats", "no stats file");
			bad_iter++;
			continue;
		}
		{
			uint64_t opens = sv(b, "counters", "opens"), closes = sv(b, "counters", "closes");
			uint64_t resets = sv(b, "counters", "resets");
			uint64_t rej = sv(b, "counters", "bar0_bad") + sv(b, "counters", "cfg_bad") +
				sv(b, "counters", "bar_bad") + sv(b, "counters", "region_bad") +
				sv(b, "counters", "dma_errors") + sv(b, "vfu", "bad_msgs");
			char mode[32], boot[32];

			stat_str(b, "vfu", "irq_mode", mode, sizeof(mode));
			stat_str(b, "gsp_state", "boot", boot, sizeof(boot));
			if (opens != sessions || closes != sessions || resets != sessions ||
			    sv(b, "vfu", "dma_windows") != 0 || strcmp(mode, "none") ||
			    strcmp(boot, "off") || sv(b, "gsp_queue", "linked") != 0 || rej) {
				snprintf(name, sizeof(name), "vmm_kill.iter%u.counters", i);
				check(false, name,
				      "sessions %u: opens %llu closes %llu resets %llu dma_windows %llu irq_mode %s gsp boot %s linked %llu rejected %llu",
				      sessions, (unsigned long long)opens, (unsigned long long)closes,
				      (unsigned long long)resets,
				      (unsigned long long)sv(b, "vfu", "dma_windows"), mode, boot,
				      (unsigned long long)sv(b, "gsp_queue", "linked"),
				      (unsigned long long)rej);
				}
		}
		free(b);
		fds = proc_count(s.pid, "fd");
		thr = proc_count(s.pid, "task");
		rss = proc_rss_kib(s.pid);
		if (fds != fd0 || thr != thr0) {
			snprintf(name, sizeof(name), "vmm_kill.iter%u.fds", i);
			check(false, name, "server fds %ld threads %ld, baseline %ld / %ld",
			      fds, thr, fd0, thr0);
		}
		if (n_fail != fails0) {
			/* the evidence, once: the server's last words and GSP state */
			if (!bad_iter++)
				dump_evidence(&s);
			if (++bad_run >= 3) {
				check(false, "vmm_kill.stopped", "3 failing iterations in a row: stopped at %u",
				      i);
				iters = i + 1;
				break;
			}
		} else {
			bad_run = 0;
		}
		if (i == 0)
			rss0 = rss;
		if (rss > rss_max)
			rss_max = rss;
	}
	printf("FIGURE vmm_kill %u kills: %u after the handshake, %u in the GSP boot, %u in RPCs (%u still starting); fresh VMM's check (connect, reset state, golden init) avg %.1f ms max %.1f ms; whole run %.1f s\n",
	       iters, hist[PH_SETUP], hist[PH_BOOT], hist[PH_RPC], hist[PH_START],
	       iters ? fresh_ns / 1e6 / iters : 0.0, fresh_max / 1e6,
	       (now_ns() - t_start) / 1e9);
	printf("FIGURE vmm_kill server rss after the first kill %ld KiB, max %ld KiB (+%ld KiB, bound %u); fds %ld threads %ld at the end\n",
	       rss0, rss_max, rss_max - rss0, rss_bound_kib, proc_count(s.pid, "fd"),
	       proc_count(s.pid, "task"));
	check(!bad_iter, "vmm_kill.iterations", "%u of %u iterations had a failure", bad_iter, iters);
	check(iters < 9 || (hist[PH_SETUP] && hist[PH_BOOT] && hist[PH_RPC]),
	      "vmm_kill.phases_covered", "kills per phase: setup %u boot %u rpc %u",
	      hist[PH_SETUP], hist[PH_BOOT], hist[PH_RPC]);
	check(rss_max - rss0 <= (long)rss_bound_kib, "vmm_kill.rss_bounded",
	      "rss grew by %ld KiB (bound %u)", rss_max - rss0, rss_bound_kib);
	check(srv_alive(&s), "vmm_kill.server_alive", "vgsp-vfu died (see %s)", s.err);
	r = srv_stop(&s);
	check(r >= 0 && WIFEXITED(r) && WEXITSTATUS(r) == 0, "vmm_kill.server_exit",
	      "vgsp-vfu did not exit 0 on SIGTERM (status 0x%x, see %s)", r, s.err);
	return n_fail ? 1 : 0;
}

/* ---- tenants: hostile and well-behaved VMMs side by side --------------- */

#define MAX_TEN		64
#define MAX_SAMPLES	40000

struct tshared {
	volatile int ready, failed;
	char why[160];
	/* well-behaved: round trips, quiet phase then storm */
	unsigned int n_quiet, n_storm;
	uint32_t bar0_us[MAX_SAMPLES], rpc_us[MAX_SAMPLES];
	uint64_t bar0_reads, bar0_writes, cfg_reads, cfg_writes;
	/* hostile: what it did */
	uint64_t actions, storms, bad_msgs, reconnects, timeouts, bad_replies;
};

static void tfail(struct tshared *t, const char *fmt, ...)
{
	va_list ap;

	if (t->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(t->why, sizeof(t->why), fmt, ap);
	va_end(ap);
	t->failed = 1;
}

static void good_vmm(struct srv *s, struct tshared *t, uint64_t storm_at, uint64_t end)
{
	static struct vc c;
	struct rp_transport tr;
	struct rp_client *rp;
	uint32_t boot0;
	int r;

	if ((r = vc_connect(&c, s->sock, 10000))) {
		tfail(t, "connect: %s", strerror(-r));
		_exit(1);
	}
	vc_transport(&c, &tr, s->uuid);
	rp = rp_new(&tr);
	if (!rp || vc_msix0(&c) || rp_boot(rp)) {
		tfail(t, "GSP boot failed: %s", rp ? rp_transcript(rp)->buf : "no memory");
		_exit(1);
	}
	boot0 = vc_rd32(&c, PMC_BOOT_0);
	t->ready = 1;
	while (now_ns() < end) {
		uint64_t t0 = now_ns(), t1, t2;
		unsigned int k = t->n_quiet + t->n_storm;
		uint32_t v = vc_rd32(&c, PMC_BOOT_0);

		t1 = now_ns();
		if (v != boot0) {
			tfail(t, "BAR0 read round trip: 0x%x, want 0x%x", v, boot0);
			break;
		}
		if (rp_ping(rp, NULL, NULL)) {
			tfail(t, "RPC round trip failed after %u: %.150s", k,
			      rp_transcript(rp)->buf);
			break;
		}
		t2 = now_ns();
		if (k < MAX_SAMPLES) {
			t->bar0_us[k] = (uint32_t)((t1 - t0) / 1000);
			t->rpc_us[k] = (uint32_t)((t2 - t1) / 1000);
			if (t0 < storm_at)
				t->n_quiet++;
			else
				t->n_storm++;
		}
		sleep_us(2000);
	}
	t->bar0_reads = c.bar0_reads;
	t->bar0_writes = c.bar0_writes;
	t->cfg_reads = c.cfg_reads;
	t->cfg_writes = c.cfg_writes;
	rp_free(rp);
	vc_close(&c);
	_exit(t->failed ? 1 : 0);
}

static int hostile_attach(struct vc *c, struct srv *s, struct tshared *t,
			  struct rp_client **rp, struct rp_transport *tr)
{
	if (vc_connect(c, s->sock, 10000))
		return -1;
	vc_transport(c, tr, s->uuid);
	*rp = rp_new(tr);
	if (!*rp)
		return -1;
	(void)vc_msix0(c);
	(void)rp_boot(*rp);	/* the GSP runs, so doorbells reach live queues */
	return 0;
}

static void hostile_vmm(struct srv *s, struct tshared *t, uint64_t storm_at,
			uint64_t end, uint64_t seed)
{
	static struct vc c;
	struct rp_transport tr;
	struct rp_client *rp = NULL;
	static uint8_t buf[16 + 4096 + 64];

	rng_state = seed | 1;
	if (hostile_attach(&c, s, t, &rp, &tr)) {
		tfail(t, "first connect failed");
		_exit(1);
	}
	t->ready = 1;
	while (now_ns() < storm_at)
		sleep_us(1000);
	while (now_ns() < end) {
		uint64_t x = rnd();
		unsigned int act = (unsigned int)(x % 100), k;
		int r = 0;

		t->actions++;
		if (act < 25) {			/* doorbell storm: 200 writes per message */
			struct { uint64_t n; struct vfu_wr_one w[VFU_MULTI_MAX]; } m;

			m.n = VFU_MULTI_MAX;
			for (k = 0; k < VFU_MULTI_MAX; k++) {
				m.w[k].offset = (k & 1) ? USERMODE_DOORBELL : GSP_QUEUE_HEAD0;
				m.w[k].region = 0;
				m.w[k].count = 4;
				memset(m.w[k].data, 0, sizeof(m.w[k].data));
				memcpy(m.w[k].data, &x, 4);
			}
			r = vc_call(&c, VFU_CMD_REGION_WRITE_MULTI, &m, sizeof(m), -1,
				    NULL, 0, NULL);
			t->storms++;
		} else if (act < 40) {		/* random bytes in its GSP memory, then a doorbell */
			if (c.mem) {
				/* half of them into the command queue's pages (arena pages 9..73) */
				size_t off = (rnd() & 1) ? (size_t)(rnd() % c.mem_size) & ~7ul :
					     ((9 + (size_t)(rnd() % 65)) << 12) +
					     ((rnd() % 8 ? rnd() % 0x40 : rnd() % 0x1000) & ~7ul);
				unsigned int n = 1 + (unsigned int)(rnd() % 64);

				for (k = 0; k < n && off + 8 * k + 8 <= c.mem_size; k++) {
					uint64_t v = rnd();

					memcpy((uint8_t *)c.mem + off + 8 * k, &v, 8);
				}
			}
			r = vc_wr32(&c, GSP_QUEUE_HEAD0, (uint32_t)x);
		} else if (act < 60) {		/* BAR0 access anywhere, any size */
			static const uint32_t sizes[] = { 1, 2, 3, 4, 5, 8, 16 };
			uint32_t n = sizes[rnd() % 7];
			uint64_t off = rnd() % (17u << 20);
			uint64_t v = rnd();

			if (rnd() & 1)
				r = vc_read(&c, (uint32_t)(rnd() % 4 ? 0 : rnd() % 10), off, buf, n);
			else
				r = vc_write(&c, (uint32_t)(rnd() % 4 ? 0 : rnd() % 10), off, &v, n);
			t->bad_msgs++;
		} else if (act < 68) {		/* config space, any offset and size */
			uint32_t n = 1 + (uint32_t)(rnd() % 8), off = (uint32_t)(rnd() % 4200);
			uint64_t v = rnd();

			r = (rnd() & 1) ? vc_read(&c, VFU_PCI_CONFIG, off, buf, n) :
					  vc_write(&c, VFU_PCI_CONFIG, off, &v, n);
		} else if (act < 88) {		/* a malformed message, framed */
			struct vfu_hdr *h = (struct vfu_hdr *)buf;
			uint32_t plen = (uint32_t)(rnd() % 96);
			bool reply;

			for (k = 0; k < 16 + plen; k += 8) {
				uint64_t v = rnd();

				memcpy(buf + k, &v, 8);
			}
			h->id = 0xbad;
			h->cmd = (uint16_t)(rnd() % 20);
			h->size = 16 + plen;
			h->flags = (rnd() % 8 == 0) ? VFU_F_NO_REPLY :
				   (rnd() % 16 == 0) ? VFU_F_TYPE_REPLY : 0;
			h->error = 0;
			if (h->cmd == VFU_CMD_VERSION || h->cmd == VFU_CMD_DEVICE_RESET)
				h->cmd = VFU_CMD_DEVICE_FEATURE;
			reply = !(h->flags & (VFU_F_NO_REPLY | VFU_F_TYPE_REPLY));
			r = vc_send_raw(&c, buf, h->size);
			if (!r && reply) {
				struct vfu_hdr rh;

				r = vc_recv_any(&c, &rh);
				if (!r && (rh.id != 0xbad || !(rh.flags & VFU_F_TYPE_REPLY)))
					t->bad_replies++;
			}
			t->bad_msgs++;
		} else if (act < 93) {		/* DMA map/unmap with hostile arguments */
			struct vfu_dma_unmap u = { .argsz = sizeof(u), .iova = rnd() % (1ull << 33),
						   .size = (rnd() % 64) << 12 };
			struct vfu_dma_map m = { .argsz = sizeof(m), .flags = 3,
						 .iova = rnd(), .size = rnd() };
			int fd = memfd_create("hostile", MFD_CLOEXEC);	/* unsealed */

			if (rnd() & 1)
				r = vc_call(&c, VFU_CMD_DMA_UNMAP, &u, sizeof(u), -1, NULL, 0, NULL);
			else
				r = vc_call(&c, VFU_CMD_DMA_MAP, &m, sizeof(m), fd, NULL, 0, NULL);
			if (fd >= 0)
				close(fd);
			t->bad_msgs++;
		} else if (act < 97) {		/* SET_IRQS with random arguments */
			struct vfu_irq_set st = { .argsz = sizeof(st), .flags = (uint32_t)rnd() & 0x3f,
						  .index = (uint32_t)(rnd() % 6),
						  .start = (uint32_t)(rnd() % 10),
						  .count = (uint32_t)(rnd() % 4) };

			r = vc_call(&c, VFU_CMD_DEVICE_SET_IRQS, &st, sizeof(st), -1, NULL, 0, NULL);
			t->bad_msgs++;
		} else if (act < 99) {		/* reset and boot again */
			r = vc_reset(&c);
			rp_free(rp);
			vc_close(&c);
			if (hostile_attach(&c, s, t, &rp, &tr)) {
				tfail(t, "reconnect failed");
				break;
			}
			t->reconnects++;
			continue;
		} else {			/* broken framing: the server hangs up */
			struct vfu_hdr h = { .id = 1, .cmd = 4, .size = 8 };

			(void)vc_send_raw(&c, &h, sizeof(h));
			rp_free(rp);
			vc_close(&c);
			if (hostile_attach(&c, s, t, &rp, &tr)) {
				tfail(t, "reconnect after broken framing failed");
				break;
			}
			t->reconnects++;
			continue;
		}
		if (r == -ETIMEDOUT || r == -EIO) {
			/* the server stopped answering this VMM: count it, start over */
			if (r == -ETIMEDOUT)
				t->timeouts++;
			rp_free(rp);
			vc_close(&c);
			if (hostile_attach(&c, s, t, &rp, &tr)) {
				tfail(t, "reconnect after %s failed",
				      r == -ETIMEDOUT ? "a timeout" : "a hang-up");
				break;
			}
			t->reconnects++;
		}
	}
	rp_free(rp);
	vc_close(&c);
	_exit(0);
}

static void figures(const char *what, uint32_t *all, size_t n, uint64_t *p50,
		    uint64_t *p99, uint64_t *max)
{
	uint64_t *v = calloc(n ? n : 1, sizeof(*v));
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = all[i];
	qsort(v, n, sizeof(*v), cmp_u64);
	*p50 = pct(v, n, 50);
	*p99 = pct(v, n, 99);
	*max = n ? v[n - 1] : 0;
	printf("FIGURE tenants %s: n=%zu p50 %.3f ms p99 %.3f ms max %.3f ms\n", what, n,
	       *p50 / 1e3, *p99 / 1e3, *max / 1e3);
	free(v);
}

static const char *const bad_counters[][2] = {
	{ "counters", "cfg_bad" }, { "counters", "bar0_bad" }, { "counters", "bar_bad" },
	{ "counters", "region_bad" }, { "counters", "ioctl_bad" },
	{ "counters", "dma_errors" }, { "counters", "dma_blocked" },
	{ "vfu", "bad_msgs" }, { "gsp_state", "cmdq_hdr_bad" },
	{ "gsp_state", "elem_count_bad" }, { "gsp_state", "length_bad" },
	{ "gsp_state", "checksum_bad" }, { "gsp_state", "seq_bad" },
	{ "gsp_state", "rpc_hdr_bad" }, { "gsp_state", "fsp_bad_queue" },
	{ "gsp_state", "emem_bad" }, { "gsp_state", "boot_errors" },
	{ "gsp_state", "unknown_functions" }, { "channels", "doorbells_unknown" },
};
#define N_BAD (sizeof(bad_counters) / sizeof(bad_counters[0]))

static int do_tenants(unsigned int n, unsigned int secs, unsigned int p99_ms,
		      unsigned int max_ms)
{
	struct srv s[MAX_TEN];
	pid_t cl[MAX_TEN];
	struct tshared *t;
	uint64_t start, storm_at, end, p50, p99, mx;
	uint32_t *qb, *qr, *sb, *sr;
	size_t nq = 0, ns = 0;
	unsigned int i, k;
	char name[80];
	int r;

	if (n < 2 || n > MAX_TEN)
		n = 16;
	t = mmap(NULL, sizeof(*t) * n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		 -1, 0);
	if (t == MAP_FAILED)
		return 1;
	memset(t, 0, sizeof(*t) * n);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "tenant%02u", i);
		memset(&s[i], 0, sizeof(s[i]));
		r = srv_start(&s[i], name, 0x100 + i, true);
		if (!check(!r, "tenants.server_start", "%s: %s", name, strerror(-r)))
			return 1;
	}
	start = now_ns();
	storm_at = start + (uint64_t)secs * 250000000ull;	/* first quarter quiet */
	end = start + (uint64_t)secs * 1000000000ull;
	for (i = 0; i < n; i++) {
		cl[i] = fork();
		if (cl[i] == 0) {
			if (i % 2 == 0)
				good_vmm(&s[i], &t[i], storm_at, end);
			else
				hostile_vmm(&s[i], &t[i], storm_at, end, 0x1234567ull * (i + 1));
		}
	}
	for (i = 0; i < n; i++) {
		int st;
		uint64_t dl = end + 60000000000ull;

		while (waitpid(cl[i], &st, WNOHANG) == 0) {
			if (now_ns() > dl) {
				kill(cl[i], SIGKILL);
				waitpid(cl[i], &st, 0);
				tfail(&t[i], "VMM still running 60 s after the end");
				break;
			}
			sleep_us(20000);
		}
		if (i % 2 == 0 && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
			tfail(&t[i], "well-behaved VMM exit status 0x%x", st);
	}
	printf("FIGURE tenants %u instances (%u well-behaved, %u hostile), %u s (quiet first %u s), 2 ms pacing\n",
	       n, (n + 1) / 2, n / 2, secs, secs / 4);
	qb = calloc((size_t)n * MAX_SAMPLES, 4);
	qr = calloc((size_t)n * MAX_SAMPLES, 4);
	sb = calloc((size_t)n * MAX_SAMPLES, 4);
	sr = calloc((size_t)n * MAX_SAMPLES, 4);
	for (i = 0; i < n; i += 2) {
		for (k = 0; k < t[i].n_quiet + t[i].n_storm && k < MAX_SAMPLES; k++) {
			if (k < t[i].n_quiet) {
				qb[nq] = t[i].bar0_us[k];
				qr[nq++] = t[i].rpc_us[k];
			} else {
				sb[ns] = t[i].bar0_us[k];
				sr[ns++] = t[i].rpc_us[k];
			}
		}
		snprintf(name, sizeof(name), "tenants.good%02u.answers", i);
		check(!t[i].failed && t[i].n_storm >= secs * 20, name,
		      "%s (%u round trips in the storm)", t[i].failed ? t[i].why : "too few",
		      t[i].n_storm);
	}
	figures("quiet BAR0 read round trip", qb, nq, &p50, &p99, &mx);
	figures("quiet GSP RPC round trip", qr, nq, &p50, &p99, &mx);
	figures("storm BAR0 read round trip", sb, ns, &p50, &p99, &mx);
	check(ns && p99 <= p99_ms * 1000ull, "tenants.bar0_p99_bounded",
	      "p99 %.3f ms > %u ms", p99 / 1e3, p99_ms);
	check(ns && mx <= max_ms * 1000ull, "tenants.bar0_max_bounded",
	      "max %.3f ms > %u ms", mx / 1e3, max_ms);
	figures("storm GSP RPC round trip", sr, ns, &p50, &p99, &mx);
	check(ns && p99 <= p99_ms * 1000ull, "tenants.rpc_p99_bounded",
	      "p99 %.3f ms > %u ms", p99 / 1e3, p99_ms);
	check(ns && mx <= max_ms * 1000ull, "tenants.rpc_max_bounded",
	      "max %.3f ms > %u ms", mx / 1e3, max_ms);
	free(qb);
	free(qr);
	free(sb);
	free(sr);

	/* counters: each instance's own, read once its VMM has gone */
	for (i = 0; i < n; i++) {
		char *b;
		uint64_t bad = 0, v;
		char list[512] = "";

		snprintf(name, sizeof(name), "tenants.%s%02u.server_alive",
			 i % 2 ? "hostile" : "good", i);
		check(srv_alive(&s[i]), name, "vgsp-vfu died (see %s)", s[i].err);
		b = slurp(s[i].stats);
		if (!b) {
			check(false, name, "no stats");
			continue;
		}
		for (k = 0; k < N_BAD; k++) {
			v = sv(b, bad_counters[k][0], bad_counters[k][1]);
			if (v && v != ~0ull) {
				bad += v;
				snprintf(list + strlen(list), sizeof(list) - strlen(list),
					 " %s=%llu", bad_counters[k][1], (unsigned long long)v);
			}
		}
		if (i % 2 == 0) {
			snprintf(name, sizeof(name), "tenants.good%02u.no_crosstalk", i);
			check(!bad && sv(b, "counters", "bar0_reads") == t[i].bar0_reads &&
			      sv(b, "counters", "bar0_writes") == t[i].bar0_writes &&
			      sv(b, "counters", "cfg_reads") == t[i].cfg_reads &&
			      sv(b, "counters", "cfg_writes") == t[i].cfg_writes &&
			      sv(b, "counters", "opens") == 1 && sv(b, "counters", "closes") == 1,
			      name, "bad-input counters:%s; bar0 reads %llu/%llu writes %llu/%llu, cfg reads %llu/%llu writes %llu/%llu (server/VMM), opens %llu",
			      bad ? list : " none",
			      (unsigned long long)sv(b, "counters", "bar0_reads"),
			      (unsigned long long)t[i].bar0_reads,
			      (unsigned long long)sv(b, "counters", "bar0_writes"),
			      (unsigned long long)t[i].bar0_writes,
			      (unsigned long long)sv(b, "counters", "cfg_reads"),
			      (unsigned long long)t[i].cfg_reads,
			      (unsigned long long)sv(b, "counters", "cfg_writes"),
			      (unsigned long long)t[i].cfg_writes,
			      (unsigned long long)sv(b, "counters", "opens"));
		} else {
			snprintf(name, sizeof(name), "tenants.hostile%02u.bad_input_counted", i);
			check(bad > 0 && !t[i].failed, name, "%s", t[i].failed ? t[i].why :
			      "no bad-input counter moved");
			printf("FIGURE tenants hostile%02u: %llu actions, %llu doorbell storms (x%u), %llu bad messages, %llu reconnects, %llu timeouts, %llu gsp doorbells;%s\n",
			       i, (unsigned long long)t[i].actions,
			       (unsigned long long)t[i].storms, VFU_MULTI_MAX,
			       (unsigned long long)t[i].bad_msgs,
			       (unsigned long long)t[i].reconnects,
			       (unsigned long long)t[i].timeouts,
			       (unsigned long long)sv(b, "gsp_state", "doorbells"), list);
		}
		free(b);
	}
	for (i = 0; i < n; i++) {
		r = srv_stop(&s[i]);
		snprintf(name, sizeof(name), "tenants.%02u.server_exit", i);
		if (r < 0 || !WIFEXITED(r) || WEXITSTATUS(r) != 0)
			check(false, name, "vgsp-vfu did not exit 0 on SIGTERM (status 0x%x, see %s)",
			      r, s[i].err);
	}
	check(true, "tenants.servers_exit", "%s", "");
	return n_fail ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "vfu", required_argument, NULL, 'v' },
		{ "dir", required_argument, NULL, 'd' },
		{ "iters", required_argument, NULL, 'i' },
		{ "seed", required_argument, NULL, 's' },
		{ "rss-kib", required_argument, NULL, 'r' },
		{ "n", required_argument, NULL, 'n' },
		{ "secs", required_argument, NULL, 't' },
		{ "p99-ms", required_argument, NULL, 'p' },
		{ "max-ms", required_argument, NULL, 'm' },
		{ 0 },
	};
	const char *mode = argc > 1 ? argv[1] : "";
	unsigned int iters = 20, rss_kib = 4096, n = 16, secs = 12, p99_ms = 250, max_ms = 3000;
	uint64_t seed = 0;
	int c, ret;

	optind = 2;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'v': vfu_bin = optarg; break;
		case 'd': work_dir = optarg; break;
		case 'i': iters = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'r': rss_kib = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'n': n = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 't': secs = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'p': p99_ms = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'm': max_ms = (unsigned int)strtoul(optarg, NULL, 0); break;
		default: return 2;
		}
	}
	if (!vfu_bin || !work_dir || (strcmp(mode, "kill") && strcmp(mode, "tenants"))) {
		fprintf(stderr, "usage: %s kill|tenants --vfu BIN --dir DIR [options] (see the source header)\n",
			argv[0]);
		return 2;
	}
	if (!seed)
		seed = (uint64_t)time(NULL);
	rng_state = seed | 1;
	printf("seed %llu\n", (unsigned long long)seed);
	signal(SIGPIPE, SIG_IGN);
	mkdir(work_dir, 0755);
	if (!strcmp(mode, "kill"))
		ret = do_kill(iters, rss_kib);
	else
		ret = do_tenants(n, secs, p99_ms, max_ms);
	printf("%u passed, %u failed\n", n_pass, n_fail);
	return ret;
}
