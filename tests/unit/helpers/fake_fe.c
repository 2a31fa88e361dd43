// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Shared unit-test helpers (see fake_fe.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_fe.h"
#include "device.h"

/* Out-of-window or wrapping IOVAs fail like an unmapped guest page. */
static int fe_range(struct fake_fe *fe, u64 iova, size_t len)
{
	if (iova < fe->base || len > fe->size || iova - fe->base > fe->size - len)
		return -EFAULT;
	return 0;
}

static int fe_dma_read(void *opaque, u64 iova, void *buf, size_t len)
{
	struct fake_fe *fe = opaque;
	int ret;

	fe->dma_reads++;
	if (fe->dma_err)
		return fe->dma_err;
	ret = fe_range(fe, iova, len);
	if (!ret)
		memcpy(buf, fe->mem + (iova - fe->base), len);
	return ret;
}

static int fe_dma_write(void *opaque, u64 iova, const void *buf, size_t len)
{
	struct fake_fe *fe = opaque;
	int ret;

	fe->dma_writes++;
	if (fe->dma_err)
		return fe->dma_err;
	ret = fe_range(fe, iova, len);
	if (!ret)
		memcpy(fe->mem + (iova - fe->base), buf, len);
	return ret;
}

static bool fe_irq_signal(void *opaque, unsigned int vector)
{
	struct fake_fe *fe = opaque;

	if (fe->nirqs < FAKE_FE_IRQ_LOG)
		fe->irq_vec[fe->nirqs] = vector;
	fe->nirqs++;
	return fe->irq_ret;
}

const struct vgsp_fe_ops fake_fe_ops = {
	.dma_read = fe_dma_read,
	.dma_write = fe_dma_write,
	.irq_signal = fe_irq_signal,
};

void fake_fe_init(struct fake_fe *fe, u64 base, size_t size)
{
	memset(fe, 0, sizeof(*fe));
	fe->base = base;
	fe->size = size;
	fe->mem = calloc(1, size ? size : 1);
	assert_non_null(fe->mem);
	fe->irq_ret = true;
}

void fake_fe_fini(struct fake_fe *fe)
{
	free(fe->mem);
	fe->mem = NULL;
}

static void sp_print(struct vgsp_printer *p, const char *fmt, ...)
{
	struct str_printer *sp = (struct str_printer *)p;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	assert_true(n >= 0);
	if (sp->len + (size_t)n + 1 > sp->cap) {
		sp->cap = (sp->len + (size_t)n + 1) * 2;
		sp->buf = realloc(sp->buf, sp->cap);
		assert_non_null(sp->buf);
	}
	va_start(ap, fmt);
	vsnprintf(sp->buf + sp->len, sp->cap - sp->len, fmt, ap);
	va_end(ap);
	sp->len += (size_t)n;
}

void str_printer_init(struct str_printer *sp)
{
	memset(sp, 0, sizeof(*sp));
	sp->p.print = sp_print;
	sp->p.ctx = sp;
	sp->cap = 256;
	sp->buf = calloc(1, sp->cap);
	assert_non_null(sp->buf);
}

void str_printer_fini(struct str_printer *sp)
{
	free(sp->buf);
	sp->buf = NULL;
}

void show_core_view(struct vgsp_dev *dev, const char *name,
		    struct str_printer *sp)
{
	unsigned int i;

	for (i = 0; i < vgsp_core_nviews; i++) {
		if (!strcmp(vgsp_core_views[i].name, name)) {
			vgsp_core_views[i].show(dev, &sp->p);
			return;
		}
	}
	fail_msg("no core view named %s", name);
}

void fake_bus_master(struct vgsp_dev *dev)
{
	u8 cmd[2];

	assert_int_equal(vgsp_dev_cfg_read(dev, 4, cmd, 2), 0);
	cmd[0] |= 0x06;
	assert_int_equal(vgsp_dev_cfg_write(dev, 4, cmd, 2), 0);
}
