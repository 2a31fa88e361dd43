// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * RPC dispatch of the r535 ABI: one handler per function number. Each
 * handler validates the payload against the bytes actually received,
 * builds the reply (request header and payload echoed, results filled in)
 * and reports its outcome for the statistics.
 */
#include "r535.h"

struct r535_call {
	struct vgsp_gsp *gsp;
	const u8 *req;		/* RPC header + payload */
	u32 avail;		/* payload bytes received (may exceed length) */
	u8 *rep;
	u32 cap;
	struct vgsp_rpc_outcome *out;
};

static __always_inline u32 header(u8 *rep, u32 function, u32 len,
				  u32 result)
{
	memset(rep, 0, R535_RPC_HDR_SIZE);
	vgsp_put32(rep, R535_RPC_VERSION, R535_RPC_HDR_VERSION);
	vgsp_put32(rep, R535_RPC_SIGNATURE_OFF, R535_RPC_SIGNATURE);
	vgsp_put32(rep, R535_RPC_LENGTH, len);
	vgsp_put32(rep, R535_RPC_FUNCTION, function);
	vgsp_put32(rep, R535_RPC_RESULT, result);
	vgsp_put32(rep, R535_RPC_RESULT_PRIV, 0);
	return len;
}

/* Reply of @plen payload bytes, starting as a copy of the request's. */
static __always_inline u8 *echo(struct r535_call *c, u32 plen)
{
	u32 n = plen < c->avail ? plen : c->avail;

	vgsp_copy(c->rep + R535_RPC_HDR_SIZE, c->req + R535_RPC_HDR_SIZE, n);
	if (plen > n)
		memset(c->rep + R535_RPC_HDR_SIZE + n, 0, plen - n);
	return c->rep + R535_RPC_HDR_SIZE;
}

static u32 reply(struct r535_call *c, u32 plen, u32 result)
{
	c->out->status = result;
	if (result)
		c->out->error = true;
	return header(c->rep, c->out->function, R535_RPC_HDR_SIZE + plen,
		      result);
}

/* Header-only error reply. */
static u32 fail(struct r535_call *c, u32 status)
{
	return reply(c, 0, status);
}

static void copy_version(char *dst, unsigned int size, const u8 *src,
			 unsigned int max)
{
	unsigned int i;

	for (i = 0; i + 1 < size && i < max && src[i]; i++)
		dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? src[i] : '?';
	dst[i] = '\0';
}

/*
 * The guest names its driver; the GSP speaks that driver's ABI from here
 * on (gsp->abi, until the GSP is reset), or refuses it. The payload is
 * rpc_set_guest_system_info_v03_00 in every branch abi/ carries, so the
 * ABI the GSP started with can read it whatever the guest is.
 */
static u32 set_guest_system_info(struct r535_call *c)
{
	struct vgsp_gsp *gsp = c->gsp;
	const struct vgsp_abi *abi;
	char known[64];
	u32 major, minor;
	u8 *p;

	/* A refusal sticks until device reset: a retry cannot talk past it. */
	if (gsp->refused) {
		gsp->st.e.version_gate++;
		return fail(c, NV_ERR_INVALID_STATE);
	}
	if (c->avail < R535_SGSI_SIZE)
		return fail(c, NV_ERR_INVALID_ARGUMENT);
	p = echo(c, R535_SGSI_SIZE);
	major = vgsp_get32(p, R535_SGSI_VGX_MAJOR);
	minor = vgsp_get32(p, R535_SGSI_VGX_MINOR);
	copy_version(gsp->guest_version, sizeof(gsp->guest_version),
		     p + R535_SGSI_DRIVER_VERSION, 256);
	abi = vgsp_abi_find(gsp->guest_version, major, minor);
	if (abi) {
		gsp->abi = abi;
		gsp->version_ok = true;
		return reply(c, R535_SGSI_SIZE, NV_OK);
	}
	gsp->version_ok = false;
	gsp->refused = true;
	gsp->st.e.version_refused++;
	vgsp_abi_versions(known, sizeof(known));
	vgsp_dev_log(gsp->dev, VGSP_LOG_ERR, "vgsp: %s: guest driver \"%s\" (vgx 0x%x.0x%x) is not supported; the GSP ABIs here serve %s\n",
		 gsp->dev->name, gsp->guest_version, major, minor, known);
	return reply(c, R535_SGSI_SIZE, NV_ERR_NOT_SUPPORTED);
}

