// SPDX-License-Identifier: GPL-2.0
/*
 * vgsp.ko entry: recipe arguments (validated, fail closed), the virtual
 * parent device, one mdev type per profile, frame-buffer budget accounting
 * and instance probe/remove.
 */
#include <linux/device.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "vgsp_compat.h"
#include "vgsp_drv.h"
#include "gsp/gsp.h"

static char *backend = "sim";
module_param(backend, charp, 0444);
MODULE_PARM_DESC(backend,
		 "what executes guest GPU work: sim (default) or hostd (the daemon attached to /dev/vgsp-hostd)");
bool vgsp_backend_hostd;

static char *phys_gpu = "";
module_param(phys_gpu, charp, 0444);
MODULE_PARM_DESC(phys_gpu,
		 "PCI address DDDD:BB:DD.F of the NVIDIA GPU backing instances (empty: none)");

static unsigned int fb_budget_gib = 80;
module_param(fb_budget_gib, uint, 0444);
MODULE_PARM_DESC(fb_budget_gib,
		 "total guest frame buffer in GiB shared by all instances (1..1024, default 80)");

static unsigned int max_instances = 16;
module_param(max_instances, uint, 0444);
MODULE_PARM_DESC(max_instances, "cap on instances of all types (1..64, default 16)");

unsigned int vgsp_msix_vectors = 8;
module_param_named(msix_vectors, vgsp_msix_vectors, uint, 0444);
MODULE_PARM_DESC(msix_vectors, "MSI-X vectors per instance (1..64, default 8)");

/* 32 MiB of kernel memory per instance, allocated at creation: opt-in. */
bool vgsp_bar3_mmap;
module_param_named(bar3_mmap, vgsp_bar3_mmap, bool, 0444);
MODULE_PARM_DESC(bar3_mmap,
		 "BAR3 mappable by the user (32 MiB of memory per instance; default 0: every BAR3 access traps)");

/*
 * BAR1 mapped by the user, page by page through CPU-RM's BAR1 tables
 * (core/mm/bar1_map.h): on since the stock guest's rung 2 passed through
 * vgsp.ko with it (results/20261203T1616Z-bar1-mmap/).
 */
bool vgsp_bar1_mmap = true;
module_param_named(bar1_mmap, vgsp_bar1_mmap, bool, 0444);
MODULE_PARM_DESC(bar1_mmap,
		 "BAR1 mappable by the user, faulted page by page (default 1; 0: every BAR1 access traps)");

/* The RPC fast path's budget (core/gsp/gsp.h); also writable at run time. */
static int rpc_inline_set(const char *val, const struct kernel_param *kp)
{
	unsigned int us;

	if (kstrtouint(val, 0, &us) || us > VGSP_RPC_INLINE_US_MAX) {
		pr_err("vgsp: rpc_inline_us: '%s' out of range 0..%u\n", val,
		       VGSP_RPC_INLINE_US_MAX);
		return -EINVAL;
	}
	WRITE_ONCE(*(unsigned int *)kp->arg, us);
	return 0;
}

static const struct kernel_param_ops rpc_inline_ops = {
	.set = rpc_inline_set,
	.get = param_get_uint,
};

module_param_cb(rpc_inline_us, &rpc_inline_ops, &vgsp_rpc_inline_us, 0644);
MODULE_PARM_DESC(rpc_inline_us,
		 "microseconds a GSP doorbell may spend answering small RPCs itself (0: the worker answers all; 0..10000, default 100)");

/* The GSP queues' pages kept pinned (vgsp_pincache.c); writable for A/B. */
bool vgsp_pin_queues = true;
module_param_named(pin_queues, vgsp_pin_queues, bool, 0644);
MODULE_PARM_DESC(pin_queues,
		 "keep the guest pages of the GSP queues pinned while in use (default Y; N: every access through vfio_dma_rw)");

/* Module-wide accounting: the FB budget and the instance count. */
static DEFINE_MUTEX(vgsp_budget_lock);
static u64 fb_used;
static unsigned int ninstances;
static unsigned int ntype_instances[8];

