// SPDX-License-Identifier: GPL-2.0
/*
 * Read-only debugfs surface: vgsp/summary and vgsp/<uuid>/<view> for every
 * core and GSP view. Files are created mode 0444 and have no write op.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "vgsp_drv.h"
#include "view.h"
#include "gsp/gsp.h"

struct vgsp_dbg_file {
	struct vgsp_mdev *vm;
	const struct vgsp_view *view;
};

static struct dentry *vgsp_dbg_root;

static void seq_print_cb(struct vgsp_printer *p, const char *fmt, ...)
{
	struct va_format vaf;
	va_list ap;

	va_start(ap, fmt);
	vaf.fmt = fmt;
	vaf.va = &ap;
	seq_printf(p->ctx, "%pV", &vaf);
	va_end(ap);
}

static int view_show(struct seq_file *s, void *unused)
{
	struct vgsp_dbg_file *f = s->private;
	struct vgsp_printer p = { .print = seq_print_cb, .ctx = s };

	f->view->show(f->vm->core, &p);
	/* The frontend's own state belongs with the identity. */
	if (!strcmp(f->view->name, "info")) {
		seq_printf(s, "open %d\n", READ_ONCE(f->vm->open) ? 1 : 0);
		seq_printf(s, "irq_mode %s\n", vgsp_irq_mode_name(f->vm));
	}
	return 0;
}

static int view_open(struct inode *inode, struct file *file)
{
	return single_open(file, view_show, inode->i_private);
}

static const struct file_operations view_fops = {
	.owner = THIS_MODULE,
	.open = view_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

static int summary_show(struct seq_file *s, void *unused)
{
	vgsp_summary_show(s);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(summary);

int vgsp_debugfs_init(void)
{
	vgsp_dbg_root = debugfs_create_dir(VGSP_NAME, NULL);
	if (IS_ERR(vgsp_dbg_root))
		return 0;	/* debugfs off: counters only via the core */
	debugfs_create_file("summary", 0444, vgsp_dbg_root, NULL,
			    &summary_fops);
	return 0;
}

void vgsp_debugfs_exit(void)
{
	debugfs_remove_recursive(vgsp_dbg_root);
}

void vgsp_debugfs_add(struct vgsp_mdev *vm)
{
	unsigned int n = vgsp_core_nviews + vgsp_gsp_nviews, i, k = 0;

	if (IS_ERR_OR_NULL(vgsp_dbg_root))
		return;
	vm->dbg_files = kcalloc(n, sizeof(*vm->dbg_files), GFP_KERNEL);
	if (!vm->dbg_files)
		return;
	vm->dbg_dir = debugfs_create_dir(dev_name(&vm->mdev->dev),
					 vgsp_dbg_root);
	for (i = 0; i < vgsp_core_nviews; i++, k++) {
		vm->dbg_files[k].vm = vm;
		vm->dbg_files[k].view = &vgsp_core_views[i];
	}
	for (i = 0; i < vgsp_gsp_nviews; i++, k++) {
		vm->dbg_files[k].vm = vm;
		vm->dbg_files[k].view = &vgsp_gsp_views[i];
	}
	for (k = 0; k < n; k++)
		debugfs_create_file(vm->dbg_files[k].view->name, 0444,
				    vm->dbg_dir, &vm->dbg_files[k], &view_fops);
	vgsp_pincache_debugfs(&vm->pins, vm->core, vm->dbg_dir);
}

/* debugfs waits for readers in flight before the files go away. */
void vgsp_debugfs_remove(struct vgsp_mdev *vm)
{
	debugfs_remove_recursive(vm->dbg_dir);
	vm->dbg_dir = NULL;
	kfree(vm->dbg_files);
	vm->dbg_files = NULL;
}
