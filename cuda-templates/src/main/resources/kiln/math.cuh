// The device side of dev.kiln.KMath and java.lang.Math, overloaded on float and double (and, for
// abs/min/max, int and long long). Generated code calls kiln::fn(...) with arguments already of
// the overload's type.
//
// Precision switch: by default every function is the precise CUDA libm one (expf, tanhf, ...).
// Compiling with -DKILN_FAST_MATH=1 maps the float functions that have hardware intrinsics to them
// (__expf, __logf, __sinf, __cosf, __powf, __fdividef for sigmoid): faster, a few ulp less exact.
// min and max follow Java, not fmin/fmax: a NaN operand gives NaN, and max(-0.0, 0.0) is 0.0.
#pragma once

#ifndef KILN_FAST_MATH
#define KILN_FAST_MATH 0
#endif

namespace kiln {

// ---- exponentials and logarithms ----
__device__ __forceinline__ float exp(float x) { return KILN_FAST_MATH ? __expf(x) : expf(x); }
__device__ __forceinline__ double exp(double x) { return ::exp(x); }
__device__ __forceinline__ float log(float x) { return KILN_FAST_MATH ? __logf(x) : logf(x); }
__device__ __forceinline__ double log(double x) { return ::log(x); }
__device__ __forceinline__ float log10(float x) { return log10f(x); }
__device__ __forceinline__ double log10(double x) { return ::log10(x); }
__device__ __forceinline__ float log1p(float x) { return log1pf(x); }
__device__ __forceinline__ double log1p(double x) { return ::log1p(x); }
__device__ __forceinline__ float expm1(float x) { return expm1f(x); }
__device__ __forceinline__ double expm1(double x) { return ::expm1(x); }
__device__ __forceinline__ float pow(float x, float y) { return KILN_FAST_MATH ? __powf(x, y) : powf(x, y); }
__device__ __forceinline__ double pow(double x, double y) { return ::pow(x, y); }

// ---- roots ----
__device__ __forceinline__ float sqrt(float x) { return sqrtf(x); }
__device__ __forceinline__ double sqrt(double x) { return ::sqrt(x); }
__device__ __forceinline__ float rsqrt(float x) { return KILN_FAST_MATH ? rsqrtf(x) : 1.0f / sqrtf(x); }
__device__ __forceinline__ double rsqrt(double x) { return 1.0 / ::sqrt(x); }
__device__ __forceinline__ float cbrt(float x) { return cbrtf(x); }
__device__ __forceinline__ double cbrt(double x) { return ::cbrt(x); }
__device__ __forceinline__ float hypot(float x, float y) { return hypotf(x, y); }
__device__ __forceinline__ double hypot(double x, double y) { return ::hypot(x, y); }

// ---- activations ----
__device__ __forceinline__ float tanh(float x) { return tanhf(x); }
__device__ __forceinline__ double tanh(double x) { return ::tanh(x); }
__device__ __forceinline__ float sigmoid(float x) {
  return KILN_FAST_MATH ? __fdividef(1.0f, 1.0f + __expf(-x)) : 1.0f / (1.0f + expf(-x));
}
__device__ __forceinline__ double sigmoid(double x) { return 1.0 / (1.0 + ::exp(-x)); }
__device__ __forceinline__ float erf(float x) { return erff(x); }
__device__ __forceinline__ double erf(double x) { return ::erf(x); }

// ---- trigonometry ----
__device__ __forceinline__ float sin(float x) { return KILN_FAST_MATH ? __sinf(x) : sinf(x); }
__device__ __forceinline__ double sin(double x) { return ::sin(x); }
__device__ __forceinline__ float cos(float x) { return KILN_FAST_MATH ? __cosf(x) : cosf(x); }
__device__ __forceinline__ double cos(double x) { return ::cos(x); }
__device__ __forceinline__ float tan(float x) { return tanf(x); }
__device__ __forceinline__ double tan(double x) { return ::tan(x); }
__device__ __forceinline__ double asin(double x) { return ::asin(x); }
__device__ __forceinline__ double acos(double x) { return ::acos(x); }
__device__ __forceinline__ double atan(double x) { return ::atan(x); }
__device__ __forceinline__ double atan2(double y, double x) { return ::atan2(y, x); }
__device__ __forceinline__ double sinh(double x) { return ::sinh(x); }
__device__ __forceinline__ double cosh(double x) { return ::cosh(x); }

// ---- rounding and sign ----
__device__ __forceinline__ double floor(double x) { return ::floor(x); }
__device__ __forceinline__ double ceil(double x) { return ::ceil(x); }
__device__ __forceinline__ double rint(double x) { return ::rint(x); }
__device__ __forceinline__ float signum(float x) { return (x == 0.0f || x != x) ? x : copysignf(1.0f, x); }
__device__ __forceinline__ double signum(double x) { return (x == 0.0 || x != x) ? x : ::copysign(1.0, x); }
__device__ __forceinline__ float fma(float a, float b, float c) { return fmaf(a, b, c); }
__device__ __forceinline__ double fma(double a, double b, double c) { return ::fma(a, b, c); }

// ---- abs, min, max (Java's semantics) ----
__device__ __forceinline__ float abs(float x) { return fabsf(x); }
__device__ __forceinline__ double abs(double x) { return ::fabs(x); }
__device__ __forceinline__ int abs(int x) { return x < 0 ? -x : x; }
__device__ __forceinline__ long long abs(long long x) { return x < 0 ? -x : x; }

__device__ __forceinline__ float max(float a, float b) {
  if (a != a) return a;
  if (b != b) return b;
  if (a == 0.0f && b == 0.0f) return signbit(a) ? b : a;
  return a > b ? a : b;
}
__device__ __forceinline__ double max(double a, double b) {
  if (a != a) return a;
  if (b != b) return b;
  if (a == 0.0 && b == 0.0) return signbit(a) ? b : a;
  return a > b ? a : b;
}
__device__ __forceinline__ float min(float a, float b) {
  if (a != a) return a;
  if (b != b) return b;
  if (a == 0.0f && b == 0.0f) return signbit(a) ? a : b;
  return a < b ? a : b;
}
__device__ __forceinline__ double min(double a, double b) {
  if (a != a) return a;
  if (b != b) return b;
  if (a == 0.0 && b == 0.0) return signbit(a) ? a : b;
  return a < b ? a : b;
}
__device__ __forceinline__ int max(int a, int b) { return a > b ? a : b; }
__device__ __forceinline__ int min(int a, int b) { return a < b ? a : b; }
__device__ __forceinline__ long long max(long long a, long long b) { return a > b ? a : b; }
__device__ __forceinline__ long long min(long long a, long long b) { return a < b ? a : b; }

}  // namespace kiln