static struct class vgsp_class = {
	.name = VGSP_NAME,
	VGSP_CLASS_OWNER
};

static struct device vgsp_parent_dev;
static struct mdev_parent vgsp_parent;
static struct vgsp_type *vgsp_types;
static struct mdev_type **vgsp_type_ptrs;

static unsigned int type_index(const struct vgsp_profile *p)
{
	return p - vgsp_profiles;
}

static unsigned int available_for(const struct vgsp_profile *p)
{
	u64 budget = (u64)fb_budget_gib * VGSP_GIB;
	unsigned int by_fb, by_cap;

	by_fb = vgsp_profile_fit(p, budget - fb_used);
	by_cap = max_instances - ninstances;
	return min(by_fb, by_cap);
}

static unsigned int vgsp_get_available(struct mdev_type *mtype)
{
	struct vgsp_type *t = container_of(mtype, struct vgsp_type, type);
	unsigned int n;

	mutex_lock(&vgsp_budget_lock);
	n = available_for(t->profile);
	mutex_unlock(&vgsp_budget_lock);
	return n;
}

static ssize_t vgsp_show_description(struct mdev_type *mtype, char *buf)
{
	const struct vgsp_profile *p =
		container_of(mtype, struct vgsp_type, type)->profile;

	return sysfs_emit(buf,
			  "fb=%lluGiB id=%04x:%04x sub=%04x:%04x chip=%s bar1=%lluMiB max_instances=%u\n",
			  p->fb_size / VGSP_GIB, p->vendor, p->device,
			  p->subsys_vendor, p->subsys_device, p->chip->name,
			  p->bar1_size / VGSP_MIB,
			  min_t(unsigned int, max_instances,
				vgsp_profile_fit(p, (u64)fb_budget_gib *
						 VGSP_GIB)));
}

static int reserve(const struct vgsp_profile *p)
{
	int ret = -ENOSPC;

	mutex_lock(&vgsp_budget_lock);
	if (available_for(p)) {
		fb_used += p->fb_size;
		ninstances++;
		ntype_instances[type_index(p)]++;
		ret = 0;
	}
	mutex_unlock(&vgsp_budget_lock);
	return ret;
}

static void unreserve(const struct vgsp_profile *p)
{
	mutex_lock(&vgsp_budget_lock);
	fb_used -= p->fb_size;
	ninstances--;
	ntype_instances[type_index(p)]--;
	mutex_unlock(&vgsp_budget_lock);
}

static int vgsp_probe(struct mdev_device *mdev)
{
	const struct vgsp_profile *p =
		container_of(mdev->type, struct vgsp_type, type)->profile;
	struct vgsp_mdev *vm;
	int ret;

	ret = reserve(p);
	if (ret) {
		dev_info(&mdev->dev, "no room for another %s instance\n", p->id);
		return ret;
	}
	vm = vfio_alloc_device(vgsp_mdev, vdev, &mdev->dev, &vgsp_vfio_ops);
	if (IS_ERR(vm)) {
		unreserve(p);
		return PTR_ERR(vm);
	}
	ret = vfio_register_emulated_iommu_dev(&vm->vdev);
	if (ret) {
		vfio_put_device(&vm->vdev);
		unreserve(p);
		return ret;
	}
	dev_set_drvdata(&mdev->dev, vm);
	vgsp_debugfs_add(vm);
	/*
	 * Each instance pins the module: rmmod must not silently destroy a
	 * vGPU a VM definition refers to. Remove instances first.
	 */
	__module_get(THIS_MODULE);
	dev_info(&mdev->dev, "created %s (%s)\n", p->id, p->name);
	return 0;
}