static u32 get_static_info(struct r535_call *c)
{
	u32 n = r535_static_info(c->gsp, c->rep + R535_RPC_HDR_SIZE,
				 c->cap - R535_RPC_HDR_SIZE);

	return reply(c, n, NV_OK);
}

static enum vgsp_obj_kind kind_of(u32 cls)
{
	switch (cls) {
	case NV01_ROOT:
	case NV01_ROOT_NON_PRIV:
	case NV01_ROOT_CLIENT:
		return VGSP_OBJ_ROOT;
	case NV01_DEVICE_0:
		return VGSP_OBJ_DEVICE;
	case NV20_SUBDEVICE_0:
		return VGSP_OBJ_SUBDEVICE;
	default:
		return VGSP_OBJ_OTHER;
	}
}

static u32 obj_status(enum vgsp_obj_err e)
{
	switch (e) {
	case VGSP_OBJ_OK:
		return NV_OK;
	case VGSP_OBJ_DUPLICATE:
		return NV_ERR_INSERT_DUPLICATE_NAME;
	case VGSP_OBJ_NO_CLIENT:
		return NV_ERR_INVALID_CLIENT;
	case VGSP_OBJ_NO_PARENT:
	case VGSP_OBJ_BAD_PARENT:
		return NV_ERR_INVALID_OBJECT_PARENT;
	case VGSP_OBJ_BAD_HANDLE:
		return NV_ERR_INVALID_OBJECT_HANDLE;
	default:
		return NV_ERR_INSUFFICIENT_RESOURCES;
	}
}

/*
 * In 535.261.03 the header length of GSP_RM_ALLOC omits paramsSize; the
 * params are in the same slot, so they are taken from what was received.
 */
static u32 rm_alloc(struct r535_call *c)
{
	u32 client, parent, object, cls, psize, status;
	u8 *p;

	if (c->avail < R535_ALLOC_PARAMS)
		return fail(c, NV_ERR_INVALID_ARGUMENT);
	psize = vgsp_get32(c->req + R535_RPC_HDR_SIZE, R535_ALLOC_PARAMS_SIZE);
	if (psize > c->avail - R535_ALLOC_PARAMS)
		psize = 0;	/* cannot echo what never arrived */
	p = echo(c, R535_ALLOC_PARAMS + psize);
	client = vgsp_get32(p, R535_ALLOC_HCLIENT);
	parent = vgsp_get32(p, R535_ALLOC_HPARENT);
	object = vgsp_get32(p, R535_ALLOC_HOBJECT);
	cls = vgsp_get32(p, R535_ALLOC_HCLASS);
	/*
	 * A client (NV01_ROOT*) arrives as hClient = its handle with
	 * hParent = hObject = 0 from 535.261.03's CPU-RM.
	 */
	if (kind_of(cls) == VGSP_OBJ_ROOT && !object)
		object = client;
	if (vgsp_get32(c->req + R535_RPC_HDR_SIZE, R535_ALLOC_PARAMS_SIZE) !=
	    psize)
		status = NV_ERR_INVALID_PARAM_STRUCT;
	else
		status = obj_status(vgsp_obj_alloc(&c->gsp->objs, client,
						   parent, object, cls,
						   kind_of(cls)));
	if (status == NV_OK) {
		status = r535_alloc_hook(c->gsp, client, parent, object, cls,
					 p + R535_ALLOC_PARAMS, psize);
		if (status != NV_OK) {
			vgsp_obj_free(&c->gsp->objs, client, object);
			r535_free_hook(c->gsp, client);
		}
	}
	vgsp_put32(p, R535_ALLOC_STATUS, status);
	c->out->cmd = cls;
	return reply(c, R535_ALLOC_PARAMS + psize, status);
}

