// Hand-written kernels with deliberate faults, for EmulationFaultsTest: they show that the emulated
// driver reports what a GPU would (an illegal address, a failed launch) through the runtime's
// exceptions. Faults.ptx beside it was written by nvcc 13.0 (nvcc -ptx -arch=compute_80 -I <kiln
// headers>); the emulated driver finds the host build of this file by the PTX's hash.
#include "kiln/kiln.cuh"

extern "C" __global__ void fill(int n, float* __restrict__ out) {
  for (long long i = kiln::first_x(); i < n; i += kiln::stride_x()) {
    out[i] = (float) i;
  }
}

extern "C" __global__ void writePastEnd(int n, float* __restrict__ out) {
  if (kiln::first_x() == 0) {
    out[n] = 1.0f;
  }
}

extern "C" __global__ void divergingBarrier(int n, float* __restrict__ out) {
  if (threadIdx.x == 0) {
    return;
  }
  __syncthreads();
  if (kiln::first_x() < n) {
    out[kiln::first_x()] = 2.0f;
  }
}

// Every thread of every block adds one to count[i % 4]: blocks race on the four counters.
extern "C" __global__ void racingCounts(int n, int* __restrict__ count) {
  for (long long i = kiln::first_x(); i < n; i += kiln::stride_x()) {
    count[i % 4] += 1;
  }
}

// Reads shared memory that no thread of the block wrote: garbage on a GPU.
extern "C" __global__ void readsUnwrittenShared(int n, float* __restrict__ out) {
  __shared__ float s[KILN_MAX_BLOCK];
  __syncthreads();
  if (kiln::first_x() < n) {
    out[kiln::first_x()] = s[threadIdx.x];
  }
}
