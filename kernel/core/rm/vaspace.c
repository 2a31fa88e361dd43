// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * VA spaces and TSGs as GSP-RM knows them. CPU-RM owns the page tables of
 * its VA spaces and tells GSP-RM the root: COPY_SERVER_RESERVED_PDES for
 * RM-managed spaces (its level 0 is the PD4 root), SET_PAGE_DIRECTORY for
 * externally owned ones (UVM). A channel allocated with hVASpace 0 runs in
 * its TSG's space, else in the device's default space, which CPU-RM names
 * with a transient FERMI_VASPACE_A (index GPU_DEVICE) under the device.
 */
#include "rm.h"
#include "../fifo/fifo.h"
#include "../gsp/gsp_priv.h"
#include "../view.h"

struct rm_vas {
	bool used, device_ref, has_root;
	u32 client, hdevice, handle;
	struct vgsp_vm vm;
	bool dup;			/* a duplicate: the source holds the root */
	u32 src_client, src_handle;
};

#define VAS_DUP_DEPTH		4	/* a dup of a dup of ...: bounded */

struct rm_tsg {
	bool used;
	u32 client, handle, hvas, engine_type;
};

struct rm_default {
	bool used;
	u32 client, hdevice;
	struct vgsp_vm vm;
};

struct vgsp_rm {
	struct rm_vas vas[VGSP_RM_MAX_VAS];
	struct rm_tsg tsg[VGSP_RM_MAX_TSG];
	struct rm_default dflt[VGSP_RM_MAX_DEVICES];
	u64 vas_refused, roots_set, roots_unknown;
};

int vgsp_rm_create(struct vgsp_dev *dev)
{
	dev->rm = vgsp_zalloc(sizeof(*dev->rm));
	return dev->rm ? 0 : -ENOMEM;
}

void vgsp_rm_destroy(struct vgsp_dev *dev)
{
	vgsp_free(dev->rm);
	dev->rm = NULL;
}

void vgsp_rm_reset(struct vgsp_dev *dev)
{
	if (dev->rm)
		memset(dev->rm, 0, sizeof(*dev->rm));
}

static struct rm_vas *vas_find(struct vgsp_rm *rm, u32 client, u32 handle)
{
	unsigned int i;

	for (i = 0; i < VGSP_RM_MAX_VAS; i++)
		if (rm->vas[i].used && rm->vas[i].client == client &&
		    rm->vas[i].handle == handle)
			return &rm->vas[i];
	return NULL;
}

/* The entry that holds @v's root: itself, or the source it duplicates. */
static struct rm_vas *vas_canon(struct vgsp_rm *rm, struct rm_vas *v)
{
	unsigned int depth;

	for (depth = 0; v && v->dup && depth < VAS_DUP_DEPTH; depth++)
		v = vas_find(rm, v->src_client, v->src_handle);
	return v && !v->dup ? v : NULL;
}

static struct rm_default *dflt_find(struct vgsp_rm *rm, u32 client,
				    u32 hdevice, bool create)
{
	struct rm_default *free = NULL;
	unsigned int i;

	for (i = 0; i < VGSP_RM_MAX_DEVICES; i++) {
		struct rm_default *d = &rm->dflt[i];

		if (d->used && d->client == client && d->hdevice == hdevice)
			return d;
		if (!d->used && !free)
			free = d;
	}
	if (!create || !free)
		return NULL;
	free->used = true;
	free->client = client;
	free->hdevice = hdevice;
	return free;
}

int vgsp_rm_vas_alloc(struct vgsp_dev *dev, u32 client, u32 hdevice,
		      u32 handle, bool device_ref)
{
	struct vgsp_rm *rm = dev->rm;
	struct rm_default *d;
	unsigned int i;

	for (i = 0; i < VGSP_RM_MAX_VAS; i++) {
		struct rm_vas *v = &rm->vas[i];

		if (v->used)
			continue;
		memset(v, 0, sizeof(*v));
		v->used = true;
		v->client = client;
		v->hdevice = hdevice;
		v->handle = handle;
		v->device_ref = device_ref;
		/* a new name for a default whose root is already known */
		d = device_ref ? dflt_find(rm, client, hdevice, false) : NULL;
		if (d) {
			v->vm = d->vm;
			v->has_root = true;
		}
		return 0;
	}
	rm->vas_refused++;
	return -ENOSPC;
}

