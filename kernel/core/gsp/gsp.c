// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Emulated GSP of one instance: lifecycle, the dispatch worker and the
 * boot step that finds the message queues through the boot arguments.
 *
 * BAR0 handlers (doorbell, FSP boot command) only record what happened
 * and wake the worker; the worker does every guest-memory access with the
 * device lock held, so a guest that never rings costs no CPU at all.
 */
#include "gsp_priv.h"
#include "../fifo/fifo.h"
#include "../rm/rm.h"

static const struct vgsp_abi *abi_for(const struct vgsp_dev *dev)
{
	/*
	 * Until the guest names its driver (SET_GUEST_SYSTEM_INFO, the same
	 * layout in every branch abi/ carries), which then picks the ABI.
	 */
	return &vgsp_abi_default;
}

u32 vgsp_gsp_reg(struct vgsp_gsp *gsp, u32 off)
{
	return vgsp_reg_peek(&gsp->dev->regs, off);
}

void vgsp_gsp_reg_set(struct vgsp_gsp *gsp, u32 off, u32 val)
{
	vgsp_reg_poke(&gsp->dev->regs, off, val);
}

/*
 * Boot-argument chain (§C.1). GH100 FSP path: COT -> GSP_FMC_BOOT_PARAMS
 * -> libos args; SEC2 path: libos args from the mailboxes. Then "RMARGS"
 * in the libos array -> rmargs -> shared region. Every pointer comes from the guest and is only used
 * through the frontend's bounds-checked DMA.
 */
static int find_queues(struct vgsp_gsp *gsp)
{
	struct vgsp_dev *dev = gsp->dev;
	u8 fmc[VGSP_FMC_SIZE], arg[VGSP_LIBOS_ARG_SIZE], rm[VGSP_RMARGS_SIZE];
	u64 libos = gsp->boot_args_pa, rmargs = 0;
	unsigned int i;
	int ret;

	if (gsp->boot_args == VGSP_BOOT_ARGS_FMC) {
		ret = vgsp_dev_dma_read(dev, gsp->boot_args_pa, fmc,
					sizeof(fmc));
		if (ret)
			return ret;
		libos = vgsp_get64(fmc, VGSP_FMC_BOOT_ARGS);
	}
	for (i = 0; i < VGSP_LIBOS_ARGS_MAX; i++) {
		ret = vgsp_dev_dma_read(dev, libos + i * VGSP_LIBOS_ARG_SIZE,
					arg, sizeof(arg));
		if (ret)
			return ret;
		if (vgsp_get64(arg, VGSP_LIBOS_ARG_ID8) == VGSP_ID8_RMARGS) {
			rmargs = vgsp_get64(arg, VGSP_LIBOS_ARG_PA);
			break;
		}
		if (!vgsp_get64(arg, VGSP_LIBOS_ARG_ID8))
			break;		/* end of the array */
	}
	if (!rmargs)
		return -ENOENT;
	ret = vgsp_dev_dma_read(dev, rmargs, rm, sizeof(rm));
	if (ret)
		return ret;
	return vgsp_msgq_link(gsp, vgsp_get64(rm, VGSP_RMARGS_SHM_PA),
			      vgsp_get32(rm, VGSP_RMARGS_PTE_COUNT),
			      vgsp_get64(rm, VGSP_RMARGS_CMDQ_OFF),
			      vgsp_get64(rm, VGSP_RMARGS_STATQ_OFF));
}

/* Worker: queues linked, status header written; now INIT_DONE. */
static void gsp_start(struct vgsp_gsp *gsp)
{
	int ret = find_queues(gsp);
	u32 len;

	if (ret) {
		gsp->boot = VGSP_BOOT_FAILED;
		gsp->st.e.boot_errors++;
		vgsp_dev_log(gsp->dev, VGSP_LOG_WARN,
			     "vgsp: %s: GSP boot arguments unusable (%d)\n",
			  gsp->dev->name, ret);
		return;
	}
	gsp->boot = VGSP_BOOT_RUNNING;
	gsp->st.e.boots++;
	/* The two pre-start RPCs (72, 73) are consumed without replies. */
	vgsp_msgq_process(gsp, 0);
	len = gsp->abi->init_done(gsp, gsp->tx + VGSP_ELEM_HDR,
				  VGSP_MSG_MAX - VGSP_ELEM_HDR);
	if (vgsp_msgq_send(gsp, gsp->tx, len))
		gsp->st.e.shm_errors++;
}