static u32 rm_free(struct r535_call *c)
{
	u32 client, object, status = NV_OK;
	u8 *p;

	if (c->avail < R535_FREE_SIZE)
		return fail(c, NV_ERR_INVALID_ARGUMENT);
	p = echo(c, R535_FREE_SIZE);
	client = vgsp_get32(p, R535_FREE_HROOT);
	object = vgsp_get32(p, R535_FREE_HOBJECT);
	if (client == R535_H_INTERNAL_CLIENT)
		status = NV_ERR_INVALID_OBJECT_HANDLE;	/* GSP-RM's own */
	else if (vgsp_obj_free(&c->gsp->objs, client, object) < 0)
		status = NV_ERR_INVALID_OBJECT_HANDLE;
	else
		r535_free_hook(c->gsp, client);
	vgsp_put32(p, R535_FREE_STATUS, status);
	return reply(c, R535_FREE_SIZE, status);
}

/*
 * DUP_OBJECT (rpc_dup_object_v03_00 = NVOS55_PARAMETERS): hClient,
 * hParent, hObject (the new handle), hClientSrc, hObjectSrc, flags,
 * status. The duplicate is a new object of the source's class under
 * hParent; a duplicated VA space names the same page directory.
 */
#define R535_DUP_HCLIENT		0x00
#define R535_DUP_HPARENT		0x04
#define R535_DUP_HOBJECT		0x08
#define R535_DUP_HCLIENT_SRC		0x0c
#define R535_DUP_HOBJECT_SRC		0x10
#define R535_DUP_STATUS			0x18
#define R535_DUP_SIZE			0x1c

static u32 rm_dup(struct r535_call *c)
{
	u32 client, parent, object, src_client, src_object, status;
	struct vgsp_obj *src;
	u8 *p;

	if (c->avail < R535_DUP_SIZE)
		return fail(c, NV_ERR_INVALID_ARGUMENT);
	p = echo(c, R535_DUP_SIZE);
	client = vgsp_get32(p, R535_DUP_HCLIENT);
	parent = vgsp_get32(p, R535_DUP_HPARENT);
	object = vgsp_get32(p, R535_DUP_HOBJECT);
	src_client = vgsp_get32(p, R535_DUP_HCLIENT_SRC);
	src_object = vgsp_get32(p, R535_DUP_HOBJECT_SRC);
	src = vgsp_obj_find(&c->gsp->objs, src_client, src_object);
	if (!src || src_client == R535_H_INTERNAL_CLIENT) {
		status = NV_ERR_INVALID_OBJECT_HANDLE;
	} else {
		u32 cls = src->cls;

		status = obj_status(vgsp_obj_alloc(&c->gsp->objs, client,
						   parent, object, cls,
						   kind_of(cls)));
		if (status == NV_OK) {
			status = r535_dup_hook(c->gsp, client, parent, object,
					       src_client, src_object, cls);
			if (status != NV_OK) {
				vgsp_obj_free(&c->gsp->objs, client, object);
				r535_free_hook(c->gsp, client);
			}
		}
	}
	vgsp_put32(p, R535_DUP_STATUS, status);
	return reply(c, R535_DUP_SIZE, status);
}