int vgsp_rm_vas_dup(struct vgsp_dev *dev, u32 client, u32 hdevice,
		    u32 handle, u32 src_client, u32 src_handle)
{
	struct rm_vas *v;

	if (vgsp_rm_vas_alloc(dev, client, hdevice, handle, false))
		return -ENOSPC;
	v = vas_find(dev->rm, client, handle);
	/* one address space under two names: roots set on either are shared */
	v->dup = true;
	v->src_client = src_client;
	v->src_handle = src_handle;
	return 0;
}

void vgsp_rm_vas_set_root(struct vgsp_dev *dev, u32 client, u32 handle,
			  u64 pa, enum vgsp_mem_target target)
{
	struct vgsp_rm *rm = dev->rm;
	struct rm_vas *v = vas_canon(rm, vas_find(rm, client, handle));
	struct rm_default *d;

	if (!v) {
		rm->roots_unknown++;
		return;
	}
	v->vm.pdb = pa;
	v->vm.target = target;
	v->has_root = true;
	rm->roots_set++;
	if (v->device_ref) {
		d = dflt_find(rm, client, v->hdevice, true);
		if (d)
			d->vm = v->vm;
	}
}

int vgsp_rm_vas_set_pd(struct vgsp_dev *dev, u32 client, u32 hdevice,
		       u32 hvas, u64 pa, enum vgsp_mem_target target)
{
	struct vgsp_rm *rm = dev->rm;
	struct rm_default *d;
	struct rm_vas *v;

	if (hvas) {
		v = vas_canon(rm, vas_find(rm, client, hvas));
		if (!v)
			return -ENOENT;
		v->vm.pdb = pa;
		v->vm.target = target;
		v->has_root = true;
		if (!v->device_ref)
			return 0;
		client = v->client;
		hdevice = v->hdevice;
	}
	d = dflt_find(rm, client, hdevice, true);
	if (!d)
		return -ENOSPC;
	d->vm.pdb = pa;
	d->vm.target = target;
	return 0;
}

int vgsp_rm_tsg_alloc(struct vgsp_dev *dev, u32 client, u32 handle,
		      u32 hvas, u32 engine_type)
{
	unsigned int i;

	for (i = 0; i < VGSP_RM_MAX_TSG; i++) {
		struct rm_tsg *t = &dev->rm->tsg[i];

		if (t->used)
			continue;
		t->used = true;
		t->client = client;
		t->handle = handle;
		t->hvas = hvas;
		t->engine_type = engine_type;
		return 0;
	}
	dev->rm->vas_refused++;
	return -ENOSPC;
}

u32 vgsp_rm_tsg_vas(struct vgsp_dev *dev, u32 client, u32 handle)
{
	unsigned int i;

	for (i = 0; i < VGSP_RM_MAX_TSG; i++) {
		struct rm_tsg *t = &dev->rm->tsg[i];

		if (t->used && t->client == client && t->handle == handle)
			return t->hvas;
	}
	return 0;
}

u32 vgsp_rm_tsg_engine(struct vgsp_dev *dev, u32 client, u32 handle)
{
	unsigned int i;

	for (i = 0; i < VGSP_RM_MAX_TSG; i++) {
		struct rm_tsg *t = &dev->rm->tsg[i];

		if (t->used && t->client == client && t->handle == handle)
			return t->engine_type;
	}
	return 0;
}

u32 vgsp_rm_device_of(struct vgsp_dev *dev, u32 client, u32 handle)
{
	unsigned int depth;

	for (depth = 0; depth < VGSP_OBJ_MAX_DEPTH; depth++) {
		struct vgsp_obj *o = vgsp_obj_find(&dev->gsp->objs, client,
						   handle);

		if (!o)
			return 0;
		if (o->kind == VGSP_OBJ_DEVICE)
			return o->handle;
		handle = o->parent;
	}
	return 0;
}

