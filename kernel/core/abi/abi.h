/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The seam between the GSP transport (gsp/: boot, queues, worker) and one
 * GSP firmware ABI (abi/<version>/: function numbers, payload layouts,
 * control IDs, static-info layout). The transport hands the ABI one
 * complete, checksum-verified RPC (header + payload) at a time and sends
 * back whatever the ABI builds. Adding a firmware branch means adding a
 * sibling directory that fills in one struct vgsp_abi; nothing in gsp/
 * changes.
 */
#ifndef VGSP_ABI_H
#define VGSP_ABI_H

#include "../vgsp_types.h"

struct vgsp_gsp;
struct vgsp_rc_event;

/* What the ABI reports about one handled RPC, for statistics and rpc_log. */
struct vgsp_rpc_outcome {
	u32 function;		/* function number from the RPC header */
	u32 cmd;		/* control command (GSP_RM_CONTROL) or 0 */
	u32 status;		/* NV status given to the guest (0 = NV_OK) */
	bool has_cmd;
	bool error;		/* request was refused or malformed */
};

/*
 * A command's header, as the transport needs it (vgsp_abi.rpc_info):
 * @length: the RPC length field (the transport sizes checksums by it).
 * @function: the function number.
 * @total: the bytes the whole RPC spans (large RPCs, below): @length when
 * it is complete.
 * @reach: how many bytes (header included) the handler of a one-slot
 * request may read: at least @length, more where a handler reads a
 * structure or params past it. The transport gathers that much of the
 * slot (no more) and hands it to handle() as @len. 0xffffffff: the whole
 * slot (the bytes given were too few to tell).
 * @max_reply: the most bytes a reply to this command may take.
 */
struct vgsp_rpc_info {
	u32 length, function, total, reach, max_reply;
};

struct vgsp_abi {
	const char *name;		/* "r535" */
	/*
	 * The guest driver this ABI speaks for, as SET_GUEST_SYSTEM_INFO
	 * announces it (driverVersionBuffer, vgx version). The transport
	 * starts with vgsp_abi_default; the announcement picks the ABI of
	 * that version for the rest of the boot (vgsp_abi_find).
	 */
	const char *driver_version;	/* "535.261.03" */
	u32 vgx_major, vgx_minor;
	/* Version-specific numbers the shared code reads (abi/<ver>/). */
	const void *layout;

	/*
	 * Handle one command. @req holds the RPC header and payload, @len
	 * bytes of it are valid (the gathered queue slots minus the element
	 * header). Build the reply (RPC header + payload) in @rep, at most
	 * @cap bytes; return its length, or 0 when the RPC gets no reply.
	 * Runs on the dispatch worker with the device lock held.
	 */
	u32 (*handle)(struct vgsp_gsp *gsp, const u8 *req, u32 len,
		      u8 *rep, u32 cap, struct vgsp_rpc_outcome *out);

	/* Build the "GSP is up" event in @rep; return its length. */
	u32 (*init_done)(struct vgsp_gsp *gsp, u8 *rep, u32 cap);

	/*
	 * The two events of a stopped channel (gsp.h, struct vgsp_rc_event),
	 * built in @rep: the Xid (the OS error log event) and the RC
	 * notification. Each returns its length (0: @cap too small).
	 */
	u32 (*xid_event)(struct vgsp_gsp *gsp, const struct vgsp_rc_event *rc,
			 u8 *rep, u32 cap);
	u32 (*rc_event)(struct vgsp_gsp *gsp, const struct vgsp_rc_event *rc,
			u8 *rep, u32 cap);

	/* RPC length field of a header (the transport sizes checksums by it). */
	u32 (*rpc_length)(const u8 *hdr);
	/*
	 * struct vgsp_rpc_info of one command, from its first @have bytes;
	 * @span: the bytes of its queue slots after the element header. One
	 * call per command: under TCG every indirect call on the RPC path
	 * costs two lookups of a return address, and this was five.
	 */
	void (*rpc_info)(const u8 *rpc, u32 have, u32 span,
			 struct vgsp_rpc_info *info);

	/*
	 * Large RPCs (more than one queue message). The sender cuts the RPC
	 * into a first message (the RPC's own function, the header length
	 * that of this message only) and continuation records (function
	 * @cont_function, header + the next bytes). rpc_info's @total says
	 * how many bytes the whole RPC spans, given its first message.
	 * @rpc_function reads the function of a header; @rpc_frame rewrites
	 * function and length of one part's header. The transport reassembles
	 * requests and cuts large replies the same way; the ABI only ever sees
	 * whole RPCs.
	 */
	u32 rpc_hdr_size;
	u32 cont_function;
	u32 (*rpc_function)(const u8 *hdr);
	void (*rpc_frame)(u8 *hdr, u32 function, u32 length);

	/* Back to power-on state (object table, negotiated version). */
	void (*reset)(struct vgsp_gsp *gsp);

	/* Names for views; never NULL ("?" when unknown). */
	const char *(*fn_name)(u32 function);
	const char *(*ctrl_name)(u32 cmd);
};

extern const struct vgsp_abi vgsp_abi_r535;
extern const struct vgsp_abi vgsp_abi_r550;

/*
 * The two ops every command takes (handle, rpc_info). Every 5xx ABI the
 * core carries shares r535's (R535_ABI_OPS): the transport calls those
 * directly when the ABI's op is one (VGSP_INDIRECT_CALL_1), any other
 * through the op.
 */
u32 r535_handle(struct vgsp_gsp *gsp, const u8 *req, u32 len, u8 *rep,
		u32 cap, struct vgsp_rpc_outcome *out);
void r535_rpc_info(const u8 *rpc, u32 have, u32 span,
		   struct vgsp_rpc_info *info);
#define vgsp_abi_handle(abi, ...)					\
	VGSP_INDIRECT_CALL_1((abi)->handle, r535_handle, __VA_ARGS__)
#define vgsp_abi_rpc_info(abi, ...)					\
	VGSP_INDIRECT_CALL_1((abi)->rpc_info, r535_rpc_info, __VA_ARGS__)
/* The ABI a GSP speaks before (and after a reset clears) an announcement. */
#define vgsp_abi_default vgsp_abi_r535

/*
 * The ABI whose driver version and vgx version match exactly what the
 * guest announced; NULL when none does (the guest is refused). Lists
 * every ABI the core carries (abi/abi.c).
 */
const struct vgsp_abi *vgsp_abi_find(const char *driver_version,
				     u32 vgx_major, u32 vgx_minor);
/* Every supported driver version, ", "-separated, into @buf (NUL-ended). */
void vgsp_abi_versions(char *buf, unsigned int len);

#endif /* VGSP_ABI_H */