static __always_inline u32 rm_control(struct r535_call *c)
{
	struct vgsp_gsp *gsp = c->gsp;
	u32 client, object, cmd, psize, flags, status;
	bool known = false;
	u8 *p;

	if (c->avail < R535_CTRL_PARAMS)
		return fail(c, NV_ERR_INVALID_ARGUMENT);
	psize = vgsp_get32(c->req + R535_RPC_HDR_SIZE, R535_CTRL_PARAMS_SIZE);
	if (psize > c->avail - R535_CTRL_PARAMS)
		return fail(c, NV_ERR_INVALID_ARGUMENT);
	p = echo(c, R535_CTRL_PARAMS + psize);
	client = vgsp_get32(p, R535_CTRL_HCLIENT);
	object = vgsp_get32(p, R535_CTRL_HOBJECT);
	cmd = vgsp_get32(p, R535_CTRL_CMD);
	flags = vgsp_get32(p, R535_CTRL_FLAGS);
	c->out->cmd = cmd;
	c->out->has_cmd = true;

	if (!vgsp_obj_find(&gsp->objs, client, object)) {
		status = NV_ERR_INVALID_OBJECT_HANDLE;
		known = true;	/* the command may exist; the object does not */
	} else if (flags & R535_CTRL_FLAG_SERIALIZED) {
		status = NV_ERR_NOT_SUPPORTED;	/* FINN streams: not decoded */
	} else if (cmd == R535_CTRL_COPY_SERVER_PDES) {
		/* needs the VA-space handle, which the table does not pass */
		status = r535_copy_server_pdes(gsp, client, object,
					       p + R535_CTRL_PARAMS, psize);
		known = true;
	} else {
		status = r535_control(gsp, cmd, p + R535_CTRL_PARAMS, psize,
				      &known);
	}
	if (vgsp_stats_ctrl(gsp, cmd, psize, status, known))
		vgsp_dev_log(gsp->dev, VGSP_LOG_INFO,
			     "vgsp: %s: control 0x%08x (%s) not supported\n",
			  gsp->dev->name, cmd, r535_ctrl_name(cmd));
	vgsp_put32(p, R535_CTRL_STATUS, status);
	c->out->status = status;
	c->out->error = status != NV_OK && status != NV_ERR_NOT_SUPPORTED;
	return header(c->rep, R535_FN_GSP_RM_CONTROL,
		      R535_RPC_HDR_SIZE + R535_CTRL_PARAMS + psize, NV_OK);
}

static u32 unloading_guest_driver(struct r535_call *c)
{
	u32 n = c->avail < R535_UNLOAD_SIZE ? c->avail : R535_UNLOAD_SIZE;

	echo(c, n);
	/* The driver then polls MAILBOX0 for "processor suspended". */
	vgsp_gsp_reg_set(c->gsp, VGSP_GSP_FALCON_BASE + VGSP_FLCN_MAILBOX0,
			 R535_GSP_SUSPENDED);
	return reply(c, n, NV_OK);
}

/*
 * rpc_update_bar_pde_v15_00: barType (0 BAR1, 1 BAR2), entryValue u64 @8,
 * entryLevelShift u64 @16. The entry becomes entry 0 of GSP-RM's root
 * (PD4, level shift 56) of that BAR, which starts translating (mm/bar.c).
 */
#define R535_BAR_PDE_SIZE		0x18
#define R535_BAR_PDE_BAR1		0
#define R535_BAR_PDE_BAR2		1
#define R535_BAR_PDE_ROOT_SHIFT		56

static u32 update_bar_pde(struct r535_call *c)
{
	u32 status = NV_OK;
	u8 *p;

	if (c->avail < R535_BAR_PDE_SIZE)
		return fail(c, NV_ERR_INVALID_ARGUMENT);
	p = echo(c, R535_BAR_PDE_SIZE);
	switch (vgsp_get32(p, 0)) {
	case R535_BAR_PDE_BAR1:
	case R535_BAR_PDE_BAR2:
		if (vgsp_get64(p, 16) != R535_BAR_PDE_ROOT_SHIFT ||
		    vgsp_bar_set_root(c->gsp->dev,
				      vgsp_get32(p, 0) == R535_BAR_PDE_BAR1 ?
				      VGSP_VIEW_BAR1 : VGSP_VIEW_BAR2,
				      vgsp_get64(p, 8)))
			status = NV_ERR_INVALID_ARGUMENT;
		break;
	default:
		status = NV_ERR_INVALID_ARGUMENT;
	}
	return reply(c, R535_BAR_PDE_SIZE, status);
}

/* rpc_set_page_directory_v1E_05: echoed with the status (channels.c). */
#define R535_SET_PD_SIZE		0x30

