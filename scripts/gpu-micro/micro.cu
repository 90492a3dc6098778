// Skeleton micro-benchmark for Kiln's elementwise and row kernels (hand-written variants of the
// generated code), timed with CUDA events beside a device-to-device copy of the same bytes.
#include "kiln/kiln.cuh"
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

__device__ __forceinline__ float gelu_f(float v) { return ((0.5f * v) * (1.0f + kiln::erf((v * 0.70710677f)))); }

extern "C" __global__ void gelu_base(int N, const float* __restrict__ x, float* __restrict__ y) {
  const unsigned i_end = kiln::count(N);
  const unsigned i_step = kiln::step_x(i_end);
  #pragma unroll 1
  for (unsigned i_ = kiln::first_x(i_end); i_ < i_end; i_ += i_step) {
    const int i = (int) i_;
    const long long t = ((long long) i);
    const float v = x[t];
    y[t] = gelu_f(v);
  }
}
extern "C" __global__ void gelu_noerf(int N, const float* __restrict__ x, float* __restrict__ y) {
  const unsigned i_end = kiln::count(N);
  const unsigned i_step = kiln::step_x(i_end);
  #pragma unroll 1
  for (unsigned i_ = kiln::first_x(i_end); i_ < i_end; i_ += i_step) {
    const long long t = ((long long) (int) i_);
    const float v = x[t];
    y[t] = 0.5f * v * (1.0f + v);
  }
}
extern "C" __global__ void gelu_flat(int N, const float* __restrict__ x, float* __restrict__ y) {
  const long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) y[i] = gelu_f(x[i]);
}
template <int E>
__global__ void gelu_ilp(int N, const float* __restrict__ x, float* __restrict__ y) {
  const long long base = (long long) blockIdx.x * blockDim.x * E + threadIdx.x;
  float v[E];
  #pragma unroll
  for (int e = 0; e < E; e++) { const long long i = base + (long long) e * blockDim.x; v[e] = i < N ? x[i] : 0.0f; }
  #pragma unroll
  for (int e = 0; e < E; e++) { const long long i = base + (long long) e * blockDim.x; if (i < N) y[i] = gelu_f(v[e]); }
}
template <int E>
__global__ void gelu_vec4(int N, const float4* __restrict__ x, float4* __restrict__ y) {
  const long long n4 = N / 4;
  const long long base = (long long) blockIdx.x * blockDim.x * E + threadIdx.x;
  float4 v[E];
  #pragma unroll
  for (int e = 0; e < E; e++) { const long long i = base + (long long) e * blockDim.x; if (i < n4) v[e] = x[i]; }
  #pragma unroll
  for (int e = 0; e < E; e++) {
    const long long i = base + (long long) e * blockDim.x;
    if (i < n4) { float4 r; r.x = gelu_f(v[e].x); r.y = gelu_f(v[e].y); r.z = gelu_f(v[e].z); r.w = gelu_f(v[e].w); y[i] = r; }
  }
}

// Softmax: the generated kernel (one block a row, the row cached in 32 KB of shared memory)
template <int ROW>
__global__ void softmax_smem(int B, int N, const float* __restrict__ x, float* __restrict__ y) {
  __shared__ float shared_float[ROW == 8192 ? KILN_MAX_BLOCK : 32];  // 32: whole warps, at most 1024 threads
  __shared__ float row_x[ROW];
  const long long t = ((long long) N);
  for (long long w_ = blockIdx.x; w_ < (long long) B; w_ += gridDim.x) {
    const int b = (int) (w_ % B);
    float m = __int_as_float(0xff800000);
    const bool cached = (long long) (N) - (0) <= ROW;
    const long long t2 = (((long long) b) * t);
    __syncthreads();
    float mPart = __int_as_float(0xff800000);
    for (int k = 0 + (int) threadIdx.x; k < N; k += (int) blockDim.x) {
      const float t3 = x[(t2 + ((long long) k))];
      if (cached) row_x[k - 0] = t3;
      mPart = kiln::max(mPart, t3);
    }
    mPart = kiln::block_reduce(mPart, shared_float, kiln::MaxOp<float>());
    m = kiln::max(m, mPart);
    __syncthreads();
    float s = 0.0f;
    __syncthreads();
    float sPart = (-0.0f);
    for (int k_2 = 0 + (int) threadIdx.x; k_2 < N; k_2 += (int) blockDim.x) {
      const float t4 = (cached ? row_x[k_2 - 0] : x[(t2 + ((long long) k_2))]);
      sPart = sPart + kiln::exp((t4 - m));
    }
    sPart = kiln::block_reduce(sPart, shared_float, kiln::SumOp<float>());
    s = (s + sPart);
    __syncthreads();
    __syncthreads();
    for (int k_3 = 0 + (int) threadIdx.x; k_3 < N; k_3 += (int) blockDim.x) {
      const long long t5 = (t2 + ((long long) k_3));
      const float t6 = (cached ? row_x[k_3 - 0] : x[t5]);
      y[t5] = (kiln::exp((t6 - m)) / s);
    }
    __syncthreads();
  }
}
// The row in registers: E values a thread (k = threadIdx.x + e * blockDim.x), read once; the same
// sums in the same order as the generated kernel
template <int E>
__global__ void softmax_reg(int B, int N, const float* __restrict__ x, float* __restrict__ y) {
  __shared__ float shared_float[32];
  for (long long w_ = blockIdx.x; w_ < (long long) B; w_ += gridDim.x) {
    const long long t2 = w_ * N;
    float v[E];
    float mPart = __int_as_float(0xff800000);
    #pragma unroll
    for (int e = 0; e < E; e++) {
      const int k = threadIdx.x + e * blockDim.x;
      v[e] = k < N ? x[t2 + k] : 0.0f;
      if (k < N) mPart = kiln::max(mPart, v[e]);
    }
    const float m = kiln::max(__int_as_float(0xff800000), kiln::block_reduce(mPart, shared_float, kiln::MaxOp<float>()));
    float sPart = -0.0f;
    #pragma unroll
    for (int e = 0; e < E; e++) {
      const int k = threadIdx.x + e * blockDim.x;
      if (k < N) sPart = sPart + kiln::exp(v[e] - m);
    }
    const float s = 0.0f + kiln::block_reduce(sPart, shared_float, kiln::SumOp<float>());
    #pragma unroll
    for (int e = 0; e < E; e++) {
      const int k = threadIdx.x + e * blockDim.x;
      if (k < N) y[t2 + k] = kiln::exp(v[e] - m) / s;
    }
  }
}

