// Kiln's CUDA support headers: everything a generated .cu includes.
// Part of kiln-cuda-templates; generated sources include "kiln/kiln.cuh" and nothing else.
#pragma once

#include "kiln/math.cuh"
#include "kiln/index.cuh"
#include "kiln/reduce.cuh"

namespace kiln {
// Java's conversion of a float or double to int or long (JLS 5.1.3): NaN gives 0, a value beyond
// the range the nearest end of it, anything else is rounded toward zero. C leaves the first two
// undefined (a GPU saturates, the host's cvttss2si gives the smallest value), so generated code
// converts through these.
__device__ __forceinline__ int java_int(float x) {
  return x != x ? 0 : x >= 2147483648.0f ? 2147483647 : x <= -2147483648.0f ? (-2147483647 - 1) : (int) x;
}
__device__ __forceinline__ int java_int(double x) {
  return x != x ? 0 : x >= 2147483648.0 ? 2147483647 : x <= -2147483648.0 ? (-2147483647 - 1) : (int) x;
}
__device__ __forceinline__ long long java_long(float x) {
  return x != x ? 0LL : x >= 9223372036854775808.0f ? 9223372036854775807LL
      : x <= -9223372036854775808.0f ? (-9223372036854775807LL - 1) : (long long) x;
}
__device__ __forceinline__ long long java_long(double x) {
  return x != x ? 0LL : x >= 9223372036854775808.0 ? 9223372036854775807LL
      : x <= -9223372036854775808.0 ? (-9223372036854775807LL - 1) : (long long) x;
}

// Java's integer division and remainder (JLS 15.17.2-3): MIN / -1 is MIN and MIN % -1 is 0, where
// C's result is undefined (x86 traps). Generated code divides ints and longs through these. (A
// zero divisor, which throws in Java, gives whatever the device's division gives.)
__device__ __forceinline__ int java_div(int a, int b) { return b == -1 ? (int) (0U - (unsigned) a) : a / b; }
__device__ __forceinline__ long long java_div(long long a, long long b) {
  return b == -1 ? (long long) (0ULL - (unsigned long long) a) : a / b;
}
__device__ __forceinline__ int java_rem(int a, int b) { return b == -1 ? 0 : a % b; }
__device__ __forceinline__ long long java_rem(long long a, long long b) { return b == -1 ? 0 : a % b; }
}  // namespace kiln