static u32 set_page_directory(struct r535_call *c)
{
	u8 *p;

	if (c->avail < R535_SET_PD_SIZE)
		return fail(c, NV_ERR_INVALID_ARGUMENT);
	p = echo(c, R535_SET_PD_SIZE);
	return reply(c, R535_SET_PD_SIZE,
		     r535_set_page_directory(c->gsp, p, R535_SET_PD_SIZE));
}

static u32 unknown_function(struct r535_call *c)
{
	struct vgsp_gsp *gsp = c->gsp;
	u32 fn = c->out->function;

	gsp->st.e.unknown_functions++;
	if (fn < VGSP_FN_TRACK &&
	    !(gsp->unknown_fn_logged[fn / 32] & (1U << (fn % 32)))) {
		gsp->unknown_fn_logged[fn / 32] |= 1U << (fn % 32);
		vgsp_dev_log(gsp->dev, VGSP_LOG_INFO,
			     "vgsp: %s: RPC function %u (%s) not supported\n",
			  gsp->dev->name, fn, r535_fn_name(fn));
	}
	return fail(c, NV_ERR_NOT_SUPPORTED);
}

/*
 * The functions GSP-RM answers, in one table for both questions asked of
 * a request: how far its handler may read (r535_rpc_info) and which
 * handler answers it (r535_dispatch). @fixed: the structure after the RPC
 * header the handler checks against c->avail; @size_off: where in it a
 * u32 gives the size of the params that follow (ALLOC, CONTROL: 535's
 * ALLOC header length omits them), or 0. A function without a handler is
 * not supported (or, with R535_FN_QUIET, never answered).
 */
enum { R535_FN_BOOT = 1, R535_FN_QUIET = 2 };

struct r535_fn_desc {
	u32 (*handle)(struct r535_call *c);
	u32 fixed, size_off;
	u8 flags;	/* R535_FN_BOOT: before the version gate too */
};

static const struct r535_fn_desc r535_fns[R535_FN_NUM] = {
	/* fire-and-forget; continuation records the transport reassembles */
	[R535_FN_GSP_SET_SYSTEM_INFO] = { NULL, 0, 0, R535_FN_BOOT | R535_FN_QUIET },
	[R535_FN_SET_REGISTRY] = { NULL, 0, 0, R535_FN_BOOT | R535_FN_QUIET },
	[R535_FN_CONTINUATION_RECORD] = { NULL, 0, 0, R535_FN_BOOT | R535_FN_QUIET },
	[R535_FN_SET_GUEST_SYSTEM_INFO] = { set_guest_system_info, R535_SGSI_SIZE, 0, R535_FN_BOOT },
	[R535_FN_GET_GSP_STATIC_INFO] = { get_static_info, 0, 0, 0 },
	[R535_FN_GSP_RM_ALLOC] = { rm_alloc, R535_ALLOC_PARAMS, R535_ALLOC_PARAMS_SIZE, 0 },
	[R535_FN_FREE] = { rm_free, R535_FREE_SIZE, 0, 0 },
	[R535_FN_GSP_RM_CONTROL] = { rm_control, R535_CTRL_PARAMS, R535_CTRL_PARAMS_SIZE, 0 },
	[R535_FN_UNLOADING_GUEST_DRIVER] = { unloading_guest_driver, R535_UNLOAD_SIZE, 0, 0 },
	[R535_FN_UPDATE_BAR_PDE] = { update_bar_pde, R535_BAR_PDE_SIZE, 0, 0 },
	[R535_FN_SET_PAGE_DIRECTORY] = { set_page_directory, R535_SET_PD_SIZE, 0, 0 },
	[R535_FN_DUP_OBJECT] = { rm_dup, R535_DUP_SIZE, 0, 0 },
};

/* The entry of function @fn: an empty one for anything unknown. */
static __always_inline const struct r535_fn_desc *fn_desc(u32 fn)
{
	static const struct r535_fn_desc none;

	return fn < R535_FN_NUM ? &r535_fns[fn] : &none;
}

