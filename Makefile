# Open-IOV vgsp — userspace builds of the core, unit tests and helpers.
# The kernel module is built per kernel by scripts/stack_manager.sh
# (make module KDIR=<headers>); CI calls ./scripts/stack_manager.sh test.

O ?= build
CC ?= gcc
CFLAGS_COMMON := -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
	-Wno-missing-field-initializers
CORE_CFLAGS := -std=gnu11 $(CFLAGS_COMMON) -fPIC -Ikernel/core -Iuserspace/lib
TEST_CFLAGS := -std=gnu11 $(CFLAGS_COMMON) -Ikernel/core -Iuserspace/lib \
	-Itests/unit

CORE_SRCS := $(shell find kernel/core -name '*.c' | sort)
CORE_OBJS := $(patsubst %.c,$(O)/%.o,$(CORE_SRCS))
OSU_SRCS := $(wildcard userspace/lib/*.c)
OSU_OBJS := $(patsubst %.c,$(O)/%.o,$(OSU_SRCS))
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(patsubst tests/unit/%.c,$(O)/tests/%,$(UNIT_SRCS))
UNIT_HELPERS := $(wildcard tests/unit/helpers/*.c)

.PHONY: all core unit-build unit vm-bin module clean
all: core unit-build

core: $(O)/libvgspcore.a $(O)/libvgsp_os_user.a

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CORE_CFLAGS) -MMD -MP -c $< -o $@

$(O)/libvgspcore.a: $(CORE_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(O)/libvgsp_os_user.a: $(OSU_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(O)/tests/%: tests/unit/%.c $(UNIT_HELPERS) $(O)/libvgspcore.a $(O)/libvgsp_os_user.a
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -MMD -MP -MF $@.d $< $(UNIT_HELPERS) $(TEST_EXTRA) -o $@ \
		$(O)/libvgspcore.a $(O)/libvgsp_os_user.a -lcmocka -lpthread

# The ring test runs hostd's end of the ring (userspace/hostd) in-process.
HOSTD_SERVE_SRCS := $(addprefix userspace/hostd/,ring_serve.c sim_backend.c \
	ce_interp.c pb.c)
$(O)/tests/test_hostd_ring: $(HOSTD_SERVE_SRCS)
$(O)/tests/test_hostd_ring: TEST_EXTRA := $(HOSTD_SERVE_SRCS) \
	-Iuserspace/hostd/include

unit-build: $(UNIT_BINS)

# Runs every unit binary; prints one "N passed, N failed" line at the end.
unit: unit-build
	@sh tests/run_cmocka.sh $(UNIT_BINS)

# Static guest binaries for the VM tests land in $(O)/vm-bin/.
vm-bin:
	@mkdir -p $(O)/vm-bin
	@for d in tests/vm tests/replay tools/vgsp-smi userspace/hostd; do \
		if [ -f $$d/Makefile ]; then \
			$(MAKE) -C $$d vm-bin OUTDIR=$(CURDIR)/$(O)/vm-bin || exit 1; \
		fi; \
	done

# make module KDIR=/path/to/linux-headers-<rel>: builds vgsp.ko for that
# kernel in $(O)/mod-<rel>/ (a copy, so two kernels never share objects).
module:
	@test -n "$(KDIR)" || { echo "make module: set KDIR=<kernel headers>" >&2; exit 1; }
	@rel=$$(basename $(KDIR) | sed 's/^linux-headers-//'); \
	 d=$(CURDIR)/$(O)/mod-$$rel; rm -rf $$d; mkdir -p $$d; \
	 cp -r kernel/. $$d/; \
	 $(MAKE) -C $(KDIR) M=$$d modules && echo "built $$d/vgsp.ko"

clean:
	rm -rf $(O)

-include $(CORE_OBJS:.o=.d) $(OSU_OBJS:.o=.d) $(UNIT_BINS:=.d)
