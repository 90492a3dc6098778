// Deterministic reductions for @Reduce outputs.
//
// A reducing kernel gives each output element (each point of the grid dimensions its index uses)
// to one thread block; the block's threads stride over the reduced dimensions, each folding its
// contributions into a register, and block_reduce combines the registers in a fixed tree: with whole
// warps, a power of two of them, butterflies of warp shuffles within and then across the warps;
// otherwise pairwise over thread indices (0 with 1, 2 with 3, ..., then the pairs). The result
// depends on blockDim.x alone, never on scheduling: the same launch gives the same bits every run. Reducing kernels are
// launched with one-dimensional blocks of at most KILN_MAX_BLOCK threads.
#pragma once

#define KILN_MAX_BLOCK 1024

namespace kiln {

template <typename T> struct SumOp { __device__ __forceinline__ T operator()(T a, T b) const { return a + b; } };
template <typename T> struct ProductOp { __device__ __forceinline__ T operator()(T a, T b) const { return a * b; } };
// Java's int and long sums and products wrap; C's signed overflow is undefined: on the unsigned type.
template <> struct SumOp<int> { __device__ __forceinline__ int operator()(int a, int b) const { return (int) ((unsigned) a + (unsigned) b); } };
template <> struct SumOp<long long> { __device__ __forceinline__ long long operator()(long long a, long long b) const { return (long long) ((unsigned long long) a + (unsigned long long) b); } };
template <> struct ProductOp<int> { __device__ __forceinline__ int operator()(int a, int b) const { return (int) ((unsigned) a * (unsigned) b); } };
template <> struct ProductOp<long long> { __device__ __forceinline__ long long operator()(long long a, long long b) const { return (long long) ((unsigned long long) a * (unsigned long long) b); } };
template <typename T> struct MaxOp { __device__ __forceinline__ T operator()(T a, T b) const { return kiln::max(a, b); } };
template <typename T> struct MinOp { __device__ __forceinline__ T operator()(T a, T b) const { return kiln::min(a, b); } };

template <typename T, typename Op>
__device__ T block_reduce(T v, T* shared, Op op) {
  const unsigned t = threadIdx.x;
  const unsigned n = blockDim.x;
  const unsigned warps = n >> 5;
  if ((n & 31) == 0 && (warps & (warps - 1)) == 0) {
    // Whole warps, a power of two of them (Kiln's 256-thread blocks): a butterfly in each warp (lane
    // i with lane i ^ 16, then ^ 8, ...: every lane ends with the same bits, the operators being
    // commutative), the warps' totals through shared memory, the same butterfly over them in every
    // warp, lane 0's result to all. Two barriers where the pairwise tree takes log2(n) + 2; every
    // thread makes every call, so the emulated driver can run the shuffles as block-wide exchanges.
    for (unsigned o = 16; o > 0; o >>= 1) {
      v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
    }
    if ((t & 31) == 0) {
      shared[t >> 5] = v;
    }
    __syncthreads();
    v = shared[(t & 31) < warps ? (t & 31) : 0];
    for (unsigned o = warps >> 1; o > 0; o >>= 1) {
      v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
    }
    v = __shfl_sync(0xffffffffu, v, 0);
    __syncthreads();
    return v;
  }
  shared[t] = v;
  __syncthreads();
  for (unsigned s = 1; s < n; s <<= 1) {
    if ((t & (2 * s - 1)) == 0 && t + s < n) {
      shared[t] = op(shared[t], shared[t + s]);
    }
    __syncthreads();
  }
  const T r = shared[0];
  __syncthreads();
  return r;
}

// A column kernel's reduction: each column of threads (one threadIdx.x, every threadIdx.y) works
// for one worker; column_reduce combines a column's registers in a fixed pairwise tree over
// threadIdx.y and gives every thread of the column the result. shared holds blockDim.x * blockDim.y
// values (at most KILN_MAX_BLOCK).
template <typename T, typename Op>
__device__ T column_reduce(T v, T* shared, Op op) {
  const unsigned x = threadIdx.x;
  const unsigned y = threadIdx.y;
  const unsigned nx = blockDim.x;
  const unsigned ny = blockDim.y;
  shared[y * nx + x] = v;
  __syncthreads();
  for (unsigned s = 1; s < ny; s <<= 1) {
    if ((y & (2 * s - 1)) == 0 && y + s < ny) {
      shared[y * nx + x] = op(shared[y * nx + x], shared[(y + s) * nx + x]);
    }
    __syncthreads();
  }
  const T r = shared[x];
  __syncthreads();
  return r;
}

}  // namespace kiln
