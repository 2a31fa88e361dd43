// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/vgsp-hostd (backend=hostd): the transport between vgsp.ko and the
 * hostd daemon that executes guest GPU work (docs/forwarding.md §5; wire
 * format in core/hostd_ring.h, marshalling in core/backend/ring.c).
 *
 * One attacher at a time; an instance can only be created while one is
 * attached (fail closed). Each instance owns a vmalloc'd shared area hostd
 * mmaps; the kernel signals hostd's eventfd when it publishes work and
 * hostd's VGSP_HOSTD_KICK wakes the instance's waiting worker. Releasing
 * the attached file (hostd exits or dies) fails every instance it served:
 * the pending item completes with -EIO, the guest channel gets its error
 * notifier, the instance stays failed; a new hostd may attach and serve
 * new instances. A hostd that attached with VGSP_HR_FEAT_GUEST_VIEW maps
 * each instance's guest RAM itself (vgsp_hostd_view.c) and gets no staged
 * guest-RAM bytes; an older hostd (ring version 1) is refused.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "vgsp_compat.h"
#include "vgsp_drv.h"
#include "vgsp_hostd_view.h"
#include "backend/ring.h"
#include "mm/mm.h"

static bool hostd_selftest;
module_param(hostd_selftest, bool, 0444);
MODULE_PARM_DESC(hostd_selftest,
		 "backend=hostd: debugfs vgsp-hostd/selftest runs a copy through an instance's ring (test rigs only)");

struct vgsp_hostd_inst {
	struct vgsp_ring_be rb;
	void *area;
	struct vgsp_hostd_view *view;	/* guest RAM, as hostd maps it */
	u32 id;
	wait_queue_head_t wq;
	struct vgsp_dev *dev;		/* set once the core exists */
	atomic_t users;			/* selftests using dev */
};

struct vgsp_hostd_stats {
	u64 attaches, attach_refused, deaths, create_refused, bad_ioctls;
	u64 kicks, wakeups;
};

static DEFINE_MUTEX(hostd_lock);	/* everything below */
static struct file *hostd_owner;
static u32 hostd_features;		/* VGSP_HR_FEAT_* it attached with */
static struct eventfd_ctx *hostd_evt;
static struct vgsp_hostd_inst *hostd_tab[VGSP_HR_MAX_INSTANCES];
static struct vgsp_hostd_stats hostd_st;
static u32 hostd_next_id;
static struct dentry *hostd_dbg;

static void notify_locked(void)
{
	if (hostd_evt) {
		vgsp_eventfd_signal(hostd_evt);
		hostd_st.wakeups++;
	}
}

static void link_kick(void *link)
{
	mutex_lock(&hostd_lock);
	notify_locked();
	mutex_unlock(&hostd_lock);
}

static int link_wait(void *link, u64 timeout_ns)
{
	struct vgsp_hostd_inst *in = link;
	long t = nsecs_to_jiffies(timeout_ns) + 1;

	wait_event_timeout(in->wq, vgsp_ring_be_comp_ready(&in->rb) ||
			   vgsp_ring_be_failed(&in->rb), t);
	return 0;
}

static const struct vgsp_ring_link_ops hostd_link_ops = {
	.kick = link_kick,
	.wait = link_wait,
};

struct vgsp_hostd_inst *vgsp_hostd_inst_new(const char *who)
{
	struct vgsp_hostd_inst *in;
	int ret = -ENODEV;
	u32 id, i;

	in = kzalloc(sizeof(*in), GFP_KERNEL);
	if (!in)
		return ERR_PTR(-ENOMEM);
	init_waitqueue_head(&in->wq);
	in->area = vmalloc_user(VGSP_HR_MAP_BYTES);
	if (!in->area) {
		kfree(in);
		return ERR_PTR(-ENOMEM);
	}
	mutex_lock(&hostd_lock);
	if (!hostd_owner) {
		hostd_st.create_refused++;
		pr_err("vgsp: %s: backend=hostd but no hostd is attached to /dev/vgsp-hostd: start vgsp-hostd attach first\n",
		       who);
		goto err;
	}
	/* round robin: an id hostd just saw go is not the next one given */
	for (i = 0; i < VGSP_HR_MAX_INSTANCES; i++) {
		id = (hostd_next_id + i) % VGSP_HR_MAX_INSTANCES;
		if (!hostd_tab[id])
			break;
	}
	ret = -ENOSPC;
	if (i == VGSP_HR_MAX_INSTANCES)
		goto err;
	hostd_next_id = id + 1;
	ret = -ENOMEM;
	in->view = vgsp_view_new(id);
	if (!in->view)
		goto err;
	ret = vgsp_ring_be_init(&in->rb, in->area, id, &hostd_link_ops, in);
	if (ret)
		goto err;
	vgsp_ring_be_features(&in->rb, hostd_features);
	in->id = id;
	hostd_tab[id] = in;
	notify_locked();
	mutex_unlock(&hostd_lock);
	return in;
err:
	mutex_unlock(&hostd_lock);
	if (in->view)
		vgsp_view_kill(in->view);
	vfree(in->area);
	kfree(in);
	return ERR_PTR(ret);
}

