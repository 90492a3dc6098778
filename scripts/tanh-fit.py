#!/usr/bin/env python3
"""Fits the coefficients of dev.kiln.FloatMath.tanh (and its twins in VectorMathCode and math.cuh).

tanh(x) = a * P(z) / Q(z) with x's sign, a = |x| and z = a*a, P of degree 6 with P(0) = 1 (so that
tanh(x) = x exactly where x*x underflows, and for -0) and Q of degree 3 with Q(0) = 1, its magnitude
clamped to 1, and +-1 from |x| = 9.02 on (tanh rounds to 1 in float from 9.0109): fitted to tanh(x)/x
on |x| <= 9.02 by iteratively reweighted least squares for the smallest relative error
(rational_fit.fit, about 7e-9); then the coefficients are rounded to float and nudged an ulp at a
time at random, keeping a change where the worst error of the simulated float evaluation drops over
a sample: every 61st float in [1e-4, 2.5) and every 3rd in [2.5, 9.1), where the result is just
below 1 and the errors peak (about five minutes).

Prints the coefficients and that sampled worst error; FloatMathTest measures the Java code itself
(every float with -Dkiln.ulp.exhaustive=true: 4.91 ulp at 7.34793 for the coefficients in
FloatMath, 4.67 on the sample). The float evaluation's roundings (P, Q, the product
and the quotient, each up to half an ulp of a value in [1, 2) or above, which is a whole ulp of a
result just below 1), not the fit, bound the error.

The earlier form, 1 - 2 / (exp(2|x|) + 1) above 0.625 and an odd polynomial below, was within 1.34
ulp, but a SIMD lane computed both, an exponential and a divide and five more multiply-adds: 2.5x
the time of this quotient over a million floats on one thread (0.326 against 0.132 ms), and the
LSTM cell's forward kernel (two tanh and three sigmoids an element) spent about 40% of its time in
tanh; with the quotient it takes about 0.9 of its time (docs/BENCHMARKS.md, 2026-11-29).

Needs numpy. Run: python3 scripts/tanh-fit.py
"""
import numpy as np

from rational_fit import f32, fit, nudge, quotient, ulps_of, worst

ONE, DEG_P, DEG_Q, NUDGES = 9.02, 6, 3, 1500


def tanh_ratio(z):
    a = np.sqrt(z)
    return np.where(z > 0, np.tanh(a) / np.where(a > 0, a, 1), 1.0)


def kiln_tanhf(x, p, q):
    """FloatMath.tanh on non-negative floats (the sign is x's bit on top of the same magnitude)."""
    with np.errstate(all="ignore"):
        r, _ = quotient(x, p, q)
        r = np.minimum(r.view(np.int32), 0x3F800000).view(f32)
        return np.where(x < f32(ONE), r, f32(1))


def floats(lo, hi, step):
    """Every step-th float in [lo, hi)."""
    return np.arange(f32(lo).view(np.int32), f32(hi).view(np.int32), step, dtype=np.int64).astype(np.int32).view(f32)


if __name__ == "__main__":
    zmax = f32(f32(ONE) * f32(ONE))
    p, q = fit(tanh_ratio, float(zmax), DEG_P, DEG_Q, p0=1.0, iters=60)
    # every 61st float up to 2.5, every 3rd above, where the result is just below 1 and errors peak
    x = np.concatenate([floats(1e-4, 2.5, 61), floats(2.5, 9.1, 3)])
    ref = np.tanh(x.astype(np.float64))
    ulp = ulps_of(ref)
    p, q = nudge(p, q, lambda cp, cq: worst(kiln_tanhf(x, cp, cq), ref, ulp), NUDGES)
    print("P (z^0 first):", ", ".join(repr(float(c)) + "f" for c in p))
    print("Q (z^0 first):", ", ".join(repr(float(c)) + "f" for c in q))
    print("worst error on the sample (every 61st float in [1e-4, 2.5), every 3rd in [2.5, 9.1)): %.3f ulp" % worst(kiln_tanhf(x, p, q), ref, ulp))
