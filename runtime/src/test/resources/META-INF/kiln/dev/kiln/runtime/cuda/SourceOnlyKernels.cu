// Kernels for the runtime's GPU tests, in the shape the Kiln processor generates them.
// There is no PTX beside this file: the runtime compiles it with NVRTC.
#include "kiln/kiln.cuh"

// Map: y[i] = a * x[i] + b.
extern "C" __global__ void axpb_source_map(long long n, float a, const float* __restrict__ x, float b, float* __restrict__ y) {
  for (long long i = kiln::first_x(); i < n; i += kiln::stride_x()) {
    y[i] = a * x[i] + b;
  }
}
