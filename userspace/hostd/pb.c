/* SPDX-License-Identifier: MIT */
/* pb.c - pushbuffer encoder/decoder for Hopper channels (see pb.h). */
#include "pb.h"

void pb_init(struct pb *p, uint32_t *buf, size_t cap_dwords)
{
	p->buf = buf;
	p->cap = cap_dwords;
	p->len = 0;
	p->overflow = 0;
}

uint32_t pb_hdr(unsigned secop, unsigned subch, uint32_t mthd, unsigned count)
{
	return ((uint32_t)(secop & 7u) << 29) | ((uint32_t)(count & PB_MAX_COUNT) << 16) |
	       ((uint32_t)(subch & 7u) << 13) | ((mthd >> 2) & 0xfffu);
}

/* Reserve n dwords; on failure mark the buffer overflowed so a caller that
 * ignores one return value still cannot submit a truncated stream. */
static uint32_t *pb_reserve(struct pb *p, size_t n)
{
	if (p->overflow || n > p->cap - p->len) {
		p->overflow = 1;
		return NULL;
	}
	uint32_t *w = p->buf + p->len;
	p->len += n;
	return w;
}

static int mthd_ok(unsigned subch, uint32_t mthd)
{
	return subch < 8 && (mthd & 3u) == 0 && mthd <= 0x3ffcu;
}

int pb_inc(struct pb *p, unsigned subch, uint32_t mthd, const uint32_t *data, unsigned n)
{
	if (!mthd_ok(subch, mthd) || n == 0 || n > PB_MAX_COUNT) {
		p->overflow = 1;
		return -1;
	}
	uint32_t *w = pb_reserve(p, 1 + (size_t)n);
	if (!w)
		return -1;
	w[0] = pb_hdr(PB_SECOP_INC, subch, mthd, n);
	for (unsigned i = 0; i < n; i++)
		w[1 + i] = data[i];
	return 0;
}

int pb_imm(struct pb *p, unsigned subch, uint32_t mthd, uint32_t data13)
{
	if (!mthd_ok(subch, mthd) || data13 > PB_MAX_IMMD) {
		p->overflow = 1;
		return -1;
	}
	uint32_t *w = pb_reserve(p, 1);
	if (!w)
		return -1;
	w[0] = pb_hdr(PB_SECOP_IMMD, subch, mthd, data13);
	return 0;
}

int pb_mthd1(struct pb *p, unsigned subch, uint32_t mthd, uint32_t v)
{
	return pb_inc(p, subch, mthd, &v, 1);
}

int pb_mthd2(struct pb *p, unsigned subch, uint32_t mthd, uint32_t a, uint32_t b)
{
	uint32_t d[2] = { a, b };
	return pb_inc(p, subch, mthd, d, 2);
}

int pb_set_object(struct pb *p, unsigned subch, uint32_t cls)
{
	/* SET_OBJECT: CLASS_ID 15:0, ENGINE_ID 20:16 (0) */
	return pb_mthd1(p, subch, 0x0000u, cls & 0xffffu);
}

static uint32_t hi32(uint64_t v) { return (uint32_t)(v >> 32); }
static uint32_t lo32(uint64_t v) { return (uint32_t)v; }

int pb_ce_copy(struct pb *p, uint64_t src, uint64_t dst, uint32_t len,
	       uint64_t sem_va, uint32_t payload)
{
	uint32_t off[4] = { hi32(src), lo32(src), hi32(dst), lo32(dst) };
	uint32_t launch = C8B5_LD_XFER_NON_PIPELINED | C8B5_LD_FLUSH_ENABLE |
			  C8B5_LD_SRC_PITCH | C8B5_LD_DST_PITCH;
	int r = 0;

	if (len == 0)
		return -1;
	r |= pb_inc(p, PB_SUBCH_COPY, C8B5_OFFSET_IN_UPPER, off, 4);
	r |= pb_mthd2(p, PB_SUBCH_COPY, C8B5_LINE_LENGTH_IN, len, 1);
	if (sem_va) {
		uint32_t s[3] = { hi32(sem_va), lo32(sem_va), payload };
		r |= pb_inc(p, PB_SUBCH_COPY, C8B5_SET_SEMAPHORE_A, s, 3);
		launch |= C8B5_LD_SEM_RELEASE_ONE_WORD;
	}
	r |= pb_mthd1(p, PB_SUBCH_COPY, C8B5_LAUNCH_DMA, launch);
	return r ? -1 : 0;
}

int pb_ce_sem_release(struct pb *p, uint64_t sem_va, uint32_t payload)
{
	uint32_t s[3] = { hi32(sem_va), lo32(sem_va), payload };
	int r = pb_inc(p, PB_SUBCH_COPY, C8B5_SET_SEMAPHORE_A, s, 3);
	r |= pb_mthd1(p, PB_SUBCH_COPY, C8B5_LAUNCH_DMA,
		      C8B5_LD_XFER_NONE | C8B5_LD_FLUSH_ENABLE | C8B5_LD_SEM_RELEASE_ONE_WORD);
	return r ? -1 : 0;
}