static __always_inline u32 r535_dispatch(struct vgsp_gsp *gsp,
					  const u8 *req, u32 len, u8 *rep,
					  u32 cap,
					  struct vgsp_rpc_outcome *out)
{
	struct r535_call c = {
		.gsp = gsp, .req = req, .rep = rep, .cap = cap, .out = out,
	};
	const struct r535_fn_desc *d;

	out->function = vgsp_get32(req, R535_RPC_FUNCTION);
	if (len < R535_RPC_HDR_SIZE || cap < R535_RPC_HDR_SIZE + R535_SI_SIZE_MAX)
		return 0;
	c.avail = len - R535_RPC_HDR_SIZE;
	if (vgsp_get32(req, R535_RPC_VERSION) != R535_RPC_HDR_VERSION ||
	    vgsp_get32(req, R535_RPC_SIGNATURE_OFF) != R535_RPC_SIGNATURE) {
		gsp->st.e.rpc_hdr_bad++;
		return fail(&c, NV_ERR_INVALID_ARGUMENT);
	}
	d = fn_desc(out->function);
	if (d->flags & R535_FN_QUIET)
		return 0;
	/* Nothing but the boot RPCs before a supported version is known. */
	if (!(d->flags & R535_FN_BOOT) && (gsp->refused || !gsp->version_ok)) {
		gsp->st.e.version_gate++;
		return fail(&c, NV_ERR_INVALID_STATE);
	}
	if (!d->handle)
		return unknown_function(&c);
	/* controls are most RPCs: that one inline, the rest through the table */
	return VGSP_INDIRECT_CALL_1(d->handle, rm_control, &c);
}

/*
 * A control that arrived in continuation records is answered with as many
 * bytes as were sent: CPU-RM's _issueRpcLarge (bidirectional) keeps
 * polling for CONTINUATION_RECORDs until the reply covers its whole
 * buffer, whatever the result. A shorter reply (an error header) is
 * padded with the request's own bytes, as an echo.
 */
VGSP_HOT u32 r535_handle(struct vgsp_gsp *gsp, const u8 *req, u32 len,
			 u8 *rep, u32 cap, struct vgsp_rpc_outcome *out)
{
	u32 n = r535_dispatch(gsp, req, len, rep, cap, out);

	if (n && len > R535_RPC_MAX_LENGTH && len <= cap && n < len &&
	    out->function == R535_FN_GSP_RM_CONTROL) {
		memcpy(rep + n, req + n, len - n);
		n = len;
	}
	return n;
}

u32 r535_init_done(struct vgsp_gsp *gsp, u8 *rep, u32 cap)
{
	memset(rep + R535_RPC_HDR_SIZE, 0, 4);	/* rpc_init_done: not_used */
	return header(rep, R535_EVENT_GSP_INIT_DONE, R535_RPC_HDR_SIZE + 4,
		      NV_OK);
}

/*
 * A stopped channel (struct vgsp_rc_event): first the Xid (OS_ERROR_LOG:
 * CPU-RM prints it, naming the process of the channel at runlist/chid),
 * then the RC notification (RC_TRIGGERED: CPU-RM finds the channel by
 * engine type and ChID, wakes the events on its error notifier and the
 * RC_ERROR subdevice events). The error notifier itself is written by
 * the GSP (here: fifo/), as GSP-RM does; no RcDiag records are sent.
 */
u32 r535_xid_event(struct vgsp_gsp *gsp, const struct vgsp_rc_event *rc,
		   u8 *rep, u32 cap)
{
	u8 *p = rep + R535_RPC_HDR_SIZE;
	u32 n;

	if (cap < R535_RPC_HDR_SIZE + R535_OEL_SIZE)
		return 0;
	memset(p, 0, R535_OEL_SIZE);
	vgsp_put32(p, R535_OEL_EXCEPT_TYPE, rc->exc_type);
	vgsp_put32(p, R535_OEL_RUNLIST, rc->runlist);
	vgsp_put32(p, R535_OEL_CHID, rc->chid);
	for (n = 0; n < R535_OEL_STRING_LEN - 1 && n < VGSP_RC_MSG_LEN &&
	     rc->msg[n]; n++)
		p[R535_OEL_STRING + n] = rc->msg[n];
	return header(rep, R535_EVENT_OS_ERROR_LOG,
		      R535_RPC_HDR_SIZE + R535_OEL_SIZE, NV_OK);
}

