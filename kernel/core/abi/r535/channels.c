// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The 535 wire forms of the objects and calls the work path needs,
 * decoded into the version-neutral rm/ and fifo/ calls:
 *
 *  - GSP_RM_ALLOC of FERMI_VASPACE_A (NV_VASPACE_ALLOCATION_PARAMETERS:
 *    index @0; 3 = GPU_DEVICE names the device's default VA space),
 *    KEPLER_CHANNEL_GROUP_A (NV_CHANNEL_GROUP_ALLOCATION_PARAMETERS:
 *    hVASpace @8) and HOPPER_CHANNEL_GPFIFO_A (NV_CHANNEL_ALLOC_PARAMS,
 *    0x168 bytes, offsets as 535.261.03 lays them out on x86-64);
 *  - VASPACE_COPY_SERVER_RESERVED_PDES (levels[0] is the PD4 root);
 *  - SET_PAGE_DIRECTORY (RPC 54, rpc_set_page_directory_v1E_05).
 *
 * CPU-RM picks the ChID itself and sends it in the USERD index flags
 * (PAGE_VALUE 20:12 * 8 + INDEX_VALUE 10:8); nothing is returned.
 */
#include "r535.h"
#include "../../rm/rm.h"
#include "../../fifo/fifo.h"

#define FERMI_VASPACE_A			0x90f1
#define KEPLER_CHANNEL_GROUP_A		0xa06c
#define FERMI_CONTEXT_SHARE_A		0x9067
#define CTXSHARE_HVASPACE		0x00
#define HOPPER_CHANNEL_GPFIFO_A		0xc86f

#define VAS_INDEX			0x00
#define VAS_INDEX_GPU_DEVICE		3

#define TSG_HVASPACE			0x08
#define TSG_ENGINE_TYPE			0x0c
#define TSG_PARAMS_MIN			0x10

#define CH_GPFIFO_OFFSET		0x008
#define CH_GPFIFO_ENTRIES		0x010
#define CH_FLAGS			0x014
#define CH_HCONTEXT_SHARE		0x018
#define CH_HVASPACE			0x01c
#define CH_ENGINE_TYPE			0x080
#define CH_USERD_MEM			0x0a8
#define CH_ERRNOT_MEM			0x0f8
#define CH_PARAMS_SIZE			0x168
#define MEMDESC_BASE			0x00
#define MEMDESC_SIZE			0x08
#define MEMDESC_ADDR_SPACE		0x10
#define ADDR_SYSMEM			1
#define ADDR_FBMEM			2
#define FLAG_USERD_INDEX(f)		(((f) >> 8) & 0x7)
#define FLAG_USERD_PAGE(f)		(((f) >> 12) & 0x1ff)

#define PDES_LEVELS			0x28
#define PDES_NUM_LEVELS			0x20
#define PDES_LEVEL_ADDR			0x00
#define PDES_LEVEL_APERTURE		0x10
#define PDES_PARAMS_SIZE		0xb8

#define SPD_HCLIENT			0x00
#define SPD_HDEVICE			0x04
#define SPD_PHYS_ADDR			0x10
#define SPD_FLAGS			0x1c
#define SPD_HVASPACE			0x20
#define SPD_SIZE			0x30
#define SPD_FLAGS_APERTURE(f)		((f) & 0x3)	/* 0 vid, 1/2 sys */

static int mem_target(u32 addr_space, enum vgsp_mem_target *t)
{
	if (addr_space == ADDR_FBMEM)
		*t = VGSP_MEM_VID;
	else if (addr_space == ADDR_SYSMEM)
		*t = VGSP_MEM_SYS;
	else
		return -EINVAL;
	return 0;
}

/* GMMU_APERTURE (gmmu_fmt.h): 1 video, 2 peer, 3 sys non-coherent, 4 sys */
#define GMMU_APERTURE_VIDEO		1
#define GMMU_APERTURE_SYS_NONCOH	3
#define GMMU_APERTURE_SYS_COH		4

static int gmmu_target(u32 aperture, enum vgsp_mem_target *t)
{
	if (aperture == GMMU_APERTURE_VIDEO)
		*t = VGSP_MEM_VID;
	else if (aperture == GMMU_APERTURE_SYS_NONCOH ||
		 aperture == GMMU_APERTURE_SYS_COH)
		*t = VGSP_MEM_SYS;
	else
		return -EINVAL;
	return 0;
}

static u32 channel_alloc(struct vgsp_gsp *gsp, u32 client, u32 parent,
			 u32 object, const u8 *p, u32 psize)
{
	struct vgsp_dev *dev = gsp->dev;
	struct vgsp_chan_desc d;
	u32 flags;
	int runlist;

	if (psize < CH_PARAMS_SIZE)
		return NV_ERR_INVALID_PARAM_STRUCT;
	memset(&d, 0, sizeof(d));
	d.client = client;
	d.handle = object;
	d.parent = parent;
	flags = vgsp_get32(p, CH_FLAGS);
	d.chid = FLAG_USERD_PAGE(flags) * 8 + FLAG_USERD_INDEX(flags);
	d.engine_type = vgsp_get32(p, CH_ENGINE_TYPE);
	if (!d.engine_type)	/* NULL: the engine the TSG was created for */
		d.engine_type = vgsp_rm_tsg_engine(dev, client, parent);
	runlist = r535_engine_runlist(d.engine_type);
	if (runlist < 0)
		return NV_ERR_INVALID_ARGUMENT;
	d.runlist = (u32)runlist;
	d.gpfifo_va = vgsp_get64(p, CH_GPFIFO_OFFSET);
	d.gpfifo_entries = vgsp_get32(p, CH_GPFIFO_ENTRIES);
	/* the VA space: the channel's own, its subcontext's, or its TSG's */
	d.hvas = vgsp_get32(p, CH_HVASPACE);
	if (!d.hvas && vgsp_get32(p, CH_HCONTEXT_SHARE))
		d.hvas = vgsp_rm_tsg_vas(dev, client,
					 vgsp_get32(p, CH_HCONTEXT_SHARE));
	if (!d.hvas)
		d.hvas = vgsp_rm_tsg_vas(dev, client, parent);
	d.hdevice = vgsp_rm_device_of(dev, client, parent);
	d.userd_pa = vgsp_get64(p, CH_USERD_MEM + MEMDESC_BASE);
	if (mem_target(vgsp_get32(p, CH_USERD_MEM + MEMDESC_ADDR_SPACE),
		       &d.userd_target) ||
	    vgsp_get64(p, CH_USERD_MEM + MEMDESC_SIZE) < VGSP_USERD_SIZE)
		return NV_ERR_INVALID_ARGUMENT;
	d.errnot_pa = vgsp_get64(p, CH_ERRNOT_MEM + MEMDESC_BASE);
	d.has_errnot = !mem_target(vgsp_get32(p, CH_ERRNOT_MEM +
					      MEMDESC_ADDR_SPACE),
				   &d.errnot_target) &&
		       vgsp_get64(p, CH_ERRNOT_MEM + MEMDESC_SIZE) >= 16;
	if (vgsp_fifo_chan_alloc(dev, &d))
		return NV_ERR_INSUFFICIENT_RESOURCES;
	return NV_OK;
}

/* A bounded rm/ table was full: the object is refused, not half-made. */
static u32 status_of(int ret)
{
	return ret ? NV_ERR_INSUFFICIENT_RESOURCES : NV_OK;
}

u32 r535_alloc_hook(struct vgsp_gsp *gsp, u32 client, u32 parent,
		    u32 object, u32 cls, const u8 *p, u32 psize)
{
	struct vgsp_dev *dev = gsp->dev;

	switch (cls) {
	case FERMI_VASPACE_A:
		return status_of(vgsp_rm_vas_alloc(dev, client,
				vgsp_rm_device_of(dev, client, parent), object,
				psize >= 4 && vgsp_get32(p, VAS_INDEX) ==
				VAS_INDEX_GPU_DEVICE));
	case KEPLER_CHANNEL_GROUP_A:
		if (psize < TSG_PARAMS_MIN)
			return NV_ERR_INVALID_PARAM_STRUCT;
		return status_of(vgsp_rm_tsg_alloc(dev, client, object,
				vgsp_get32(p, TSG_HVASPACE),
				vgsp_get32(p, TSG_ENGINE_TYPE)));
	case FERMI_CONTEXT_SHARE_A:
		/* a subcontext: its channels run in its VA space */
		if (psize < 4)
			return NV_ERR_INVALID_PARAM_STRUCT;
		return status_of(vgsp_rm_tsg_alloc(dev, client, object,
				vgsp_get32(p, CTXSHARE_HVASPACE), 0));
	case HOPPER_CHANNEL_GPFIFO_A:
		return channel_alloc(gsp, client, parent, object, p, psize);
	default:
		return NV_OK;
	}
}

u32 r535_dup_hook(struct vgsp_gsp *gsp, u32 client, u32 parent, u32 object,
		  u32 src_client, u32 src_object, u32 cls)
{
	struct vgsp_dev *dev = gsp->dev;

	if (cls != FERMI_VASPACE_A)
		return NV_OK;
	return status_of(vgsp_rm_vas_dup(dev, client,
					 vgsp_rm_device_of(dev, client, parent),
					 object, src_client, src_object));
}

void r535_free_hook(struct vgsp_gsp *gsp, u32 client)
{
	vgsp_rm_prune(gsp->dev, client);
}

u32 r535_copy_server_pdes(struct vgsp_gsp *gsp, u32 client, u32 object,
			  const u8 *p, u32 psize)
{
	enum vgsp_mem_target t;

	if (psize != PDES_PARAMS_SIZE || !vgsp_get32(p, PDES_NUM_LEVELS) ||
	    gmmu_target(vgsp_get32(p, PDES_LEVELS + PDES_LEVEL_APERTURE), &t))
		return NV_ERR_INVALID_ARGUMENT;
	vgsp_rm_vas_set_root(gsp->dev, client, object,
			     vgsp_get64(p, PDES_LEVELS + PDES_LEVEL_ADDR), t);
	return NV_OK;
}

u32 r535_set_page_directory(struct vgsp_gsp *gsp, const u8 *p, u32 len)
{
	u32 flags;

	if (len < SPD_SIZE)
		return NV_ERR_INVALID_ARGUMENT;
	flags = vgsp_get32(p, SPD_FLAGS);
	if (vgsp_rm_vas_set_pd(gsp->dev, vgsp_get32(p, SPD_HCLIENT),
			       vgsp_get32(p, SPD_HDEVICE),
			       vgsp_get32(p, SPD_HVASPACE),
			       vgsp_get64(p, SPD_PHYS_ADDR),
			       SPD_FLAGS_APERTURE(flags) ? VGSP_MEM_SYS :
							   VGSP_MEM_VID))
		return NV_ERR_INVALID_OBJECT_HANDLE;
	return NV_OK;
}
