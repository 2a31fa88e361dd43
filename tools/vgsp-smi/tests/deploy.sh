# shellcheck shell=sh
# docs/deploy.md's recipes, tested where the tool exists here. Sourced by
# tests/run.sh (same PASS/FAIL counters). Every recipe is read from the code
# block after its "<!-- test: NAME -->" marker, so the page is what is tested.
DOC=$ROOT/docs/deploy.md
DEP=$HERE/../deploy
# block NAME: the fenced block after the marker
block() {
	awk -v m="<!-- test: $1 -->" '$0 == m { f = 1; next }
		f && /^```/ { if (inb) exit; inb = 1; next }
		f && inb { print }' "$DOC"
}
for b in dkms.conf mdevctl libvirt-domain.xml kubevirt.yaml nova.conf; do
	block "$b" > "$T/deploy-$b"
	if [ -s "$T/deploy-$b" ]; then pass "deploy.doc.$b"; else fail "deploy.doc.$b" "no block after <!-- test: $b --> in $DOC"; fi
done

# The type ids and names vgsp registers (kernel/core/profiles.c; sysfs adds "vgsp-").
sed -nE 's/.*\("([a-z0-9-]+)", "([A-Za-z0-9-]+)", [0-9]+, [0-9]+\).*/vgsp-\1 \2/p' \
	"$ROOT/kernel/core/profiles.c" > "$T/types"
eq deploy.names.profiles "$(wc -l < "$T/types")" 4
for b in mdevctl libvirt-domain.xml kubevirt.yaml nova.conf; do
	_bad=
	for id in $(grep -oE 'vgsp-h100-[0-9a-z]+' "$T/deploy-$b" | sort -u); do
		grep -q "^$id " "$T/types" || _bad="$_bad $id"
	done
	for nm in $(grep -oE 'H100-SXM5-[0-9A-Z]+' "$T/deploy-$b" | sort -u); do
		grep -q " $nm\$" "$T/types" || _bad="$_bad $nm"
	done
	eq "deploy.names.$b" "${_bad:-ok}" ok
done
# KubeVirt: the selector is the name of the type it creates
_t=$(sed -n '/mediatedDeviceTypes:/{n;s/.*- //p;}' "$T/deploy-kubevirt.yaml")
_s=$(sed -n 's/.*mdevNameSelector: //p' "$T/deploy-kubevirt.yaml")
eq deploy.names.kubevirt_selector "$(awk -v t="$_t" '$1 == t { print $2 }' "$T/types")" "$_s"

# libvirt: the domain validates against libvirt's own schema; a broken one does not.
if command -v virt-xml-validate > /dev/null; then
	cp "$T/deploy-libvirt-domain.xml" "$T/vgsp-guest.xml"
	_o=$(virt-xml-validate "$T/vgsp-guest.xml" domain 2>&1)
	eq deploy.libvirt.validates "$?:$_o" "0:$T/vgsp-guest.xml validates"
	sed "s/model='vfio-pci'/model='vfio-bogus'/" "$T/vgsp-guest.xml" > "$T/bad-guest.xml"
	virt-xml-validate "$T/bad-guest.xml" domain > /dev/null 2>&1
	check_rc=$?
	if [ "$check_rc" != 0 ]; then pass deploy.libvirt.rejects_bad_model; else fail deploy.libvirt.rejects_bad_model "model='vfio-bogus' validated"; fi
	grep -q "<hostdev mode='subsystem' type='mdev' model='vfio-pci'" "$T/vgsp-guest.xml" &&
		pass deploy.libvirt.mdev_hostdev || fail deploy.libvirt.mdev_hostdev "no mdev hostdev in the block"
else
	skip deploy.libvirt "no virt-xml-validate (apt-get install libvirt-clients)"
fi

# DKMS: add + build against the rig's cached Debian 6.12 headers, private trees.
if ! cmp -s "$T/deploy-dkms.conf" "$DEP/dkms.conf"; then
	fail deploy.dkms.conf_matches "docs/deploy.md's dkms.conf differs from tools/vgsp-smi/deploy/dkms.conf"
else
	pass deploy.dkms.conf_matches
fi
_hdr=$(ls -d "$ROOT"/.cache/kernels/6.12*/root/usr/src/linux-headers-*-amd64 2>/dev/null | head -n 1)
if ! command -v dkms > /dev/null; then
	skip deploy.dkms "no dkms (apt-get install dkms)"
elif [ -z "$_hdr" ]; then
	skip deploy.dkms "no cached 6.12 headers yet (the vm-6.12 suite unpacks them)"
else
	_krel=${_hdr##*/linux-headers-}
	_v=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$DEP/dkms.conf")
	_src=$T/dkms-src/vgsp-$_v
	mkdir -p "$_src" "$T/dkms-tree"
	# kernel/ as committed when this is a git checkout (others may be mid-edit), else as is
	if git -C "$ROOT" rev-parse --verify -q HEAD > /dev/null 2>&1; then
		git -C "$ROOT" archive HEAD kernel | tar -x -C "$T/dkms-src" && cp -R "$T/dkms-src/kernel/." "$_src/"
	else
		cp -R "$ROOT/kernel/." "$_src/"
	fi
	cp "$DEP/dkms.conf" "$_src/"
	if dkms add -m vgsp -v "$_v" --sourcetree "$T/dkms-src" --dkmstree "$T/dkms-tree" > "$T/dkms.log" 2>&1; then
		pass deploy.dkms.add
	else
		fail deploy.dkms.add "$(tail -n 3 "$T/dkms.log")"
	fi
	_t0=$(date +%s)
	if dkms build -m vgsp -v "$_v" -k "$_krel" --kernelsourcedir "$_hdr" \
		--sourcetree "$T/dkms-src" --dkmstree "$T/dkms-tree" >> "$T/dkms.log" 2>&1; then
		pass deploy.dkms.build
	else
		fail deploy.dkms.build "$(tail -n 5 "$T/dkms.log"; tail -n 15 "$T"/dkms-tree/vgsp/"$_v"/build/make.log 2>/dev/null)"
	fi
	echo "dkms build: $(($(date +%s) - _t0)) s for $_krel"
	_ko=$(find "$T/dkms-tree/vgsp/$_v/$_krel" -name 'vgsp.ko*' 2>/dev/null | head -n 1)
	if [ -n "$_ko" ]; then
		eq deploy.dkms.vermagic "$(modinfo -F vermagic "$_ko" | cut -d' ' -f1)" "$_krel"
		eq deploy.dkms.name "$(modinfo -F name "$_ko")" vgsp
		check_p=$(modinfo -F parm "$_ko" | cut -d: -f1 | sort | tr '\n' ' ')
		eq deploy.dkms.params "$check_p" "backend bar1_mmap bar3_mmap fb_budget_gib hostd_pin_pages hostd_selftest max_instances msix_vectors phys_gpu pin_queues rpc_inline_us "
	else
		fail deploy.dkms.module "no vgsp.ko under $T/dkms-tree/vgsp/$_v/$_krel"
	fi
fi