u32 r535_rc_event(struct vgsp_gsp *gsp, const struct vgsp_rc_event *rc,
		  u8 *rep, u32 cap)
{
	u8 *p = rep + R535_RPC_HDR_SIZE;

	if (cap < R535_RPC_HDR_SIZE + R535_RCT_SIZE)
		return 0;
	memset(p, 0, R535_RCT_SIZE);
	vgsp_put32(p, R535_RCT_ENGINE_TYPE, rc->engine_type);
	vgsp_put32(p, R535_RCT_CHID, rc->chid);
	vgsp_put32(p, R535_RCT_GFID, R535_GFID_PF);
	vgsp_put32(p, R535_RCT_EXCEPT_TYPE, rc->exc_type);
	vgsp_put32(p, R535_RCT_SCOPE, R535_RC_SCOPE_CHANNEL);
	vgsp_put16(p, R535_RCT_PARTITION_ID, R535_ATTRIBUTION_ID_INVALID);
	vgsp_put32(p, R535_RCT_JOURNAL_SIZE, 0);
	return header(rep, R535_EVENT_RC_TRIGGERED,
		      R535_RPC_HDR_SIZE + R535_RCT_SIZE, NV_OK);
}

static __always_inline u32 hdr_length(const u8 *hdr)
{
	return vgsp_get32(hdr, R535_RPC_LENGTH);
}

static __always_inline u32 hdr_function(const u8 *hdr)
{
	return vgsp_get32(hdr, R535_RPC_FUNCTION);
}

u32 r535_rpc_length(const u8 *hdr)
{
	return hdr_length(hdr);
}

u32 r535_rpc_function(const u8 *hdr)
{
	return hdr_function(hdr);
}

/*
 * Only GSP_RM_CONTROL is sent in pieces and answered in pieces by
 * 535.261.03 (rpcRmApiControl_GSP: header + rpc_gsp_rm_control_v03_00 +
 * paramsSize bytes). Anything else is taken as complete.
 */
static u32 rpc_total(const u8 *rpc, u32 len)
{
	u64 total;

	if (len < R535_RPC_HDR_SIZE + R535_CTRL_PARAMS ||
	    hdr_function(rpc) != R535_FN_GSP_RM_CONTROL)
		return len;
	total = (u64)R535_RPC_HDR_SIZE + R535_CTRL_PARAMS +
		vgsp_get32(rpc + R535_RPC_HDR_SIZE, R535_CTRL_PARAMS_SIZE);
	if (total <= len)
		return len;
	return total > 0xffffffffULL ? 0xffffffffU : (u32)total;
}

/*
 * What a request's handler reads at most (r535_fns): handlers only read
 * what they are given, so a function without an entry is refused (too
 * short), never misread.
 */
static u32 rpc_reach(const u8 *rpc, u32 have)
{
	const struct r535_fn_desc *d = fn_desc(hdr_function(rpc));
	u32 len = hdr_length(rpc);
	u64 reach = (u64)R535_RPC_HDR_SIZE + d->fixed;

	if (d->size_off) {
		if (have < R535_RPC_HDR_SIZE + d->size_off + 4)
			return 0xffffffffU;
		reach += vgsp_get32(rpc + R535_RPC_HDR_SIZE, d->size_off);
	}
	if (reach < len)
		reach = len;
	return reach > 0xffffffffULL ? 0xffffffffU : (u32)reach;
}

void r535_rpc_frame(u8 *hdr, u32 function, u32 length)
{
	vgsp_put32(hdr, R535_RPC_FUNCTION, function);
	vgsp_put32(hdr, R535_RPC_LENGTH, length);
}

