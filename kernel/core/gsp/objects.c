// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * RM object table of one instance: the mirror of what the guest's CPU-RM
 * allocated on "GSP-RM" (clients, devices, subdevices, any class).
 * Fixed capacity, so a guest cannot make the host allocate without bound;
 * handles are only compared, never dereferenced.
 */
#include "gsp_priv.h"

int vgsp_obj_init(struct vgsp_objtab *t)
{
	memset(t, 0, sizeof(*t));
	t->o = vgsp_zalloc(sizeof(*t->o) * VGSP_OBJ_MAX);
	t->hash = vgsp_zalloc(sizeof(*t->hash) * VGSP_OBJ_HASH);
	if (t->o && t->hash)
		return 0;
	vgsp_obj_fini(t);
	return -ENOMEM;
}

void vgsp_obj_fini(struct vgsp_objtab *t)
{
	vgsp_free(t->o);
	vgsp_free(t->hash);
	t->o = NULL;
	t->hash = NULL;
}

void vgsp_obj_clear(struct vgsp_objtab *t)
{
	if (t->o)
		memset(t->o, 0, sizeof(*t->o) * VGSP_OBJ_MAX);
	if (t->hash)
		memset(t->hash, 0, sizeof(*t->hash) * VGSP_OBJ_HASH);
	t->used = 0;
}

/*
 * Index live slot @i (not indexed yet). At most VGSP_OBJ_MAX of the twice
 * as many buckets are taken, so a free one is always found; the bound is
 * there so that a broken index could never spin.
 */
static void index_add(struct vgsp_objtab *t, unsigned int i)
{
	unsigned int b = vgsp_obj_bucket(t->o[i].client, t->o[i].handle), n;

	for (n = 0; n < VGSP_OBJ_HASH; n++) {
		if (!t->hash[b]) {
			t->hash[b] = (u16)(i + 1);
			return;
		}
		b = (b + 1) & (VGSP_OBJ_HASH - 1);
	}
}

/* After a free: probing needs no holes, so index the live slots anew. */
static void index_rebuild(struct vgsp_objtab *t)
{
	unsigned int i;

	memset(t->hash, 0, sizeof(*t->hash) * VGSP_OBJ_HASH);
	for (i = 0; i < t->high; i++)
		if (t->o[i].used)
			index_add(t, i);
}

static struct vgsp_obj *slot_new(struct vgsp_objtab *t)
{
	unsigned int i;

	for (i = 0; i < VGSP_OBJ_MAX; i++) {
		if (!t->o[i].used) {
			if (i >= t->high)
				t->high = i + 1;
			return &t->o[i];
		}
	}
	return NULL;
}

/* Which kinds may sit under which (§F.5). */
static bool parent_ok(const struct vgsp_obj *p, enum vgsp_obj_kind kind)
{
	switch (kind) {
	case VGSP_OBJ_DEVICE:
		return p->kind == VGSP_OBJ_ROOT;
	case VGSP_OBJ_SUBDEVICE:
		return p->kind == VGSP_OBJ_DEVICE;
	default:
		return true;
	}
}

enum vgsp_obj_err vgsp_obj_alloc(struct vgsp_objtab *t, u32 client,
				 u32 parent, u32 handle, u32 cls,
				 enum vgsp_obj_kind kind)
{
	struct vgsp_obj *o, *p = NULL;
	enum vgsp_obj_err err = VGSP_OBJ_OK;

	if (!handle) {
		err = VGSP_OBJ_BAD_HANDLE;
	} else if (kind == VGSP_OBJ_ROOT) {
		/* A client is its own handle and has no parent object. */
		if (handle != client)
			err = VGSP_OBJ_BAD_HANDLE;
		else if (vgsp_obj_find(t, client, client))
			err = VGSP_OBJ_DUPLICATE;
	} else if (!vgsp_obj_find(t, client, client)) {
		err = VGSP_OBJ_NO_CLIENT;
	} else if (vgsp_obj_find(t, client, handle)) {
		err = VGSP_OBJ_DUPLICATE;
	} else {
		p = vgsp_obj_find(t, client, parent);
		if (!p)
			err = VGSP_OBJ_NO_PARENT;
		else if (!parent_ok(p, kind))
			err = VGSP_OBJ_BAD_PARENT;
		else if (p->depth + 1 > VGSP_OBJ_MAX_DEPTH)
			err = VGSP_OBJ_TOO_DEEP;
	}
	if (err == VGSP_OBJ_OK) {
		o = slot_new(t);
		if (!o) {
			err = VGSP_OBJ_FULL;
		} else {
			o->client = client;
			o->parent = kind == VGSP_OBJ_ROOT ? 0 : parent;
			o->handle = handle;
			o->cls = cls;
			o->kind = kind;
			o->depth = p ? p->depth + 1 : 0;
			/* A live object's parent stays live: free is a subtree. */
			o->pidx = p ? (u16)(p - t->o) : 0;
			o->used = true;
			index_add(t, (unsigned int)(o - t->o));
			t->used++;
			t->allocs++;
		}
	}
	if (err != VGSP_OBJ_OK)
		t->refused++;
	return err;
}

/* Is @c below @o? Up the parent slots, at most the depth cap of steps. */
static bool below(const struct vgsp_objtab *t, const struct vgsp_obj *c,
		  const struct vgsp_obj *o)
{
	unsigned int d = c->depth;

	if (d <= o->depth || d > VGSP_OBJ_MAX_DEPTH)
		return false;
	while (d-- > o->depth) {
		c = &t->o[c->pidx];
		if (!c->used)
			return false;	/* cannot happen: parents outlive */
	}
	return c == o;
}

/*
 * Free an object and everything below it in one scan of the table (each
 * object's ancestry is followed by parent slot, depth-capped): O(n), not
 * one scan per level and per parent lookup, under the device lock.
 */
int vgsp_obj_free(struct vgsp_objtab *t, u32 client, u32 handle)
{
	struct vgsp_obj *o = vgsp_obj_find(t, client, handle);
	unsigned int i, freed = 0;

	if (!o) {
		t->refused++;
		return -ENOENT;
	}
	for (i = 0; i < t->high; i++) {
		struct vgsp_obj *c = &t->o[i];

		if (c->used && c->client == client &&
		    (o->kind == VGSP_OBJ_ROOT || below(t, c, o)))
			c->dying = true;
	}
	o->dying = true;
	for (i = 0; i < t->high; i++) {
		if (t->o[i].used && t->o[i].dying) {
			memset(&t->o[i], 0, sizeof(t->o[i]));
			freed++;
		}
	}
	index_rebuild(t);
	t->used -= freed;
	t->frees += freed;
	return freed;
}
