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
}  // namespace kiln
