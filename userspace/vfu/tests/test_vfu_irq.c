// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Interrupt triggers: eventfd assignment, delivery, INTx auto-mask. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <cmocka.h>
#include "irq.h"

static struct vfu_irqs q;

static uint64_t drain(int fd)
{
	uint64_t v = 0;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

static int efd(void)
{
	int fd = eventfd(0, EFD_NONBLOCK);

	assert_true(fd >= 0);
	return fd;
}

static int set(unsigned int index, unsigned int start, unsigned int count,
	       uint32_t flags, const uint8_t *bools, int *fds, unsigned int nfds)
{
	struct vfu_irq_set s = { .argsz = 20, .flags = flags, .index = index,
				 .start = start, .count = count };

	return vfu_irqs_set(&q, &s, bools, fds, nfds);
}

#define EVT (VFU_IRQ_SET_DATA_EVENTFD | VFU_IRQ_SET_ACTION_TRIGGER)
#define NONE_TRIG (VFU_IRQ_SET_DATA_NONE | VFU_IRQ_SET_ACTION_TRIGGER)

static void test_msix(void **st)
{
	int a = efd(), b = efd();
	int fds[2] = { dup(a), dup(b) };

	vfu_irqs_init(&q, 8);
	assert_false(vfu_irqs_signal(&q, 0));		/* nothing set yet */
	assert_string_equal(vfu_irqs_mode(&q), "none");
	assert_int_equal(set(VFU_IRQ_MSIX, 2, 2, EVT, NULL, fds, 2), 0);
	assert_string_equal(vfu_irqs_mode(&q), "msix");
	assert_true(vfu_irqs_signal(&q, 2));
	assert_true(vfu_irqs_signal(&q, 3));
	assert_true(vfu_irqs_signal(&q, 3));
	assert_false(vfu_irqs_signal(&q, 4));		/* no fd for vector 4 */
	assert_false(vfu_irqs_signal(&q, 99));		/* out of range */
	assert_int_equal(drain(a), 1);
	assert_int_equal(drain(b), 2);
	/* out-of-range start/count refused */
	assert_int_equal(set(VFU_IRQ_MSIX, 7, 2, NONE_TRIG, NULL, NULL, 0), -EINVAL);
	/* client-side trigger with DATA_NONE */
	assert_int_equal(set(VFU_IRQ_MSIX, 2, 1, NONE_TRIG, NULL, NULL, 0), 0);
	assert_int_equal(drain(a), 1);
	/* de-assign vector 2 (eventfd flag, no fds), then disable the index */
	assert_int_equal(set(VFU_IRQ_MSIX, 2, 1, EVT, NULL, NULL, 0), 0);
	assert_false(vfu_irqs_signal(&q, 2));
	assert_int_equal(set(VFU_IRQ_MSIX, 0, 0, NONE_TRIG, NULL, NULL, 0), 0);
	assert_string_equal(vfu_irqs_mode(&q), "none");
	assert_int_equal(q.signalled, 3);
	close(a);
	close(b);
}

static void test_intx_automask(void **st)
{
	int a = efd();
	int fds[1] = { dup(a) };
	uint8_t yes = 1;

	vfu_irqs_init(&q, 8);
	assert_int_equal(set(VFU_IRQ_INTX, 0, 1, EVT, NULL, fds, 1), 0);
	assert_true(vfu_irqs_signal(&q, 0));
	assert_false(vfu_irqs_signal(&q, 0));	/* auto-masked: pending */
	assert_int_equal(drain(a), 1);
	assert_int_equal(set(VFU_IRQ_INTX, 0, 1,
			     VFU_IRQ_SET_DATA_NONE | VFU_IRQ_SET_ACTION_UNMASK, NULL, NULL, 0), 0);
	assert_int_equal(drain(a), 1);		/* pending fired on unmask */
	assert_int_equal(set(VFU_IRQ_INTX, 0, 1,
			     VFU_IRQ_SET_DATA_BOOL | VFU_IRQ_SET_ACTION_UNMASK, &yes, NULL, 0), 0);
	assert_true(vfu_irqs_signal(&q, 0));
	assert_int_equal(drain(a), 1);
	/* MSI masking via SET_IRQS is not offered */
	assert_int_equal(set(VFU_IRQ_MSI, 0, 1,
			     VFU_IRQ_SET_DATA_NONE | VFU_IRQ_SET_ACTION_MASK, NULL, NULL, 0), -EINVAL);
	/* bad index closes the fds it was given */
	fds[0] = dup(a);
	assert_int_equal(set(9, 0, 1, EVT, NULL, fds, 1), -EINVAL);
	vfu_irqs_close_all(&q);
	assert_false(vfu_irqs_signal(&q, 0));
	close(a);
}

static void test_msi_over_intx(void **st)
{
	int a = efd(), b = efd();
	int f1[1] = { dup(a) }, f2[1] = { dup(b) };

	vfu_irqs_init(&q, 4);
	assert_int_equal(set(VFU_IRQ_INTX, 0, 1, EVT, NULL, f1, 1), 0);
	assert_int_equal(set(VFU_IRQ_MSI, 0, 1, EVT, NULL, f2, 1), 0);
	assert_string_equal(vfu_irqs_mode(&q), "msi");
	assert_true(vfu_irqs_signal(&q, 0));
	assert_false(vfu_irqs_signal(&q, 1));	/* MSI has one vector */
	assert_int_equal(drain(b), 1);
	assert_int_equal(drain(a), 0);
	assert_int_equal(vfu_irq_info_flags(VFU_IRQ_ERR), 0);
	assert_int_equal(q.count[VFU_IRQ_MSIX], 4);
	vfu_irqs_close_all(&q);
	close(a);
	close(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_msix),
		cmocka_unit_test(test_intx_automask),
		cmocka_unit_test(test_msi_over_intx),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