static void gsp_work(void *arg)
{
	struct vgsp_gsp *gsp = arg;
	struct vgsp_dev *dev = gsp->dev;

	vgsp_dev_lock(dev);
	gsp->st.e.worker_runs++;
	if (gsp->start_pending) {
		gsp->start_pending = false;
		gsp->doorbell_pending = false;
		if (gsp->boot == VGSP_BOOT_STARTING)
			gsp_start(gsp);
	}
	if (gsp->doorbell_pending && gsp->boot == VGSP_BOOT_RUNNING) {
		u64 t = gsp->doorbell_ns, sent = gsp->st.e.msgs_tx;

		gsp->doorbell_pending = false;
		gsp->q.tx_blocked = false;
		/* Bounded batches: more work re-queues the worker. */
		if (vgsp_msgq_process(gsp, t)) {
			gsp->doorbell_pending = true;
			if (!gsp->q.tx_blocked) {
				gsp->backoff_ns = 0;
				vgsp_os->worker_wake(gsp->worker);
			} else {
				/*
				 * Status queue full: the guest drains it
				 * without ringing, so poll, slower and
				 * slower while nothing moves (a doorbell
				 * still runs us at once).
				 */
				if (gsp->st.e.msgs_tx != sent ||
				    !gsp->backoff_ns)
					gsp->backoff_ns = VGSP_BACKOFF_MIN_NS;
				else if (gsp->backoff_ns < VGSP_BACKOFF_MAX_NS)
					gsp->backoff_ns *= 2;
				gsp->st.e.backoffs++;
				vgsp_worker_wake_after(gsp->worker,
						       gsp->backoff_ns);
			}
		}
	}
	vgsp_dev_unlock(dev);
}

int vgsp_gsp_rc_post(struct vgsp_dev *dev, const struct vgsp_rc_event *rc,
		     u8 *parts)
{
	struct vgsp_gsp *gsp = dev->gsp;
	u8 *m;

	if (!gsp || gsp->boot != VGSP_BOOT_RUNNING)
		return -ENODEV;
	m = gsp->tx + VGSP_ELEM_HDR;
	while (*parts & VGSP_RC_PARTS) {
		u8 part = *parts & VGSP_RC_PART_XID ? VGSP_RC_PART_XID :
						      VGSP_RC_PART_NOTIFY;
		u32 cap = VGSP_MSG_MAX - VGSP_ELEM_HDR, len;
		int ret;

		len = part == VGSP_RC_PART_XID ?
		      gsp->abi->xid_event(gsp, rc, m, cap) :
		      gsp->abi->rc_event(gsp, rc, m, cap);
		ret = vgsp_msgq_send(gsp, gsp->tx, len);
		if (ret == -ENOSPC)
			return -EAGAIN;		/* counted: statq_full */
		if (ret)
			return ret;
		*parts &= ~part;
		gsp->st.e.rc_events++;
	}
	return 0;
}

unsigned int vgsp_rpc_inline_us = VGSP_RPC_INLINE_US_DEFAULT;

/* The boot ucode accepted the boot (lock held): start in the worker. */
void vgsp_gsp_boot_accepted(struct vgsp_gsp *gsp, enum vgsp_boot_args kind,
			    u64 pa)
{
	if (gsp->boot != VGSP_BOOT_OFF)
		return;
	gsp->boot_args = kind;
	gsp->boot_args_pa = pa;
	gsp->boot = VGSP_BOOT_STARTING;
	gsp->start_pending = true;
	vgsp_os->worker_wake(gsp->worker);
}

