// Kernels for the runtime's GPU tests, in the shape the Kiln processor generates them.
// TestKernels.ptx beside it is this file compiled by nvcc 13.0:
//   nvcc -ptx -arch=compute_80 -std=c++17 --fmad=false -I cuda-templates/src/main/resources TestKernels.cu
#include "kiln/kiln.cuh"

// Map: y[i] = a * x[i] + b.
extern "C" __global__ void axpb_map(long long n, float a, const float* __restrict__ x, float b, float* __restrict__ y) {
  for (long long i = kiln::first_x(); i < n; i += kiln::stride_x()) {
    y[i] = a * x[i] + b;
  }
}

// Grid, 2-D: out[r, c] = r * 1000 + c, or its negation when negate.
extern "C" __global__ void index2d(int R, int C, bool negate, int* __restrict__ out) {
  for (long long r_ = kiln::first_y(); r_ < R; r_ += kiln::stride_y()) {
    for (long long c_ = kiln::first_x(); c_ < C; c_ += kiln::stride_x()) {
      const int v = (int) r_ * 1000 + (int) c_;
      out[r_ * C + c_] = negate ? -v : v;
    }
  }
}

// Grid, 4-D: the outer two dimensions share z. out[a, b, c, d] = ((a * B + b) * C + c) * D + d.
extern "C" __global__ void index4d(int A, int B, int C, int D, double* __restrict__ out) {
  for (long long z_ = kiln::first_z(); z_ < (long long) A * B; z_ += kiln::stride_z()) {
    for (long long c_ = kiln::first_y(); c_ < C; c_ += kiln::stride_y()) {
      for (long long d_ = kiln::first_x(); d_ < D; d_ += kiln::stride_x()) {
        const long long i = (z_ * C + c_) * D + d_;
        out[i] = (double) i;
      }
    }
  }
}

// Reducing: s[b] = sum over k of x[b, k], one block per row.
extern "C" __global__ void rowSums(int B, int K, const double* __restrict__ x, double* __restrict__ s) {
  __shared__ double s_shared[KILN_MAX_BLOCK];
  for (long long b = blockIdx.x; b < (long long) B; b += gridDim.x) {
    double acc = 0.0;
    for (long long k = threadIdx.x; k < (long long) K; k += blockDim.x) {
      acc = acc + x[b * K + k];
    }
    acc = kiln::block_reduce(acc, s_shared, kiln::SumOp<double>());
    if (threadIdx.x == 0) {
      s[b] = s[b] + acc;
    }
  }
}
