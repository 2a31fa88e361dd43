// SPDX-License-Identifier: GPL-2.0 OR MIT
// The harness kernels in CUDA C, for reading and for cross-checking with
// `nvcc -ptx`. The harness runs kernels.ptx (hand-written, PTX ISA 6.0) so
// that it needs no CUDA toolkit and loads on old guest drivers too.

extern "C" __global__ void k_empty() {}

extern "C" __global__ void k_tick(unsigned int *ctr) { *ctr += 1; }

extern "C" __global__ void k_fma(float *out, float a, float b,
                                 unsigned int trips)
{
	unsigned int gid = blockIdx.x * blockDim.x + threadIdx.x;
	float x[8];
	float base = (float)(gid & 1023u);
#pragma unroll
	for (int j = 0; j < 8; j++)
		x[j] = base + (float)j;
	for (unsigned int t = 0; t < trips; t++) {
#pragma unroll
		for (int u = 0; u < 16; u++) {
#pragma unroll
			for (int j = 0; j < 8; j++)
				x[j] = fmaf(x[j], a, b);
		}
	}
	float s = x[0];
#pragma unroll
	for (int j = 1; j < 8; j++)
		s += x[j];
	out[gid] = s;
}

extern "C" __global__ void k_clock(unsigned long long *out,
                                   unsigned int iters, unsigned int seed)
{
	unsigned long long t0 = clock64();
	for (unsigned int i = 0; i < iters; i++)
		seed = seed * 1664525u + 1013904223u;
	unsigned long long t1 = clock64();
	out[0] = t1 - t0;
	out[1] = seed;
}
