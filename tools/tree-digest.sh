#!/bin/sh
# tree-digest.sh — the digest scripts/h200/rung3.sh records as "sources:" for the tree it ran
# (C sources, headers and shell scripts under kernel/ userspace/ scripts/ tests/), so a device
# run can be matched to a local checkout: run it in the checkout and compare.
cd "$(dirname "$0")/.." || exit 2
find kernel userspace scripts tests -type f \( -name '*.[ch]' -o -name '*.sh' \) 2>/dev/null |
	LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16