struct vgsp_ring_be *vgsp_hostd_inst_ring(struct vgsp_hostd_inst *in)
{
	return &in->rb;
}

void vgsp_hostd_inst_bind(struct vgsp_hostd_inst *in, struct vgsp_dev *dev,
			  struct vfio_device *vdev)
{
	vgsp_view_bind(in->view, vdev);
	mutex_lock(&hostd_lock);
	in->dev = dev;
	mutex_unlock(&hostd_lock);
}

/* The VMM opened or closed the device: closed, hostd's view is emptied. */
void vgsp_hostd_inst_open(struct vgsp_hostd_inst *in, bool open)
{
	vgsp_view_set_open(in->view, open);
}

/* The device was reset: the guest starts over, nothing stays pinned. */
void vgsp_hostd_inst_reset(struct vgsp_hostd_inst *in)
{
	vgsp_view_release(in->view);
}

/* The VMM unmapped DMA: the range leaves hostd's view before it goes. */
void vgsp_hostd_inst_dma_unmapped(struct vgsp_hostd_inst *in, u64 iova,
				  u64 len)
{
	vgsp_view_unmapped(in->view, iova, len);
}

/* Before the core goes: whoever waits on hostd returns at once. */
void vgsp_hostd_inst_stop(struct vgsp_hostd_inst *in)
{
	mutex_lock(&hostd_lock);
	in->dev = NULL;
	mutex_unlock(&hostd_lock);
	vgsp_ring_be_fail(&in->rb);
	wake_up_all(&in->wq);
	wait_event(in->wq, !atomic_read(&in->users));
	/* the last user's wake_up_all() is done once it has left the lock */
	mutex_lock(&hostd_lock);
	mutex_unlock(&hostd_lock);
}

/* hostd's mapping, if any, keeps its own references to the pages. */
void vgsp_hostd_inst_free(struct vgsp_hostd_inst *in)
{
	mutex_lock(&hostd_lock);
	hostd_tab[in->id] = NULL;
	notify_locked();
	mutex_unlock(&hostd_lock);
	vgsp_ring_be_fini(&in->rb);
	vgsp_view_kill(in->view);
	vfree(in->area);
	kfree(in);
}

static int hostd_open(struct inode *inode, struct file *file)
{
	return capable(CAP_SYS_ADMIN) ? 0 : -EPERM;
}

/* hostd exited or died: everything it served fails. */
static int hostd_release(struct inode *inode, struct file *file)
{
	unsigned int i;

	mutex_lock(&hostd_lock);
	if (hostd_owner == file) {
		for (i = 0; i < VGSP_HR_MAX_INSTANCES; i++) {
			if (!hostd_tab[i])
				continue;
			vgsp_ring_be_fail(&hostd_tab[i]->rb);
			wake_up_all(&hostd_tab[i]->wq);
			/* its mappings are gone with it: so are the pins */
			vgsp_view_release(hostd_tab[i]->view);
		}
		if (hostd_evt)
			eventfd_ctx_put(hostd_evt);
		hostd_evt = NULL;
		hostd_owner = NULL;
		hostd_st.deaths++;
		pr_info("vgsp: hostd detached; its instances are failed\n");
	}
	mutex_unlock(&hostd_lock);
	return 0;
}

static long hostd_attach(struct file *file, void __user *arg)
{
	struct vgsp_hostd_attach a;
	struct eventfd_ctx *evt;

	if (copy_from_user(&a, arg, sizeof(a)))
		return -EFAULT;
	if (a.version != VGSP_HR_VERSION)
		return -EPROTO;
	if ((a.features & ~VGSP_HR_FEATURES) || a.pad)
		return -EINVAL;
	if (hostd_owner) {
		hostd_st.attach_refused++;
		return -EBUSY;
	}
	evt = eventfd_ctx_fdget(a.event_fd);
	if (IS_ERR(evt))
		return PTR_ERR(evt);
	hostd_evt = evt;
	hostd_owner = file;
	hostd_features = a.features;
	hostd_st.attaches++;
	pr_info("vgsp: hostd attached (pid %d)%s\n", task_tgid_nr(current),
		a.features & VGSP_HR_FEAT_GUEST_VIEW ?
		", maps guest memory itself" : "");
	return 0;
}