/* Firmware state only: what a GSP core reset loses. */
static void gsp_firmware_reset(struct vgsp_gsp *gsp)
{
	gsp->boot = VGSP_BOOT_OFF;
	gsp->boot_args_pa = 0;
	gsp->start_pending = false;
	gsp->doorbell_pending = false;
	gsp->doorbell_ns = 0;
	gsp->backoff_ns = 0;
	memset(&gsp->q, 0, sizeof(gsp->q));
	/* the falcon's reset clears its interrupt state (SWGEN0's edge) */
	vgsp_gsp_reg_set(gsp, VGSP_GSP_FALCON_BASE + VGSP_FLCN_IRQSTAT, 0);
	gsp->version_ok = false;	/* a rebooted GSP needs a new handshake */
	gsp->guest_version[0] = '\0';
	gsp->abi = abi_for(gsp->dev);	/* and names its driver again */
	vgsp_bar_unbind(gsp->dev);	/* GSP-RM's BAR bindings are gone */
	/* and so are its channels and VA spaces */
	vgsp_fifo_reset(gsp->dev);
	vgsp_rm_reset(gsp->dev);
	gsp->abi->reset(gsp);
}

/*
 * The driver reset the GSP core (teardown, or a retry after a failed
 * init): the firmware and its queues are gone until the next FSP boot.
 * Nothing of the old shared region is touched again, since the guest may
 * already have freed it.
 */
void vgsp_gsp_stop(struct vgsp_gsp *gsp)
{
	if (gsp->boot == VGSP_BOOT_OFF)
		return;
	gsp->st.e.stops++;
	gsp_firmware_reset(gsp);
}

static void gsp_state_reset(struct vgsp_gsp *gsp)
{
	gsp_firmware_reset(gsp);
	gsp->refused = false;	/* only a device reset lifts a refusal */
	vgsp_fsp_reset(gsp);
	vgsp_intr_reset(gsp);
}

int vgsp_gsp_create(struct vgsp_dev *dev)
{
	struct vgsp_gsp *gsp;

	gsp = vgsp_zalloc(sizeof(*gsp));
	if (!gsp)
		return -ENOMEM;
	gsp->dev = dev;
	gsp->abi = abi_for(dev);
	gsp->chip = vgsp_gsp_chip_find(dev->profile->chip);
	gsp->rx = vgsp_zalloc(VGSP_MSG_MAX);
	gsp->tx = vgsp_zalloc(VGSP_MSG_MAX);
	gsp->big_req = vgsp_zalloc(VGSP_LARGE_MAX);
	gsp->big_rep = vgsp_zalloc(VGSP_LARGE_MAX);
	if (!gsp->chip || !gsp->rx || !gsp->tx || !gsp->big_req ||
	    !gsp->big_rep || vgsp_obj_init(&gsp->objs))
		goto err;
	dev->gsp = gsp;
	vgsp_intr_init(gsp);
	gsp_state_reset(gsp);
	gsp->worker = vgsp_os->worker_start("vgsp-gsp", gsp_work, gsp);
	if (!gsp->worker)
		goto err;
	return 0;
err:
	dev->gsp = NULL;
	vgsp_obj_fini(&gsp->objs);
	vgsp_free(gsp->rx);
	vgsp_free(gsp->tx);
	vgsp_free(gsp->big_req);
	vgsp_free(gsp->big_rep);
	vgsp_free(gsp);
	return -ENOMEM;
}

void vgsp_gsp_reset(struct vgsp_dev *dev)
{
	struct vgsp_gsp *gsp = dev->gsp;

	if (!gsp)
		return;
	gsp_state_reset(gsp);
	gsp->st.e.resets++;
}

void vgsp_gsp_destroy(struct vgsp_dev *dev)
{
	struct vgsp_gsp *gsp = dev->gsp;

	if (!gsp)
		return;
	vgsp_os->worker_stop(gsp->worker);
	dev->gsp = NULL;
	vgsp_obj_fini(&gsp->objs);
	vgsp_free(gsp->rx);
	vgsp_free(gsp->tx);
	vgsp_free(gsp->big_req);
	vgsp_free(gsp->big_rep);
	vgsp_free(gsp);
}

const struct vgsp_gsp_chip *vgsp_gsp_chip_find(const struct vgsp_chip *c)
{
	if (c == &vgsp_chip_gh100)
		return &vgsp_gsp_chip_gh100;
	return NULL;
}

unsigned int vgsp_gsp_reg_tables(const struct vgsp_chip *chip,
				 const struct vgsp_reg_table **tables)
{
	const struct vgsp_gsp_chip *gc = vgsp_gsp_chip_find(chip);

	if (!gc) {
		*tables = NULL;
		return 0;
	}
	*tables = gc->tables;
	return gc->ntables;
}