static int host_sem(struct pb *p, uint64_t sem_va, uint32_t payload, uint32_t exec)
{
	/* SEM_ADDR_LO..SEM_EXECUTE are five consecutive host methods; host
	 * methods are valid on any subchannel, 0 by convention. */
	uint32_t d[5] = { lo32(sem_va) & ~3u, hi32(sem_va) & 0x1ffffffu, payload, 0, exec };
	if (sem_va & 3u) {
		p->overflow = 1;
		return -1;
	}
	return pb_inc(p, 0, C86F_SEM_ADDR_LO, d, 5);
}

int pb_host_sem_release(struct pb *p, uint64_t sem_va, uint32_t payload)
{
	return host_sem(p, sem_va, payload,
			C86F_SEM_EXECUTE_RELEASE | C86F_SEM_EXECUTE_RELEASE_WFI);
}

int pb_host_sem_acquire_geq(struct pb *p, uint64_t sem_va, uint32_t payload)
{
	return host_sem(p, sem_va, payload, C86F_SEM_EXECUTE_ACQ_GEQ);
}

int pb_compute_windows(struct pb *p, uint64_t shared_window, uint64_t local_window)
{
	int r = pb_mthd2(p, PB_SUBCH_COMPUTE, CBC0_SET_SHADER_SHARED_MEMORY_WINDOW_A,
			 hi32(shared_window), lo32(shared_window));
	r |= pb_mthd2(p, PB_SUBCH_COMPUTE, CBC0_SET_SHADER_LOCAL_MEMORY_WINDOW_A,
		      hi32(local_window), lo32(local_window));
	return r ? -1 : 0;
}

int pb_compute_launch_v(struct pb *p, uint64_t qmd_va, unsigned variant)
{
	if ((qmd_va & 0xffu) || variant > 2) {
		p->overflow = 1;
		return -1;
	}
	int r = pb_mthd1(p, PB_SUBCH_COMPUTE, CBC0_SEND_PCAS_A, (uint32_t)(qmd_va >> 8));
	if (variant == 2)
		r |= pb_mthd1(p, PB_SUBCH_COMPUTE, CBC0_SEND_SIGNALING_PCAS_B, 3u);
	else
		r |= pb_mthd1(p, PB_SUBCH_COMPUTE, CBC0_SEND_SIGNALING_PCAS2_B,
			      variant ? CBC0_PCAS_ACTION_PREFETCH_SCHEDULE
				      : CBC0_PCAS_ACTION_INVALIDATE_COPY_SCHEDULE);
	return r ? -1 : 0;
}

int pb_compute_launch(struct pb *p, uint64_t qmd_va)
{
	return pb_compute_launch_v(p, qmd_va, 0);
}

int pb_compute_local_memory(struct pb *p, uint64_t va, uint64_t bytes_per_tpc)
{
	uint32_t nt[3] = { hi32(bytes_per_tpc), lo32(bytes_per_tpc), 0xffu };
	int r = pb_mthd2(p, PB_SUBCH_COMPUTE, CBC0_SET_SHADER_LOCAL_MEMORY_A, hi32(va), lo32(va));
	r |= pb_inc(p, PB_SUBCH_COMPUTE, CBC0_SET_SHADER_LOCAL_MEMORY_NON_THROTTLED_A, nt, 3);
	return r ? -1 : 0;
}

uint64_t pb_gpfifo_entry(uint64_t pb_va, uint32_t ndwords)
{
	uint32_t d0 = lo32(pb_va) & ~3u;                       /* GET 31:2, FETCH 0 */
	uint32_t d1 = (hi32(pb_va) & 0xffu) |                  /* GET_HI 7:0 */
		      ((ndwords & 0x1fffffu) << 10);           /* LENGTH 30:10 */
	return ((uint64_t)d1 << 32) | d0;
}

int pb_decode(const uint32_t *seg, size_t ndwords, pb_method_fn fn, void *ctx)
{
	size_t i = 0;
	while (i < ndwords) {
		uint32_t h = seg[i++];
		unsigned secop = h >> 29;
		unsigned count = (h >> 16) & PB_MAX_COUNT;
		struct pb_method m = { (h >> 13) & 7u, (h & 0xfffu) << 2, 0 };
		int r;

		if (h == 0)
			continue; /* NOP */
		switch (secop) {
		case PB_SECOP_END:
			return 0;
		case PB_SECOP_IMMD:
			m.data = count;
			if ((r = fn(ctx, &m)) != 0)
				return r;
			break;
		case PB_SECOP_INC:
		case PB_SECOP_NINC:
		case PB_SECOP_ONEINC:
			if (count > ndwords - i)
				return -1;
			for (unsigned k = 0; k < count; k++) {
				uint32_t step = secop == PB_SECOP_INC ? k :
						secop == PB_SECOP_ONEINC ? (k ? 1u : 0u) : 0u;
				uint32_t base = (h & 0xfffu) << 2;
				if (base + step * 4u > 0x3ffcu)
					return -1;
				m.mthd = base + step * 4u;
				m.data = seg[i + k];
				if ((r = fn(ctx, &m)) != 0)
					return r;
			}
			i += count;
			break;
		default:
			/* grp0/grp2 tertiary ops (sub-device masks) and
			 * reserved encodings: refuse, fail closed. */
			return -1;
		}
	}
	return 0;
}