static float* dev_random(long long n, unsigned seed) {
  std::vector<float> h(n);
  srand(seed);
  for (long long i = 0; i < n; i++) h[i] = (rand() / (float) RAND_MAX * 2 - 1) * 4;
  float* d; CK(cudaMalloc(&d, n * 4)); CK(cudaMemcpy(d, h.data(), n * 4, cudaMemcpyHostToDevice));
  return d;
}

template <typename F>
static double time_ms(F launch) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int i = 0; i < 5; i++) launch();
  CK(cudaDeviceSynchronize());
  double best = 1e30;
  for (int round = 0; round < 5; round++) {
    const int reps = 50;
    cudaEventRecord(a);
    for (int i = 0; i < reps; i++) launch();
    cudaEventRecord(b);
    CK(cudaEventSynchronize(b));
    float ms; cudaEventElapsedTime(&ms, a, b);
    double per = ms / reps;
    if (per < best) best = per;
  }
  CK(cudaGetLastError());
  return best;
}

static double max_diff(const float* a, const float* b, long long n) {
  std::vector<float> ha(n), hb(n);
  CK(cudaMemcpy(ha.data(), a, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hb.data(), b, n * 4, cudaMemcpyDeviceToHost));
  double d = 0; long long differ = 0;
  for (long long i = 0; i < n; i++) { double e = std::fabs((double) ha[i] - hb[i]); if (e > d) d = e; if (ha[i] != hb[i]) differ++; }
  return differ == 0 ? 0.0 : (d > 0 ? d : 1e-30);
}

static void row(const char* name, double ms, double copy) { printf("  %-28s %9.4f ms  %5.0f%% of copy\n", name, ms, 100 * copy / ms); }