VGSP_HOT void r535_rpc_info(const u8 *rpc, u32 have, u32 span,
			    struct vgsp_rpc_info *info)
{
	info->length = hdr_length(rpc);
	info->function = hdr_function(rpc);
	info->total = rpc_total(rpc, info->length);
	info->reach = rpc_reach(rpc, have);
	info->max_reply = span > R535_RPC_HDR_SIZE + R535_SI_SIZE_MAX ?
			  span : R535_RPC_HDR_SIZE + R535_SI_SIZE_MAX;
}

/* The objects GSP-RM owns from the start (handles from static info). */
void r535_reset(struct vgsp_gsp *gsp)
{
	vgsp_obj_clear(&gsp->objs);
	vgsp_obj_alloc(&gsp->objs, R535_H_INTERNAL_CLIENT, 0,
		       R535_H_INTERNAL_CLIENT, NV01_ROOT, VGSP_OBJ_ROOT);
	vgsp_obj_alloc(&gsp->objs, R535_H_INTERNAL_CLIENT,
		       R535_H_INTERNAL_CLIENT, R535_H_INTERNAL_DEVICE,
		       NV01_DEVICE_0, VGSP_OBJ_DEVICE);
	vgsp_obj_alloc(&gsp->objs, R535_H_INTERNAL_CLIENT,
		       R535_H_INTERNAL_DEVICE, R535_H_INTERNAL_SUBDEVICE,
		       NV20_SUBDEVICE_0, VGSP_OBJ_SUBDEVICE);
	memset(gsp->unknown_fn_logged, 0, sizeof(gsp->unknown_fn_logged));
}

const struct r535_layout r535_layout = {
	.si_size = R535_SI_SIZE,
	.si_fb_num_regions = R535_SI_FB_NUM_REGIONS,
	.si_fb_region = R535_SI_FB_REGION,
	.si_compute_branding = R535_SI_COMPUTE_BRANDING,
	.si_engine_caps = R535_SI_ENGINE_CAPS,
	.si_fb_length = R535_SI_FB_LENGTH,
	.si_fbio_mask = R535_SI_FBIO_MASK,
	.si_fb_bus_width = R535_SI_FB_BUS_WIDTH,
	.si_fbp_mask = R535_SI_FBP_MASK,
	.si_l2_cache_size = R535_SI_L2_CACHE_SIZE,
	.si_name = R535_SI_NAME,
	.si_short_name = R535_SI_SHORT_NAME,
	.si_name_unicode = R535_SI_NAME_UNICODE,
	.si_is_tesla = R535_SI_IS_TESLA,
	.si_bar1_pde_base = R535_SI_BAR1_PDE_BASE,
	.si_bar2_pde_base = R535_SI_BAR2_PDE_BASE,
	.si_h_internal_client = R535_SI_H_INTERNAL_CLIENT,
	.si_h_internal_device = R535_SI_H_INTERNAL_DEVICE,
	.si_h_internal_subdevice = R535_SI_H_INTERNAL_SUBDEVICE,
	.mc_gsp = R535_MC_ENGINE_IDX_GSP,
	.mc_replayable_fault = R535_MC_ENGINE_IDX_REPLAYABLE_FAULT,
	.mc_access_cntr = R535_MC_ENGINE_IDX_ACCESS_CNTR,
	.mc_gr0 = R535_MC_ENGINE_IDX_GR0,
	.gpu_info_max = R535_GPU_INFO_MAX_LIST,
	.fb_info_max = R535_FB_INFO_MAX_LIST,
	.engines_v2_max = R535_ENGINES_V2_MAX,
	.devinfo_max = R535_DEVINFO_MAX,
	.ce_caps_rows = R535_CE_CAPS_ROWS,
	.ce_present_size = 4,
	.gr_info_rows = R535_GR_INFO_ROWS,
	.ctxbuf_ids = R535_CTXBUF_IDS,
};

const struct vgsp_abi vgsp_abi_r535 = {
	.name = "r535",
	.driver_version = R535_DRIVER_VERSION,
	.vgx_major = R535_VGX_MAJOR,
	.vgx_minor = R535_VGX_MINOR,
	.layout = &r535_layout,
	R535_ABI_OPS,
	.ctrl_name = r535_ctrl_name,
};
