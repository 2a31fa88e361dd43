#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Write the named seed inputs of the fuzz targets into corpus/<target>/.

Seeds come from the repository's own data: the pushbuffers of
tests/unit/test_fifo.c (CPU-RM's fast scrubber, compute inline transfer,
empty-grid launch), the synthetic cubin of userspace/hostd/tests/
test_cubin.c, the register offsets of the core and the boot sequence of
tests/replay/replay.c. Run from tests/fuzz: ./mkseeds.py
"""
import os
import struct

def u8(v): return struct.pack('<B', v & 0xff)
def u16(v): return struct.pack('<H', v & 0xffff)
def u32(v): return struct.pack('<I', v & 0xffffffff)
def u64(v): return struct.pack('<Q', v & 0xffffffffffffffff)
def dw(*a): return b''.join(u32(x) for x in a)

# tests/unit/test_fifo.c
SCRUB = [0x20010000, 0x0000c8b5, 0x200101c0, 0, 0x200101c1, 0,
         0x200101c2, 0x5, 0x20010099, 0, 0x20020102, 0, 0x400000,
         0x20010106, 0x20000, 0x20030090, 0, 0x3000, 0x1234,
         0x200101bf, 0, 0x200100c0, 0x0480318d,
         0x20040017, 0x3008, 0, 7, 0, 0x2001001b, 0x1]
INLINE = [0x20012000, 0x0000cbc0, 0x20042060, 8, 1, 0, 0x3100,
          0x200326c0, 0, 0x3000, 0x55, 0x2001206c, 0x1021,
          0x6002206d, 0xcafe0001, 0xcafe0002, 0x200126c0, 0,
          0x200126c1, 0x3008, 0x200126c2, 0x66, 0x200126c3, 0x10000000]
EMPTY_GRID = [0x20012000, 0x0000cbc0, 0x200120ad, 0x40, 0x200120b0, 0x9]
COMPUTE_REFUSED = [0x20012000, 0x0000cbc0, 0x200120ad, 0x100,
                   0x200120b0, 0x9]

def cubin():
    img = bytearray(1024 + 6 * 64)
    strtab = (b'\0.shstrtab\0.text.k\0.nv.constant0.k\0'
              b'.nv.info.k\0.nv.shared.k\0')
    img[0:6] = b'\x7fELF\x02\x01'
    img[0x28:0x30] = u64(1024)
    img[0x3a:0x3c] = u16(64)
    img[0x3c:0x3e] = u16(6)
    img[0x3e:0x40] = u16(1)
    img[64:64 + len(strtab)] = strtab
    for i in range(256):
        img[256 + i] = i
    info = bytes([0x04, 0x0a]) + u16(8) + u32(3) + u16(0x210) + u16(0x18)
    img[600:600 + len(info)] = info
    def sh(i, name, typ, off, size, inf):
        h = 1024 + i * 64
        img[h:h + 4] = u32(name)
        img[h + 4:h + 8] = u32(typ)
        img[h + 24:h + 32] = u64(off)
        img[h + 32:h + 40] = u64(size)
        img[h + 44:h + 48] = u32(inf)
    sh(1, 1, 3, 64, len(strtab), 0)
    sh(2, 11, 1, 256, 256, (24 << 24) | 3)
    sh(3, 19, 1, 512, 0x228, 0)
    sh(4, 35, 0x70000000, 600, 12, 0)
    sh(5, 46, 8, 0, 0x100, 0)
    return bytes(img)

def hostd():
    s = {}
    s['pb_scrub'] = u8(0) + dw(*SCRUB)
    s['pb_inline'] = u8(0) + dw(*INLINE)
    # CE copy + semaphore over two regions (VA 0x10000, 0x20000)
    ce = [0x20018000, 0x0000c8b5,
          0x20048100, 0, 0x10000, 0, 0x20000,
          0x20028106, 0x100, 1,
          0x20038090, 0, 0x20f00, 0x77,
          0x200180c0, 0x0000018a]
    s['ce_copy'] = (u8(1) + u8(2) + u16(0x10) + u8(1) + u8(0) +
                    u16(0x20) + u8(1) + u8(0) + dw(*ce))
    s['cubin_k'] = u8(2) + u8(1) + b'k' + cubin()
    s['cubin_any'] = u8(2) + u8(0) + cubin()
    q = (u64(0x10000) + u32(256) + u32(1) + u32(1) + u32(1) + u16(128) +
         u16(1) + u16(1) + u32(24) + u32(0x100) + u64(0x20000) +
         u32(0x228) + u64(0x30000) + u32(7) + u32(0x90) + u32(0))
    s['qmd'] = u8(3) + q + u16(50) + u8(3)
    return s

def fifo():
    s = {}
    def push(words): return u8(0) + u16(len(words)) + dw(*words)
    BELL = u8(3)
    s['scrub'] = u8(0) + push(SCRUB) + BELL
    s['scrub_sysuserd'] = u8(1) + push(SCRUB) + BELL
    s['compute_inline'] = u8(0) + push(INLINE) + BELL
    s['empty_grid'] = (u8(0) + u8(2) + u32(0x4000 + 18 * 4)[:3] + u32(4 << 4) +
                       u8(2) + u32(0x4000 + 10 * 4)[:3] + u32(3) +
                       u8(2) + u32(0x4000 + 20 * 4)[:3] + u32(0x3000) +
                       u8(2) + u32(0x4000 + 22 * 4)[:3] + u32(0x77) +
                       push(EMPTY_GRID) + BELL)
    s['compute_refused'] = u8(4) + push(COMPUTE_REFUSED) + BELL + \
        push([0x20010017, 0]) + BELL
    # SET_PB_SEGMENT_EXTENDED_BASE control entry, then a host semaphore
    s['ext_base'] = (u8(0) + u8(1) + u32(0) + u32(4) +
                     push([0x20040017, 0x3008, 0, 7, 0, 0x2001001b, 1]) +
                     BELL)
    s['bad_put'] = u8(0) + push(SCRUB) + u8(4) + u32(1000) + BELL
    return s

def vfu():
    s = {}
    def m(cmd, payload, flags=0, fds=0):
        return u16(cmd) + u8(flags) + u8(fds) + u8(0) + u16(len(payload)) + payload
    ver = u16(1) + u16(0) + b'{"capabilities":{"max_msg_fds":8}}\0'
    dmamap = u32(32) + u32(3) + u64(0) + u64(0x40000000) + u64(0x10000)
    dmaunmap = u32(24) + u32(0) + u64(0x40000000) + u64(0x10000)
    def rr(region, off, count): return u64(off) + u32(region) + u32(count)
    irqset = (u32(20) + u32(0x4 | 0x20) + u32(2) + u32(0) + u32(2))  # EVENTFD|TRIGGER, MSIX
    s['session'] = (u8(0) + m(1, ver) + m(2, dmamap, fds=1) +
                    m(4, u32(16) + u32(0) + u32(0) + u32(0)) +
                    m(5, u32(32) + u32(0) + u32(0) + u32(0) + u64(0) + u64(0)) +
                    m(7, u32(16) + u32(0) + u32(4) + u32(0)) +
                    m(8, irqset, fds=4) +
                    m(9, rr(7, 4, 2)) +
                    m(10, rr(7, 4, 2) + u16(6)) +
                    m(9, rr(0, 0, 4)) +
                    m(10, rr(0, 0x8f2c04, 4) + u32(0xfffffffc)) +
                    m(10, rr(0, 0x8f2c00, 4) + u32(0xfffffff8)) +
                    m(9, rr(1, 0x1000, 64)) +
                    m(15, u64(2) + (u64(0) + u32(0) + u32(4) + u64(0x110c00)) * 2) +
                    m(3, dmaunmap) + m(13, b''))
    s['unnegotiated'] = u8(0) + m(9, rr(0, 0, 4)) + m(2, dmamap, fds=1)
    s['bad_size'] = u8(1) + u16(10) + u8(0) + u8(0) + u8(1) + u16(8) + u32(0xffffffff) + b'\0' * 8
    return s

def bar():
    s = {}
    # WIN ops: window index, offset, length sel (0 = 4 bytes), data
    def win(w, off, val, write=True):
        return u8(2 if write else 3) + u8(w) + u16(off) + u8(0) + (u32(val) if write else b'')
    s['fsp_queue_wrap'] = (win(8, 4, 0xfffffffc) + win(8, 0, 0xfffffff8) +
                           win(8, 0x80, 0) + win(8, 0x84, 0, False))
    s['emem'] = win(7, 0, 1 << 24) + win(7, 4, 0x12345678) * 4 + win(7, 0, 1 << 25) + win(7, 4, 0, False)
    s['pramin'] = u8(2) + u8(5) + u16(0x10) + u8(3) + b'\xaa' * 8 + u8(3) + u8(6) + u16(0xf8) + u8(9)
    s['doorbell'] = win(16, 0x10, 0x10003) + win(11, 0, 0x1000) + win(11, 0x10, 1)
    s['cfg'] = (u8(6) + u16(4) + u8(2) + u16(0x406) +
                u8(6) + u16(0xb2) + u8(2) + u16(0x8000) +
                u8(6) + u16(0x4a) + u8(2) + u16(1) +
                u8(7) + u16(0x10) + u8(3) + u8(6) + u16(0x10) + u8(0) + u32(0xffffffff) +
                u8(7) + u16(0xffe) + u8(3))
    s['msix'] = win(13, 0, 0xfee00000) + win(13, 8, 0x41) + win(13, 12, 0) + win(14, 0, 0, False)
    s['regs'] = b''.join(u8(0) + u16(i * 7) + u8(0) + u8(0) + u32(0xffffffff) for i in range(40))
    s['bars'] = (u8(4) + u8(1) + u64(0x1000) + u8(3) + u64(0x1122334455667788) +
                 u8(5) + u8(2) + u64(0x1ffffff) + u8(0) +
                 u8(5) + u8(7) + u64(0) + u8(0) + u8(9) + u8(10) + u64(0x40000000) + u32(0x1000))
    return s

def mmu():
    s = {}
    def link(t, idx, to, f=2): return u8(1) + u8(t) + u16(idx) + u8(to) + u8(f)
    def pte(t, idx, pfn, fl): return u8(2) + u8(t) + u16(idx) + u32(pfn) + u16(fl)
    chain = link(0, 0, 1) + link(1, 0, 2) + link(2, 0, 3) + link(3, 0, 4)
    s['2m'] = chain + pte(4, 0, 0x200, 1) + u8(3) + u8(0) + u64(0x1234)
    s['small'] = (chain + link(4, 1, 5) + pte(5, 3, 0x300, 1) +
                  u8(4) + u8(0) + u8(0) + u16(0) + u16(0) + u16(0) + u8(0) + u32(0x3010) +
                  u8(5) + u8(0) + u64(0x3000) + u16(0x1800) + u8(1) + b'\x55' * 64)
    s['big'] = chain + link(4, 0, 6, 2) + pte(6, 1, 0x400, 1) + u8(3) + u8(0) + u64(0x10000)
    s['sys'] = (link(8, 0, 9, 4) + link(9, 0, 8, 4) + u8(3) + u8(8) + u64(0) +
                pte(9, 5, 0x40000, 5) + u8(3) + u8(8) + u64(5 << 12))
    s['pd1_huge'] = chain[:-6] + pte(3, 0, 0x0, 1) + u8(3) + u8(0) + u64(0x1fffffff)
    s['bar1'] = (chain + pte(4, 0, 0x200, 1) + u8(6) + u8(0) + u8(0) + u64(0x100000 | 2) +
                 u8(7) + u8(0) + u32(0x10) + u8(3) + u8(1) + b'\x11' * 8 +
                 u8(6) + u8(1) + u8(0) + u64(0x100002) + u8(7) + u8(1) + u32(0x10) + u8(0) + u8(0))
    return s

def boot():
    s = {}
    s['default'] = b''
    s['default_elem'] = u8(5) + u8(6) + u8(7) + u32(1) + u16(0x318) + u32(0x23) + u32(5)
    # RMARGS (arena page 1): npages huge, queue offsets wrapping
    s['rmargs_npages'] = u8(1) + u8(1) + u16(1) + u64(0xffffffff)
    s['rmargs_cmdq_wrap'] = u8(1) + u8(1) + u16(2) + u64(0xfffffffffffff000)
    s['rmargs_statq'] = u8(1) + u8(1) + u16(3) + u64(0x3f000)
    s['shm_pte'] = u8(2) + u32(8)[:3] + u64(0x40000000 + 7 * 0x1000 + 8)
    s['shm_pte_loop'] = u8(2) + u32(8)[:3] + u64(0x40008000)
    s['libos_entry'] = u8(1) + u8(0) + u16(0x61) + u64(0x41000000)
    s['fmc_args'] = u8(1) + u8(2) + u16(6) + u64(0xdeadbeef000)
    s['cot_len'] = u8(4) + u16(300) + u32(0x3fc) + u32(0) + u8(5) + u8(6)
    s['cot_ptr'] = u8(3) + u8(215) + u32(0x41234000) + u8(5) + u8(6)
    s['cmdq_hdr'] = u8(2) + u32(0x1000 + 0x18)[:3] + u64(0xfffffffc) + u8(6) + u8(7) + u32(72) + u16(0x2a0)
    s['statq_hdr'] = u8(5) + u8(6) + u8(2) + u32(0x41000 + 0x10)[:3] + u64(1000) + u8(9)
    return s

def gsp():
    s = {}
    # LARGE (op 6): fn 76 GSP_RM_CONTROL, total 0x20000, all records
    s['large_ctrl'] = u8(6) + u8(76) + u8(0) + u8(0) + u8(0xff) + u32(0x20000) + u32(0xc1d00001)
    s['large_broken'] = u8(6) + u8(76) + u8(0) + u8(0) + u8(1) + u32(0x30000) + u8(5)
    s['rpc_full'] = u8(1) + u32(76) + u16(0xffb0) + u8(5)
    return s

def write(target, seeds):
    d = os.path.join('corpus', target)
    os.makedirs(d, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(d, name), 'wb') as f:
            f.write(data)

if __name__ == '__main__':
    write('hostd', hostd())
    write('fifo', fifo())
    write('vfu', vfu())
    write('bar', bar())
    write('mmu', mmu())
    write('boot', boot())
    write('gsp', gsp())
