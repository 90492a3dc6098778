#!/usr/bin/env python3
"""Fits the coefficients of dev.kiln.FloatMath.erf (and its twins in VectorMath and math.cuh).

Below SPLIT, erf(x) = x + x * P(x*x) with P of degree 7 fitted to erf(x)/x - 1; from SPLIT to
ONE, erf(x) = 1 - exp(-x*x) * Q(t), t = (|x| - MID) / HALF, with Q of degree 13 fitted to
erfcx(x) = exp(x*x) erfc(x). Least squares in double on dense grids, coefficients rounded to
float. Then simulates the float evaluation (numpy float32, one rounding per operation, Kiln's
float exp) on a sample of floats and prints the worst error in ulps; FloatMathTest measures the
Java code itself (every float with -Dkiln.ulp.exhaustive=true).

Needs numpy and scipy. Run: python3 scripts/erf-fit.py
"""
import numpy as np
from scipy.special import erf, erfcx

f32 = np.float32
SPLIT, ONE, DEG_P, DEG_Q = 0.95, 3.92, 7, 13
MID, HALF = (SPLIT + ONE) / 2, (ONE - SPLIT) / 2


def kiln_expf(x):
    """dev.kiln.FloatMath.exp in float32, operation by operation."""
    x = x.astype(f32)
    t = x * f32(1.44269504088896341) + f32(12582912.0)
    kf = t - f32(12582912.0)
    n = kf.astype(np.int32)
    r = x - kf * f32(0.693359375)
    r = r - kf * f32(-2.12194440e-4)
    p = f32(1.9875691500e-4)
    for c in [1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1]:
        p = p * r + f32(c)
    p = p * (r * r) + r + f32(1)
    n1 = n >> 1
    return p * ((n1 + 127) << 23).astype(np.int32).view(f32) * ((n - n1 + 127) << 23).astype(np.int32).view(f32)


def fit():
    z = np.linspace(0, SPLIT * SPLIT, 20001)[1:]
    x = np.sqrt(z)
    p = np.polynomial.polynomial.Polynomial.fit(z, erf(x) / x - 1, DEG_P, domain=[0, SPLIT * SPLIT],
                                                window=[0, SPLIT * SPLIT]).convert().coef
    t = np.linspace(-1, 1, 40001)
    q = np.polynomial.polynomial.Polynomial.fit(t, erfcx(t * HALF + MID), DEG_Q, domain=[-1, 1],
                                                window=[-1, 1]).convert().coef
    return [f32(c) for c in p], [f32(c) for c in q]


def kiln_erff(x, p, q):
    x = x.astype(f32)
    a = np.abs(x)
    z = x * x
    s = p[-1]
    for c in reversed(p[:-1]):
        s = s * z + c
    small = x + x * s
    t = (a - f32(MID)) * f32(1 / HALF)
    b = q[-1]
    for c in reversed(q[:-1]):
        b = b * t + c
    big = np.copysign(f32(1) - kiln_expf(-z) * b, x)
    r = np.where(a < f32(SPLIT), small, big)
    return np.where(a >= f32(ONE), np.copysign(f32(1), x), r)


if __name__ == "__main__":
    p, q = fit()
    bits = np.arange(0, f32(4.5).view(np.int32), 13, dtype=np.int64).astype(np.int32)
    x = bits.view(f32)
    ref = erf(x.astype(np.float64))
    err = np.abs(kiln_erff(x, p, q).astype(np.float64) - ref) / np.spacing(np.abs(ref.astype(f32))).astype(np.float64)
    print("P:", ", ".join(repr(float(c)) + "f" for c in p))
    print("Q:", ", ".join(repr(float(c)) + "f" for c in q))
    print("MID", MID, "1/HALF", 1 / HALF)
    print("worst error on every 13th float in [0, 4.5): %.3f ulp at %r" % (err.max(), float(x[np.argmax(err)])))