/* Blocks (asking the user via the request IRQ) until the device is closed. */
static void vgsp_remove(struct mdev_device *mdev)
{
	struct vgsp_mdev *vm = dev_get_drvdata(&mdev->dev);
	const struct vgsp_profile *p = vm->profile;

	vfio_unregister_group_dev(&vm->vdev);
	vgsp_debugfs_remove(vm);
	vfio_put_device(&vm->vdev);
	unreserve(p);
	dev_info(&mdev->dev, "removed\n");
	module_put(THIS_MODULE);
}

static struct mdev_driver vgsp_mdev_driver = {
	.device_api = VFIO_DEVICE_API_PCI_STRING,
	.driver = {
		.name = VGSP_NAME,
		.owner = THIS_MODULE,
		.mod_name = KBUILD_MODNAME,
	},
	.probe = vgsp_probe,
	.remove = vgsp_remove,
	.get_available = vgsp_get_available,
	.show_description = vgsp_show_description,
};

void vgsp_summary_show(struct seq_file *s)
{
	unsigned int i;

	mutex_lock(&vgsp_budget_lock);
	seq_printf(s, "backend %s\n", backend);
	seq_printf(s, "phys_gpu %s\n", *phys_gpu ? phys_gpu : "none");
	seq_printf(s, "fb_budget_gib %u\n", fb_budget_gib);
	seq_printf(s, "fb_used_gib %llu\n", fb_used / VGSP_GIB);
	seq_printf(s, "max_instances %u\n", max_instances);
	seq_printf(s, "instances %u\n", ninstances);
	for (i = 0; i < vgsp_nprofiles; i++)
		seq_printf(s, "type %s instances %u available %u\n",
			   vgsp_profiles[i].id, ntype_instances[i],
			   available_for(&vgsp_profiles[i]));
	mutex_unlock(&vgsp_budget_lock);
}

/* Recipe checks: one line naming the parameter and the reason. */
static int check_phys_gpu(void)
{
	unsigned int dom, bus, slot, fn;
	struct pci_dev *pdev;
	char tail;
	int ret = 0;

	if (!*phys_gpu)
		return 0;
	if (sscanf(phys_gpu, "%x:%x:%x.%x%c", &dom, &bus, &slot, &fn,
		   &tail) != 4 || bus > 0xff || slot > 0x1f || fn > 7) {
		pr_err("vgsp: phys_gpu: '%s' is not a PCI address DDDD:BB:DD.F\n",
		       phys_gpu);
		return -EINVAL;
	}
	pdev = pci_get_domain_bus_and_slot(dom, bus, PCI_DEVFN(slot, fn));
	if (!pdev) {
		pr_err("vgsp: phys_gpu: no PCI device at %s\n", phys_gpu);
		return -ENODEV;
	}
	if (pdev->vendor != PCI_VENDOR_ID_NVIDIA) {
		pr_err("vgsp: phys_gpu: %s is %04x:%04x, not an NVIDIA GPU\n",
		       phys_gpu, pdev->vendor, pdev->device);
		ret = -ENODEV;
	} else {
		pr_info("vgsp: phys_gpu: %s is %04x:%04x; the sim backend does not use it yet\n",
			phys_gpu, pdev->vendor, pdev->device);
	}
	pci_dev_put(pdev);
	return ret;
}

static int check_params(void)
{
	if (strcmp(backend, "sim") && strcmp(backend, "hostd")) {
		pr_err("vgsp: backend: unknown backend '%s' (valid: sim, hostd)\n",
		       backend);
		return -EINVAL;
	}
	vgsp_backend_hostd = !strcmp(backend, "hostd");
	if (fb_budget_gib < 1 || fb_budget_gib > 1024) {
		pr_err("vgsp: fb_budget_gib: %u out of range 1..1024\n",
		       fb_budget_gib);
		return -EINVAL;
	}
	if (max_instances < 1 || max_instances > 64) {
		pr_err("vgsp: max_instances: %u out of range 1..64\n",
		       max_instances);
		return -EINVAL;
	}
	if (vgsp_msix_vectors < 1 || vgsp_msix_vectors > VGSP_MSIX_MAX) {
		pr_err("vgsp: msix_vectors: %u out of range 1..%u\n",
		       vgsp_msix_vectors, VGSP_MSIX_MAX);
		return -EINVAL;
	}
	return check_phys_gpu();
}