static bool alive(struct vgsp_dev *dev, u32 client, u32 handle)
{
	return vgsp_obj_find(&dev->gsp->objs, client, handle) != NULL;
}

/*
 * A FREE (with its cascade) only removes objects of one client, so only
 * that client's entries are checked: the cost stays with the entries the
 * guest itself created, not with the whole table.
 */
void vgsp_rm_prune(struct vgsp_dev *dev, u32 client)
{
	struct vgsp_rm *rm = dev->rm;
	unsigned int i;

	for (i = 0; i < VGSP_RM_MAX_VAS; i++)
		if (rm->vas[i].used && rm->vas[i].client == client &&
		    !alive(dev, client, rm->vas[i].handle))
			rm->vas[i].used = false;
	for (i = 0; i < VGSP_RM_MAX_TSG; i++)
		if (rm->tsg[i].used && rm->tsg[i].client == client &&
		    !alive(dev, client, rm->tsg[i].handle))
			rm->tsg[i].used = false;
	/* a device default lives as long as its device */
	for (i = 0; i < VGSP_RM_MAX_DEVICES; i++)
		if (rm->dflt[i].used && rm->dflt[i].client == client &&
		    !alive(dev, client, rm->dflt[i].hdevice))
			rm->dflt[i].used = false;
	if (dev->fifo)
		vgsp_fifo_chan_prune(dev, client, alive);
}

bool vgsp_rm_chan_vm(struct vgsp_dev *dev, const struct vgsp_chan *ch,
		     struct vgsp_vm *vm)
{
	struct vgsp_rm *rm = dev->rm;
	struct rm_default *d;
	struct rm_vas *v;

	if (ch->d.hvas) {
		v = vas_canon(rm, vas_find(rm, ch->d.client, ch->d.hvas));
		if (v && v->has_root) {
			*vm = v->vm;
			return true;
		}
		if (!v || !v->device_ref)
			return false;
	}
	d = dflt_find(rm, ch->d.client, ch->d.hdevice, false);
	if (!d)
		return false;
	*vm = d->vm;
	return true;
}

/* Copy under the lock, print without it. */
void vgsp_rm_show_vaspaces(struct vgsp_dev *dev, struct vgsp_printer *p)
{
	struct vgsp_rm *copy = vgsp_zalloc(sizeof(*copy));
	unsigned int i;

	if (!copy)
		return;
	vgsp_dev_lock(dev);
	*copy = *dev->rm;
	vgsp_dev_unlock(dev);
	p->print(p, "client handle device kind root target\n");
	for (i = 0; i < VGSP_RM_MAX_VAS; i++) {
		const struct rm_vas *v = &copy->vas[i];

		if (v->used)
			p->print(p, "0x%08x 0x%08x 0x%08x %s 0x%llx %s\n",
				 v->client, v->handle, v->hdevice,
				 v->device_ref ? "device-ref" : "own",
				 (unsigned long long)v->vm.pdb,
				 !v->has_root ? "-" :
				 v->vm.target == VGSP_MEM_VID ? "vid" : "sys");
	}
	for (i = 0; i < VGSP_RM_MAX_DEVICES; i++) {
		const struct rm_default *d = &copy->dflt[i];

		if (d->used)
			p->print(p, "0x%08x - 0x%08x default 0x%llx %s\n",
				 d->client, d->hdevice,
				 (unsigned long long)d->vm.pdb,
				 d->vm.target == VGSP_MEM_VID ? "vid" : "sys");
	}
	p->print(p, "roots_set %llu\nroots_unknown %llu\nvas_refused %llu\n",
		 (unsigned long long)copy->roots_set,
		 (unsigned long long)copy->roots_unknown,
		 (unsigned long long)copy->vas_refused);
	vgsp_free(copy);
}