static long hostd_list(void __user *arg)
{
	struct vgsp_hostd_list l = { .map_bytes = VGSP_HR_MAP_BYTES };
	unsigned int i;

	for (i = 0; i < VGSP_HR_MAX_INSTANCES; i++) {
		if (!hostd_tab[i])
			continue;
		if (vgsp_ring_be_failed(&hostd_tab[i]->rb))
			l.failed |= 1ULL << i;
		else
			l.serving |= 1ULL << i;
	}
	return copy_to_user(arg, &l, sizeof(l)) ? -EFAULT : 0;
}

static long hostd_kick(void __user *arg)
{
	u32 id;

	if (get_user(id, (u32 __user *)arg))
		return -EFAULT;
	if (id >= VGSP_HR_MAX_INSTANCES || !hostd_tab[id])
		return -ENOENT;
	hostd_st.kicks++;
	wake_up_all(&hostd_tab[id]->wq);
	return 0;
}

static long hostd_ioctl(struct file *file, unsigned int cmd,
			unsigned long arg)
{
	void __user *p = (void __user *)arg;
	long ret;

	mutex_lock(&hostd_lock);
	if (cmd == VGSP_HOSTD_ATTACH) {
		ret = hostd_attach(file, p);
	} else if (cmd == VGSP_HOSTD_ATTACH_V1) {
		pr_warn_ratelimited("vgsp: a hostd of ring version 1 tried to attach; this vgsp.ko speaks version %u: update vgsp-hostd\n",
				    VGSP_HR_VERSION);
		ret = -EPROTO;
	} else if (hostd_owner != file) {
		ret = -EPERM;
	} else if (cmd == VGSP_HOSTD_LIST) {
		ret = hostd_list(p);
	} else if (cmd == VGSP_HOSTD_KICK) {
		ret = hostd_kick(p);
	} else {
		ret = -ENOTTY;
	}
	if (ret && ret != -EBUSY)
		hostd_st.bad_ioctls++;
	mutex_unlock(&hostd_lock);
	return ret;
}

/*
 * Instance id's guest RAM at VGSP_HR_VIEW_OFF(id) (a hostd that asked for
 * it, an instance it serves), any part of it. Lock held.
 */
static int view_mmap(struct vm_area_struct *vma)
{
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	u64 id = off / VGSP_HR_VIEW_BYTES - 1;
	struct vgsp_hostd_inst *in;

	if (!(hostd_features & VGSP_HR_FEAT_GUEST_VIEW) ||
	    id >= VGSP_HR_MAX_INSTANCES)
		return -EINVAL;
	in = hostd_tab[id];
	if (!in || vgsp_ring_be_failed(&in->rb))
		return -ENOENT;
	return vgsp_view_mmap(in->view, vma);
}

/* Instance id's area at offset id * VGSP_HR_MAP_BYTES, whole; or a view. */
static int hostd_mmap(struct file *file, struct vm_area_struct *vma)
{
	unsigned long pages = VGSP_HR_MAP_BYTES >> PAGE_SHIFT;
	struct vgsp_hostd_inst *in;
	int ret = -EINVAL;

	BUILD_BUG_ON(VGSP_HR_MAP_BYTES % PAGE_SIZE);
	BUILD_BUG_ON((u64)VGSP_HR_MAP_BYTES * VGSP_HR_MAX_INSTANCES >
		     VGSP_HR_VIEW_OFF(0));
	mutex_lock(&hostd_lock);
	if (hostd_owner != file) {
		ret = -EPERM;
		goto out;
	}
	if (vma->vm_pgoff >= VGSP_HR_VIEW_OFF(0) >> PAGE_SHIFT) {
		ret = vma->vm_pgoff < VGSP_HR_VIEW_OFF(VGSP_HR_MAX_INSTANCES) >>
			PAGE_SHIFT ? view_mmap(vma) : -EINVAL;
		goto out;
	}
	if (vma->vm_pgoff % pages || vma->vm_pgoff / pages >=
	    VGSP_HR_MAX_INSTANCES ||
	    vma->vm_end - vma->vm_start != VGSP_HR_MAP_BYTES)
		goto out;
	in = hostd_tab[vma->vm_pgoff / pages];
	ret = -ENOENT;
	if (!in || vgsp_ring_be_failed(&in->rb))
		goto out;
	ret = remap_vmalloc_range(vma, in->area, 0);
out:
	mutex_unlock(&hostd_lock);
	return ret;
}

