// Host emulation of the little CUDA that Kiln's generated kernels use, so that a host C++ compiler
// can run them: one block of one thread, which walks every grid-stride loop alone. It checks the
// generated CUDA C's meaning (indexing, loops, guards, reductions) without a GPU; the device's own
// behaviour (scheduling, libm, shared memory across threads) is left to the GPU tests.
#pragma once
#include <math.h>
#include <stdint.h>
#include <string.h>

#define __global__
#define __device__
#define __forceinline__ inline
#define __restrict__ __restrict
#define __shared__ static

struct kiln_emu_dim3 { unsigned x, y, z; };
static const kiln_emu_dim3 threadIdx = {0, 0, 0};
static const kiln_emu_dim3 blockIdx = {0, 0, 0};
static const kiln_emu_dim3 blockDim = {1, 1, 1};
static const kiln_emu_dim3 gridDim = {1, 1, 1};

inline void __syncthreads() {}
inline float __int_as_float(int i) { float f; memcpy(&f, &i, sizeof f); return f; }
inline double __longlong_as_double(long long i) { double d; memcpy(&d, &i, sizeof d); return d; }
inline float __expf(float x) { return expf(x); }
inline float __logf(float x) { return logf(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __powf(float x, float y) { return powf(x, y); }
inline float __fdividef(float a, float b) { return a / b; }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
