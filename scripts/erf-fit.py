#!/usr/bin/env python3
"""Fits the coefficients of dev.kiln.FloatMath.erf (and its twins in VectorMathCode and math.cuh).

erf(x) = x * P(z) / Q(z), z = x*x, P and Q of degree 5 with Q(0) = 1, fitted to erf(x)/x on
|x| <= 3.92 (where erf rounds to 1 in float from 3.9192 on): iteratively reweighted linear least
squares on Chebyshev nodes for the smallest relative error (Lawson's weights), in double; then the
coefficients are rounded to float and nudged an ulp at a time at random, keeping a change where the
worst error of the simulated float evaluation (numpy float32, one rounding per fused multiply-add)
over every 97th float in [0, 4.5) drops (scored with 1 from 3.92 on and no clamp; the clamp to 1 of
the Java code, simulated for the error printed, only lowers errors).

Prints the coefficients and that sampled worst error; FloatMathTest measures the Java code itself
(every float with -Dkiln.ulp.exhaustive=true: 5.94 ulp at 3.740193 for the coefficients in
FloatMath). The float evaluation's four roundings (P, Q, the product and the quotient), not the fit
(about 2e-8 relative), bound the error.

Earlier forms: 1 - exp(-x*x) * Q(t) (1.06 ulp, an exp per element); x + x P(x*x) below 1 and a
degree-16 polynomial in |x| - 2 above, both evaluated on every SIMD lane (1.15 ulp, 23 fused
multiply-adds; GELU's forward pass 1.7x as long as with this quotient).

Needs numpy and scipy. Run: python3 scripts/erf-fit.py
"""
import numpy as np
from scipy.special import erf

from rational_fit import f32, fit, nudge, quotient, ulps_of, worst

ONE, DEG, NUDGES = 3.92, 5, 300


def erf_ratio(z):
    a = np.sqrt(z)
    return np.where(z > 0, erf(a) / np.where(a > 0, a, 1), 2 / np.sqrt(np.pi))


def kiln_erff(x, p, q):
    with np.errstate(all="ignore"):
        r, _ = quotient(x, p, q)
        magnitude = np.minimum(r.view(np.int32) & 0x7FFFFFFF, 0x3F800000)
        e = (magnitude | (x.view(np.int32) & np.int32(-2 ** 31))).view(f32)
        return np.where(np.isnan(x), x, e)


def unclamped(x, p, q, zmax):
    """The quotient with 1 from z >= zmax on and no clamp: what the nudging scores (x >= 0 here)."""
    r, z = quotient(x, p, q)
    return np.where(z >= zmax, f32(1), r)


if __name__ == "__main__":
    zmax = f32(f32(ONE) * f32(ONE))
    p, q = fit(erf_ratio, float(zmax), DEG, DEG)
    x = np.arange(0, f32(4.5).view(np.int32), 97, dtype=np.int64).astype(np.int32).view(f32)
    ref = erf(x.astype(np.float64))
    ulp = ulps_of(ref)
    p, q = nudge(p, q, lambda cp, cq: worst(unclamped(x, cp, cq, zmax), ref, ulp), NUDGES)
    e = worst(kiln_erff(x, p, q), ref, ulp)
    print("P (z^0 first):", ", ".join(repr(float(c)) + "f" for c in p))
    print("Q (z^0 first):", ", ".join(repr(float(c)) + "f" for c in q))
    print("worst error on every 97th float in [0, 4.5): %.3f ulp" % e)