int main() {
  cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
  printf("%s, %d SMs, %d KB shared a SM\n", p.name, p.multiProcessorCount, (int) (p.sharedMemPerMultiprocessor / 1024));
  for (int logn : {22, 26}) {
    const int N = 1 << logn;
    float* x = dev_random(N, 1); float* y; float* r; CK(cudaMalloc(&y, N * 4LL)); CK(cudaMalloc(&r, N * 4LL));
    const double copy = time_ms([&] { cudaMemcpyAsync(y, x, N * 4LL, cudaMemcpyDeviceToDevice); });
    printf("GELU 2^%d: copy %.4f ms\n", logn, copy);
    const int g256 = (N + 255) / 256;
    gelu_base<<<g256, 256>>>(N, x, r);
    row("base (Kiln now)", time_ms([&] { gelu_base<<<g256, 256>>>(N, x, y); }), copy);
    row("no erf", time_ms([&] { gelu_noerf<<<g256, 256>>>(N, x, y); }), copy);
    row("flat", time_ms([&] { gelu_flat<<<g256, 256>>>(N, x, y); }), copy); printf("    diff %g\n", max_diff(r, y, N));
    row("flat 128", time_ms([&] { gelu_flat<<<(N + 127) / 128, 128>>>(N, x, y); }), copy);
    row("flat 512", time_ms([&] { gelu_flat<<<(N + 511) / 512, 512>>>(N, x, y); }), copy);
    row("ilp2", time_ms([&] { gelu_ilp<2><<<(N + 511) / 512, 256>>>(N, x, y); }), copy); printf("    diff %g\n", max_diff(r, y, N));
    row("ilp4", time_ms([&] { gelu_ilp<4><<<(N + 1023) / 1024, 256>>>(N, x, y); }), copy); printf("    diff %g\n", max_diff(r, y, N));
    row("vec4 x1", time_ms([&] { gelu_vec4<1><<<(N / 4 + 255) / 256, 256>>>(N, (const float4*) x, (float4*) y); }), copy); printf("    diff %g\n", max_diff(r, y, N));
    row("vec4 x1 b128", time_ms([&] { gelu_vec4<1><<<(N / 4 + 127) / 128, 128>>>(N, (const float4*) x, (float4*) y); }), copy);
    row("vec4 x2", time_ms([&] { gelu_vec4<2><<<(N / 8 + 255) / 256, 256>>>(N, (const float4*) x, (float4*) y); }), copy); printf("    diff %g\n", max_diff(r, y, N));
    cudaFree(x); cudaFree(y); cudaFree(r);
  }
  int shapes[3][2] = {{2048, 2048}, {8192, 1024}, {8192, 8192}};
  for (auto& s : shapes) {
    const int B = s[0], N = s[1];
    const long long n = (long long) B * N;
    float* x = dev_random(n, 2); float* y; float* r; CK(cudaMalloc(&y, n * 4)); CK(cudaMalloc(&r, n * 4));
    const double copy = time_ms([&] { cudaMemcpyAsync(y, x, n * 4, cudaMemcpyDeviceToDevice); });
    printf("Softmax %dx%d: copy %.4f ms\n", B, N, copy);
    softmax_smem<8192><<<B, 256>>>(B, N, x, r);
    row("smem 32 KB (Kiln now)", time_ms([&] { softmax_smem<8192><<<B, 256>>>(B, N, x, y); }), copy);
    if (N <= 2048) {
      row("smem 8 KB", time_ms([&] { softmax_smem<2048><<<B, 256>>>(B, N, x, y); }), copy); printf("    diff %g\n", max_diff(r, y, n));
      row("reg 8 x 256", time_ms([&] { softmax_reg<8><<<B, 256>>>(B, N, x, y); }), copy); printf("    diff %g\n", max_diff(r, y, n));
      row("reg 4 x 512", time_ms([&] { softmax_reg<4><<<B, 512>>>(B, N, x, y); }), copy); printf("    diff(other tree) %g\n", max_diff(r, y, n));
      row("reg 2 x 1024", time_ms([&] { softmax_reg<2><<<B, 1024>>>(B, N, x, y); }), copy);
      // smaller blocks: more rows resident at once (2048 rows of 128 threads fit one wave)
      row("smem 32 KB, 128 threads", time_ms([&] { softmax_smem<8192><<<B, 128>>>(B, N, x, y); }), copy);
      row("smem 8 KB, 128 threads", time_ms([&] { softmax_smem<2048><<<B, 128>>>(B, N, x, y); }), copy);
      printf("    diff(other tree) %g\n", max_diff(r, y, n));
      row("smem 8 KB, 64 threads", time_ms([&] { softmax_smem<2048><<<B, 64>>>(B, N, x, y); }), copy);
      row("smem 8 KB, 32 threads", time_ms([&] { softmax_smem<2048><<<B, 32>>>(B, N, x, y); }), copy);
      row("reg 16 x 128", time_ms([&] { softmax_reg<16><<<B, 128>>>(B, N, x, y); }), copy);
      row("reg 32 x 64", time_ms([&] { softmax_reg<32><<<B, 64>>>(B, N, x, y); }), copy);
      row("reg 64 x 32", time_ms([&] { softmax_reg<64><<<B, 32>>>(B, N, x, y); }), copy);
      row("no cache, 128 threads", time_ms([&] { softmax_smem<1><<<B, 128>>>(B, N, x, y); }), copy);
    } else {
      row("reg 32 x 256", time_ms([&] { softmax_reg<32><<<B, 256>>>(B, N, x, y); }), copy); printf("    diff %g\n", max_diff(r, y, n));
      row("reg 16 x 512", time_ms([&] { softmax_reg<16><<<B, 512>>>(B, N, x, y); }), copy);
      row("reg 8 x 1024", time_ms([&] { softmax_reg<8><<<B, 1024>>>(B, N, x, y); }), copy);
      row("smem 32 KB, 512 threads", time_ms([&] { softmax_smem<8192><<<B, 512>>>(B, N, x, y); }), copy);
      row("smem 32 KB, 128 threads", time_ms([&] { softmax_smem<8192><<<B, 128>>>(B, N, x, y); }), copy);
    }
    cudaFree(x); cudaFree(y); cudaFree(r);
  }
  return 0;
}
