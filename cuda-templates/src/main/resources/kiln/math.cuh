// The device side of dev.kiln.KMath and java.lang.Math, overloaded on float and double (and, for
// abs/min/max, int and long long). Generated code calls kiln::fn(...) with arguments already of
// the overload's type.
//
// Precision switch: by default float exp, tanh, sigmoid and erf are Kiln's own (below: the CPU's
// bits) and every other function is the precise CUDA libm one (logf, sinf, ...).
// Compiling with -DKILN_FAST_MATH=1 maps the float functions that have hardware intrinsics to them
// (__expf, __logf, __sinf, __cosf, __powf, __fdividef for sigmoid), and tanh and erf to CUDA's tanhf
// and erff (which --use_fast_math makes approximate): faster, a few ulp less exact, and no longer
// the CPU's bits. (On an H100, 2026-11-27, GELU's kernel without any erf ran at 76% of the device
// copy and with Kiln's erf at 71%: the exact erf costs little there.)
// min and max follow Java, not fmin/fmax: a NaN operand gives NaN, and max(-0.0, 0.0) is 0.0.
#pragma once

#ifndef KILN_FAST_MATH
#define KILN_FAST_MATH 0
#endif

namespace kiln {

// ---- float exp, tanh and sigmoid: the same operations, in the same order, as dev.kiln.FloatMath ----
// (exp: Cody-Waite reduction and Cephes' single-precision polynomial; tanh: a fitted quotient). __fmaf_rn where FloatMath calls
// Math.fma (both a correctly rounded fused multiply-add), and __fmul_rn/__fadd_rn/__fdiv_rn elsewhere
// to keep nvcc from fusing the other multiply-adds, so the device computes the CPU's bits exactly.

// Branch-free: every lane computes the polynomial or quotient (for every argument) and selects
// the result, so that a warp never splits on the argument's range and the independent chains
// overlap; each result is the same operations on the same values as FloatMath's branch, so the
// bits are the same. Arguments outside a formula's range are clamped or selected away before they
// could overflow an integer shift.

__device__ __forceinline__ float exp_float(float x) {
  const float exp_max = 88.72283935546875f;
  const float exp_min = -103.972084045410156f;
  // in range, xc == x; a NaN becomes exp_min (fmaxf drops NaN), selected away below
  const float xc = fminf(fmaxf(x, exp_min), exp_max);
  const float round = 12582912.0f;
  float t = __fmaf_rn(xc, 1.44269504088896341f, round);
  float kf = __fsub_rn(t, round);
  // n = (int) kf, read from t's bits: t is an integer in [2^23, 2^24), 1.5 * 2^23 + n (a
  // float-to-int conversion is an eighth of the arithmetic's rate on a GPU)
  int n = __float_as_int(t) - 0x4B400000;
  float r = __fmaf_rn(kf, -0.693359375f, xc);
  r = __fmaf_rn(kf, 2.12194440e-4f, r);
  float p = 1.9875691500E-4f;
  p = __fmaf_rn(p, r, 1.3981999507E-3f);
  p = __fmaf_rn(p, r, 8.3334519073E-3f);
  p = __fmaf_rn(p, r, 4.1665795894E-2f);
  p = __fmaf_rn(p, r, 1.6666665459E-1f);
  p = __fmaf_rn(p, r, 5.0000001201E-1f);
  p = __fadd_rn(__fadd_rn(__fmul_rn(p, __fmul_rn(r, r)), r), 1.0f);
  int n1 = n >> 1;
  float e = __fmul_rn(__fmul_rn(p, __int_as_float((n1 + 127) << 23)), __int_as_float((n - n1 + 127) << 23));
  e = x < exp_min ? 0.0f : e;
  e = x > exp_max ? __int_as_float(0x7f800000) : e;
  return x != x ? x : e;
}

__device__ __forceinline__ float tanh_float(float x) {
  const float a = fabsf(x);
  const float z = __fmul_rn(a, a);
  float p = -8.51024979653392e-14f;
  p = __fmaf_rn(p, z, 5.289756480064689e-11f);
  p = __fmaf_rn(p, z, -2.025711687281273e-08f);
  p = __fmaf_rn(p, z, 1.1163801900693215e-05f);
  p = __fmaf_rn(p, z, 0.0031049696262925863f);
  p = __fmaf_rn(p, z, 0.13084952533245087f);
  p = __fmaf_rn(p, z, 1.0f);
  float q = 0.0002547555777709931f;
  q = __fmaf_rn(q, z, 0.024499323219060898f);
  q = __fmaf_rn(q, z, 0.4641827940940857f);
  q = __fmaf_rn(q, z, 1.0f);
  // positive (or +0) below 9.02; above, garbage that the selects replace
  const float r = __fdiv_rn(__fmul_rn(a, p), q);
  const int bits = __float_as_int(r);
  const int magnitude = bits < 0x3f800000 ? bits : 0x3f800000;
  const float t = __int_as_float(magnitude | (__float_as_int(x) & (int) 0x80000000));
  const float r1 = a < 9.02f ? t : copysignf(1.0f, x);
  return x != x ? x : r1;
}

__device__ __forceinline__ float sigmoid_float(float x) {
  float e = exp_float(-fabsf(x));
  float d = __fadd_rn(1.0f, e);
  return __fdiv_rn(x >= 0.0f ? 1.0f : e, d);
}

// ---- exponentials and logarithms ----
__device__ __forceinline__ float exp(float x) { return KILN_FAST_MATH ? __expf(x) : exp_float(x); }
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
__device__ __forceinline__ float tanh(float x) { return KILN_FAST_MATH ? tanhf(x) : tanh_float(x); }
__device__ __forceinline__ double tanh(double x) { return ::tanh(x); }
__device__ __forceinline__ float sigmoid(float x) {
  return KILN_FAST_MATH ? __fdividef(1.0f, 1.0f + __expf(-x)) : sigmoid_float(x);
}
__device__ __forceinline__ double sigmoid(double x) { return 1.0 / (1.0 + ::exp(-x)); }
// dev.kiln.FloatMath.erf, the same operations in the same order: x * P(x*x) / Q(x*x), its magnitude
// clamped to 1 by its bits (a NaN quotient too), x's sign; a NaN argument gives itself
__device__ __forceinline__ float erf_float(float x) {
  const float z = __fmul_rn(x, x);
  float p = 2.0500654045463307e-06f;
  float q = 3.809128247667104e-05f;
  p = __fmaf_rn(p, z, 0.000284878711681813f);
  q = __fmaf_rn(q, z, 0.0011625137412920594f);
  p = __fmaf_rn(p, z, 0.003765546018257737f);
  q = __fmaf_rn(q, z, 0.01496907975524664f);
  p = __fmaf_rn(p, z, 0.052748505026102066f);
  q = __fmaf_rn(q, z, 0.11410851776599884f);
  p = __fmaf_rn(p, z, 0.19040514528751373f);
  q = __fmaf_rn(q, z, 0.5020748972892761f);
  p = __fmaf_rn(p, z, 1.1283791065216064f);
  q = __fmaf_rn(q, z, 1.0f);
  const float r = __fdiv_rn(__fmul_rn(x, p), q);
  const int bits = __float_as_int(r) & 0x7fffffff;
  const int magnitude = bits < 0x3f800000 ? bits : 0x3f800000;
  const float e = __int_as_float(magnitude | (__float_as_int(x) & (int) 0x80000000));
  return x != x ? x : e;
}
__device__ __forceinline__ float erf(float x) { return KILN_FAST_MATH ? erff(x) : erf_float(x); }
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

// ---- counter-based random numbers: dev.kiln.KRandom ----
// Philox4x32-10 (Salmon et al., SC 2011; Random123's constants): the same words as the CPU for the
// same counter and key, so a kernel draws the same numbers on either side and under any grid.
__device__ __forceinline__ uint2 philox4x32_words01(unsigned int c0, unsigned int c1, unsigned int c2,
                                                    unsigned int c3, unsigned int k0, unsigned int k1) {
#pragma unroll
  for (int r = 0; r < 10; r++) {
    if (r > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    unsigned int hi0 = __umulhi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
    unsigned int hi1 = __umulhi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
  }
  return make_uint2(c0, c1);
}
// KRandom.uniform: counter (index, stream, 0, 0), key (seed, 0); the first word's top 24 bits times 2^-24
__device__ __forceinline__ float uniform(int seed, int stream, int index) {
  uint2 w = philox4x32_words01((unsigned int) index, (unsigned int) stream, 0u, 0u, (unsigned int) seed, 0u);
  return __fmul_rn((float) (w.x >> 8), 5.9604644775390625e-8f);
}
// KRandom.logUnit: Cephes' logf for u in (0, 1], the CPU's operations in its order
__device__ __forceinline__ float random_log_unit(float u) {
  int bits = __float_as_int(u);
  int e = (int) ((unsigned int) bits >> 23) - 126;
  float x = __int_as_float((bits & 0x007FFFFF) | 0x3F000000);
  if (x < 0.70710677f) {
    e -= 1;
    x = __fsub_rn(__fadd_rn(x, x), 1.0f);
  } else {
    x = __fsub_rn(x, 1.0f);
  }
  float z = __fmul_rn(x, x);
  float y = 7.0376836292E-2f;
  y = __fmaf_rn(y, x, -1.1514610310E-1f);
  y = __fmaf_rn(y, x, 1.1676998740E-1f);
  y = __fmaf_rn(y, x, -1.2420140846E-1f);
  y = __fmaf_rn(y, x, 1.4249322787E-1f);
  y = __fmaf_rn(y, x, -1.6668057665E-1f);
  y = __fmaf_rn(y, x, 2.0000714765E-1f);
  y = __fmaf_rn(y, x, -2.4999993993E-1f);
  y = __fmaf_rn(y, x, 3.3333331174E-1f);
  y = __fmul_rn(__fmul_rn(y, x), z);
  float fe = (float) e;
  y = __fmaf_rn(fe, -2.12194440e-4f, y);
  y = __fmaf_rn(-0.5f, z, y);
  return __fmaf_rn(fe, 0.693359375f, __fadd_rn(x, y));
}
// KRandom.cosTurn: cos(2 pi k / 2^24), a quarter turn from k's top two bits, then polynomials in t^2
__device__ __forceinline__ float random_cos_turn(unsigned int k) {
  unsigned int quarter = k >> 22;
  float t = __fmul_rn((float) (k & 0x3FFFFFu), 2.384185791015625e-7f);
  float z = __fmul_rn(t, t);
  float c = -2.3848322598496452e-05f;
  c = __fmaf_rn(c, z, 0.0009177866159006953f);
  c = __fmaf_rn(c, z, -0.020862746983766556f);
  c = __fmaf_rn(c, z, 0.2536693513393402f);
  c = __fmaf_rn(c, z, -1.2337005138397217f);
  c = __fmaf_rn(c, z, 1.0f);
  float s = -3.434721293160692e-06f;
  s = __fmaf_rn(s, z, 0.0001602623233338818f);
  s = __fmaf_rn(s, z, -0.004681664984673262f);
  s = __fmaf_rn(s, z, 0.07969260960817337f);
  s = __fmaf_rn(s, z, -0.6459640860557556f);
  s = __fmaf_rn(s, z, 1.5707963705062866f);
  s = __fmul_rn(s, t);
  return quarter == 0 ? c : quarter == 1 ? -s : quarter == 2 ? -c : s;
}
// KRandom.normal: Box-Muller on the first two words for key (seed, 1)
__device__ __forceinline__ float normal(int seed, int stream, int index) {
  uint2 w = philox4x32_words01((unsigned int) index, (unsigned int) stream, 0u, 0u, (unsigned int) seed, 1u);
  float u1 = __fmul_rn((float) ((w.x >> 8) + 1u), 5.9604644775390625e-8f);
  return __fmul_rn(__fsqrt_rn(__fmul_rn(-2.0f, random_log_unit(u1))), random_cos_turn(w.y >> 8));
}

}  // namespace kiln