static void vgsp_parent_release(struct device *dev)
{
}

static int register_types(void)
{
	unsigned int i;

	BUILD_BUG_ON(ARRAY_SIZE(ntype_instances) < 4);
	if (vgsp_nprofiles > ARRAY_SIZE(ntype_instances))
		return -EINVAL;
	vgsp_types = kcalloc(vgsp_nprofiles, sizeof(*vgsp_types), GFP_KERNEL);
	vgsp_type_ptrs = kcalloc(vgsp_nprofiles, sizeof(*vgsp_type_ptrs),
				 GFP_KERNEL);
	if (!vgsp_types || !vgsp_type_ptrs)
		return -ENOMEM;
	for (i = 0; i < vgsp_nprofiles; i++) {
		vgsp_types[i].profile = &vgsp_profiles[i];
		vgsp_types[i].type.sysfs_name = vgsp_profiles[i].id;
		vgsp_types[i].type.pretty_name = vgsp_profiles[i].name;
		vgsp_type_ptrs[i] = &vgsp_types[i].type;
	}
	return mdev_register_parent(&vgsp_parent, &vgsp_parent_dev,
				    &vgsp_mdev_driver, vgsp_type_ptrs,
				    vgsp_nprofiles);
}

static int __init vgsp_init(void)
{
	int ret;

	ret = check_params();
	if (ret)
		return ret;
	vgsp_os_set(&vgsp_linux_os_ops);

	ret = mdev_register_driver(&vgsp_mdev_driver);
	if (ret)
		return ret;
	ret = class_register(&vgsp_class);
	if (ret)
		goto err_driver;
	device_initialize(&vgsp_parent_dev);
	vgsp_parent_dev.class = &vgsp_class;
	vgsp_parent_dev.release = vgsp_parent_release;
	ret = dev_set_name(&vgsp_parent_dev, VGSP_NAME);
	if (ret)
		goto err_put;
	ret = device_add(&vgsp_parent_dev);
	if (ret)
		goto err_put;
	ret = vgsp_debugfs_init();
	if (ret)
		goto err_del;
	if (vgsp_backend_hostd) {
		ret = vgsp_hostd_init();
		if (ret)
			goto err_debugfs;
	}
	ret = register_types();
	if (ret)
		goto err_hostd;
	pr_info("vgsp: loaded: backend=%s fb_budget_gib=%u max_instances=%u msix_vectors=%u, %u types\n",
		backend, fb_budget_gib, max_instances, vgsp_msix_vectors,
		vgsp_nprofiles);
	return 0;

err_hostd:
	if (vgsp_backend_hostd)
		vgsp_hostd_exit();
err_debugfs:
	vgsp_debugfs_exit();
err_del:
	device_del(&vgsp_parent_dev);
err_put:
	put_device(&vgsp_parent_dev);
	class_unregister(&vgsp_class);
err_driver:
	mdev_unregister_driver(&vgsp_mdev_driver);
	kfree(vgsp_types);
	kfree(vgsp_type_ptrs);
	return ret;
}

static void __exit vgsp_exit(void)
{
	/* Removes every remaining instance first. */
	mdev_unregister_parent(&vgsp_parent);
	if (vgsp_backend_hostd)
		vgsp_hostd_exit();
	vgsp_debugfs_exit();
	device_del(&vgsp_parent_dev);
	put_device(&vgsp_parent_dev);
	class_unregister(&vgsp_class);
	mdev_unregister_driver(&vgsp_mdev_driver);
	kfree(vgsp_types);
	kfree(vgsp_type_ptrs);
	pr_info("vgsp: unloaded\n");
}

module_init(vgsp_init);
module_exit(vgsp_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Open-IOV vgsp: mediated NVIDIA GPU with an emulated GSP");
MODULE_IMPORT_NS(VGSP_NS(IOMMUFD));
