#!/bin/sh
# sysfs and debugfs layout of a freshly loaded vgsp.ko (docs/interfaces.md).
. /lib/rig.sh

check sysfs.parent "no /sys/devices/virtual/vgsp/vgsp" test -d /sys/devices/virtual/vgsp/vgsp
check sysfs.mdev_bus "/sys/class/mdev_bus/vgsp missing" test -e /sys/class/mdev_bus/vgsp
eq sysfs.types "$(ls "$TYPES" | tr '\n' ' ')" "vgsp-h100-10g vgsp-h100-20g vgsp-h100-40g vgsp-h100-80g "

# type name FB-GiB BAR1-MiB default-available (= the most that fit an empty budget)
for t in "h100-10g H100-SXM5-10GB 10 256 8" "h100-20g H100-SXM5-20GB 20 512 4" \
	 "h100-40g H100-SXM5-40GB 40 1024 2" "h100-80g H100-SXM5-80GB 80 2048 1"; do
	set -- $t
	d=$TYPES/vgsp-$1
	eq "sysfs.$1.name" "$(cat "$d/name")" "$2"
	eq "sysfs.$1.device_api" "$(cat "$d/device_api")" vfio-pci
	eq "sysfs.$1.available" "$(cat "$d/available_instances")" "$5"
	eq "sysfs.$1.description" "$(cat "$d/description")" \
		"fb=${3}GiB id=10de:2330 sub=10de:16c1 chip=GH100 bar1=${4}MiB max_instances=$5"
	check "sysfs.$1.devices_dir" "no devices/" test -d "$d/devices"
done

# Module parameters: defaults, read-only.
for p in "backend sim" "phys_gpu " "fb_budget_gib 80" "max_instances 16" "msix_vectors 8"; do
	set -- $p
	eq "params.$1.default" "$(cat "$PARAMS/$1")" "${2:-}"
	eq "params.$1.mode" "$(stat -c %a "$PARAMS/$1")" 444
done

# debugfs summary
s=$DBG/summary
if [ -r "$s" ]; then
	eq debugfs.summary.backend "$(kv "$s" backend)" sim
	eq debugfs.summary.fb_budget "$(kv "$s" fb_budget_gib)" 80
	eq debugfs.summary.fb_used "$(kv "$s" fb_used_gib)" 0
	eq debugfs.summary.max_instances "$(kv "$s" max_instances)" 16
	eq debugfs.summary.instances "$(kv "$s" instances)" 0
	eq debugfs.summary.type_10g "$(grep '^type h100-10g ' "$s")" "type h100-10g instances 0 available 8"
	eq debugfs.summary.type_80g "$(grep '^type h100-80g ' "$s")" "type h100-80g instances 0 available 1"
else
	fail debugfs.summary "no $s"
fi

# An instance appears in sysfs, the type's devices/ and debugfs.
if u=$(mk h100-20g); then
	check sysfs.instance "no $DEVS/$u" test -d "$DEVS/$u"
	check sysfs.instance_in_type "not under devices/" test -e "$TYPES/vgsp-h100-20g/devices/$u"
	eq sysfs.instance_type "$(basename "$(readlink "$DEVS/$u/mdev_type")")" vgsp-h100-20g
	check sysfs.instance_iommu_group "no iommu_group" test -e "$DEVS/$u/iommu_group"
	check debugfs.instance_dir "no $DBG/$u/counters" test -r "$DBG/$u/counters"
	eq debugfs.info.type "$(kv "$DBG/$u/info" type)" h100-20g
	eq debugfs.summary.fb_used_after "$(kv "$s" fb_used_gib)" 20
	eq debugfs.summary.instances_after "$(kv "$s" instances)" 1
	eq sysfs.available_after.20g "$(avail h100-20g)" 3
	eq sysfs.available_after.80g "$(avail h100-80g)" 0
	eq sysfs.available_after.10g "$(avail h100-10g)" 6
	rm_inst "$u"
	check sysfs.instance_removed "$DEVS/$u still there" test ! -e "$DEVS/$u"
	check debugfs.instance_removed "$DBG/$u still there" test ! -e "$DBG/$u"
	eq sysfs.available_restored "$(avail h100-80g)" 1
else
	fail sysfs.instance "create of vgsp-h100-20g failed"
fi
