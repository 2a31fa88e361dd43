// SPDX-License-Identifier: MIT
// kern.cu - the two kernels hostd launches from QMDs it writes itself:
// vgsp_fill produces a checkable pattern, vgsp_nop measures launch cost.
// Built with: nvcc -arch=sm_90 -cubin (no relocations, no local memory).
extern "C" __global__ void vgsp_fill(unsigned *out, unsigned n, unsigned mul, unsigned add)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = i * mul + add;
}

extern "C" __global__ void vgsp_nop(void)
{
}
