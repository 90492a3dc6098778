#!/usr/bin/env python3
"""Fits the coefficients of dev.kiln.FloatMath.erf (and its twins in VectorMathCode and math.cuh).

Below SPLIT (1), erf(x) = x + x * P(x*x) with P of degree 6 fitted to erf(x)/x - 1; from SPLIT to
ONE (3.92), erf(x) = Q(|x| - 2) with x's sign, Q of degree 16 fitted to erf(t + 2) on [-1, 1.92]
(|x| - 2 is exact in float there, by Sterbenz's lemma). Least squares in double (Q on Chebyshev
nodes), coefficients rounded to float. Then simulates the float evaluation (numpy float32, one
rounding per fused multiply-add) on every 13th float in [0, 4.5) and prints the worst error in ulps;
FloatMathTest measures the Java code itself (every float with -Dkiln.ulp.exhaustive=true).

No exp: the previous form, 1 - exp(-x*x) * Q(t), was 1.06 ulp but cost an exp per element (GELU
on the CPU ran at half PyTorch's speed); this one is 1.15 ulp, two polynomials and blends.

Needs numpy and scipy. Run: python3 scripts/erf-fit.py
"""
import numpy as np
from scipy.special import erf

f32 = np.float32
SPLIT, ONE, MID, DEG_P, DEG_Q = 1.0, 3.92, 2.0, 6, 16


def fit():
    z = np.linspace(0, SPLIT * SPLIT, 20001)[1:]
    x = np.sqrt(z)
    p = np.polynomial.polynomial.Polynomial.fit(z, erf(x) / x - 1, DEG_P, domain=[0, SPLIT * SPLIT],
                                                window=[0, SPLIT * SPLIT]).convert().coef
    lo, hi = SPLIT - MID, ONE - MID
    t = np.cos(np.linspace(0, np.pi, 60001)) * (hi - lo) / 2 + (hi + lo) / 2
    q = np.polynomial.chebyshev.Chebyshev.fit(t, erf(t + MID), DEG_Q, domain=[lo, hi]).convert(
        kind=np.polynomial.Polynomial).coef
    return [f32(c) for c in p], [f32(c) for c in q]


def fma(a, b, c):
    """One fused multiply-add in float32: exact in double for these magnitudes, one rounding."""
    return (a.astype(np.float64) * b.astype(np.float64) + np.float64(c)).astype(f32)


def kiln_erff(x, p, q):
    x = x.astype(f32)
    a = np.abs(x)
    z = x * x
    s = np.full_like(z, p[-1])
    for c in reversed(p[:-1]):
        s = fma(s, z, c)
    small = (x.astype(np.float64) * s.astype(np.float64) + x.astype(np.float64)).astype(f32)
    t = a - f32(MID)
    b = np.full_like(t, q[-1])
    for c in reversed(q[:-1]):
        b = fma(b, t, c)
    big = np.copysign(b, x)
    r = np.where(a < f32(SPLIT), small, big)
    return np.where(a >= f32(ONE), np.copysign(f32(1), x), r)


if __name__ == "__main__":
    p, q = fit()
    bits = np.arange(0, f32(4.5).view(np.int32), 13, dtype=np.int64).astype(np.int32)
    x = bits.view(f32)
    ref = erf(x.astype(np.float64))
    r32 = np.abs(ref.astype(f32))
    ulp = np.minimum(np.spacing(r32), np.spacing(np.nextafter(r32, f32(0)))).astype(np.float64)
    err = np.abs(kiln_erff(x, p, q).astype(np.float64) - ref) / np.maximum(ulp, 1e-45)
    print("P:", ", ".join(repr(float(c)) + "f" for c in reversed(p)))
    print("Q:", ", ".join(repr(float(c)) + "f" for c in reversed(q)))
    print("worst error on every 13th float in [0, 4.5): %.3f ulp at %r" % (err.max(), float(x[np.argmax(err)])))