static const struct file_operations hostd_fops = {
	.owner = THIS_MODULE,
	.open = hostd_open,
	.release = hostd_release,
	.unlocked_ioctl = hostd_ioctl,
	.mmap = hostd_mmap,
	.llseek = noop_llseek,
};

static struct miscdevice hostd_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "vgsp-hostd",
	.fops = &hostd_fops,
	.mode = 0600,
};

static int state_show(struct seq_file *s, void *unused)
{
	const struct vgsp_ring_stats *st;
	unsigned int i;

	mutex_lock(&hostd_lock);
	seq_printf(s, "attached %d\nfeatures %u\n", hostd_owner ? 1 : 0,
		   hostd_owner ? hostd_features : 0);
	seq_printf(s, "attaches %llu\nattach_refused %llu\ndeaths %llu\n",
		   hostd_st.attaches, hostd_st.attach_refused,
		   hostd_st.deaths);
	seq_printf(s, "create_refused %llu\nbad_ioctls %llu\nkicks %llu\nwakeups %llu\n",
		   hostd_st.create_refused, hostd_st.bad_ioctls,
		   hostd_st.kicks, hostd_st.wakeups);
	for (i = 0; i < VGSP_HR_MAX_INSTANCES; i++) {
		if (!hostd_tab[i])
			continue;
		st = &hostd_tab[i]->rb.st;
		seq_printf(s, "instance %u %s state %s",
			   i, hostd_tab[i]->dev ? hostd_tab[i]->dev->name : "-",
			   vgsp_ring_be_failed(&hostd_tab[i]->rb) ?
			   "failed" : "serving");
#define VGSP_RING_SHOW(n) seq_printf(s, " " #n " %llu", READ_ONCE(st->n));
		VGSP_RING_STATS(VGSP_RING_SHOW)
#undef VGSP_RING_SHOW
		vgsp_view_show(hostd_tab[i]->view, s);
		seq_puts(s, "\n");
	}
	mutex_unlock(&hostd_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(state);

/*
 * hostd_selftest=1 only: "ID BYTES" copies BYTES of a pattern between two
 * FB ranges of instance ID through its backend, as the fifo worker would,
 * and checks the result. "ID BYTES IOVA" goes through guest RAM: FB ->
 * IOVA (checked there through VFIO), then IOVA -> FB (the VMM must have
 * the device open with IOVA mapped, and Bus Master Enable set); guest RAM
 * is not written first, so the first access to it is hostd's (each run
 * has its own pattern). The write's status is the copy's.
 */
#define SELFTEST_SRC	(64ULL << 20)
#define SELFTEST_DST	(96ULL << 20)
#define SELFTEST_MAX	(16U << 20)

static atomic_t selftest_runs = ATOMIC_INIT(0);

static u8 selftest_byte(u32 i, u32 seed)
{
	return (u8)(i * 7 + 3 + seed * 13);
}

static int selftest_xfer(struct vgsp_dev *dev, struct vgsp_ce_end src,
			 struct vgsp_ce_end dst, u32 bytes)
{
	struct vgsp_ce_xfer x = {
		.src = src, .dst = dst, .line_bytes = bytes, .lines = 1,
	};
	int ret;

	for (;;) {
		ret = dev->backend->ce_xfer(dev, &x);
		if (ret != -EAGAIN)
			return ret;
		cond_resched();
	}
}

/* Fill (@pattern false: zero) or check @bytes at @t/@pa. */
static int selftest_bytes(struct vgsp_dev *dev, enum vgsp_mem_target t,
			  u64 pa, u32 bytes, bool pattern, bool check, u8 *buf,
			  u32 seed)
{
	u32 off, i, n;
	int ret = 0;

	for (off = 0; off < bytes && !ret; off += n) {
		n = min_t(u32, PAGE_SIZE, bytes - off);
		if (check) {
			ret = vgsp_mem_read(dev, t, pa + off, buf, n);
			for (i = 0; i < n && !ret; i++)
				if (buf[i] != selftest_byte(off + i, seed))
					ret = -EBADMSG;
			continue;
		}
		for (i = 0; i < n; i++)
			buf[i] = pattern ? selftest_byte(off + i, seed) : 0;
		ret = vgsp_mem_write(dev, t, pa + off, buf, n);
	}
	return ret;
}

static int selftest_run(struct vgsp_dev *dev, u32 bytes, bool sys, u64 iova)
{
	struct vgsp_ce_end src = { .target = VGSP_MEM_VID, .addr = SELFTEST_SRC };
	struct vgsp_ce_end dst = { .target = VGSP_MEM_VID, .addr = SELFTEST_DST };
	struct vgsp_ce_end ram = { .target = VGSP_MEM_SYS, .addr = iova };
	u32 seed = atomic_inc_return(&selftest_runs);
	u8 *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	int ret;

	if (!buf)
		return -ENOMEM;
	ret = selftest_bytes(dev, VGSP_MEM_VID, SELFTEST_SRC, bytes, true,
			     false, buf, seed);
	if (!ret)
		ret = selftest_bytes(dev, VGSP_MEM_VID, SELFTEST_DST, bytes,
				     false, false, buf, seed);
	if (!ret && sys) {
		ret = selftest_xfer(dev, src, ram, bytes);
		if (!ret)
			ret = selftest_bytes(dev, VGSP_MEM_SYS, iova, bytes,
					     false, true, buf, seed);
		if (!ret)
			ret = selftest_xfer(dev, ram, dst, bytes);
	} else if (!ret) {
		ret = selftest_xfer(dev, src, dst, bytes);
	}
	if (!ret)
		ret = selftest_bytes(dev, VGSP_MEM_VID, SELFTEST_DST, bytes,
				     false, true, buf, seed);
	kfree(buf);
	return ret;
}

/* Run from a kernel thread, as the fifo worker: vfio_dma_rw needs one. */
struct selftest_work {
	struct work_struct work;
	struct vgsp_dev *dev;
	u32 bytes;
	bool sys;
	u64 iova;
	int ret;
};

static void selftest_fn(struct work_struct *work)
{
	struct selftest_work *w = container_of(work, struct selftest_work,
					       work);

	w->ret = selftest_run(w->dev, w->bytes, w->sys, w->iova);
}

static int selftest_in_kthread(struct vgsp_dev *dev, u32 bytes, bool sys,
			       u64 iova)
{
	struct selftest_work w = {
		.dev = dev, .bytes = bytes, .sys = sys, .iova = iova,
	};

	INIT_WORK_ONSTACK(&w.work, selftest_fn);
	queue_work(system_unbound_wq, &w.work);
	flush_work(&w.work);
	destroy_work_on_stack(&w.work);
	return w.ret;
}

static ssize_t selftest_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	struct vgsp_hostd_inst *in;
	struct vgsp_dev *dev;
	char buf[64];
	u32 id, bytes;
	u64 iova = 0;
	int ret, n;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = 0;
	n = sscanf(buf, "%u %u %llx", &id, &bytes, &iova);
	if (n < 2 || !bytes || bytes > SELFTEST_MAX ||
	    id >= VGSP_HR_MAX_INSTANCES || iova > U64_MAX - bytes)
		return -EINVAL;
	/* vgsp_hostd_inst_stop() waits for users before the core goes */
	mutex_lock(&hostd_lock);
	in = hostd_tab[id];
	dev = in ? in->dev : NULL;
	if (dev)
		atomic_inc(&in->users);
	mutex_unlock(&hostd_lock);
	if (!dev)
		return -ENOENT;
	ret = selftest_in_kthread(dev, bytes, n == 3, iova);
	mutex_lock(&hostd_lock);
	if (atomic_dec_and_test(&in->users))
		wake_up_all(&in->wq);
	mutex_unlock(&hostd_lock);
	return ret ? ret : len;
}

static const struct file_operations selftest_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = selftest_write,
	.llseek = noop_llseek,
};

int vgsp_hostd_init(void)
{
	int ret = misc_register(&hostd_misc);

	if (ret)
		return ret;
	hostd_dbg = debugfs_create_dir("vgsp-hostd", NULL);
	debugfs_create_file("state", 0444, hostd_dbg, NULL, &state_fops);
	if (hostd_selftest)
		debugfs_create_file("selftest", 0200, hostd_dbg, NULL,
				    &selftest_fops);
	return 0;
}

void vgsp_hostd_exit(void)
{
	debugfs_remove_recursive(hostd_dbg);
	misc_deregister(&hostd_misc);
}
