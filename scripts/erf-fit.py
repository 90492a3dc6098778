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

f32 = np.float32
ONE, DEG, NUDGES = 3.92, 5, 300


def fit(zmax, iters=100):
    z = (1 - np.cos(np.linspace(0, np.pi, 8000))) / 2 * zmax
    u = z / zmax
    a = np.sqrt(z)
    f = np.where(z > 0, erf(a) / np.where(a > 0, a, 1), 2 / np.sqrt(np.pi))
    w, q_prev, best = np.ones_like(u), np.ones_like(u), None
    for _ in range(iters):
        powers = np.vander(u, DEG + 1, increasing=True)
        m = np.hstack([powers, -f[:, None] * powers[:, 1:]])
        scale = np.sqrt(w) / (np.abs(f) * q_prev)
        sol, *_ = np.linalg.lstsq(m * scale[:, None], f * scale, rcond=None)
        p, q = sol[:DEG + 1], np.concatenate([[1], sol[DEG + 1:]])
        q_prev = np.abs(np.polyval(q[::-1], u))
        err = (np.polyval(p[::-1], u) / np.polyval(q[::-1], u) - f) / f
        if best is None or np.max(np.abs(err)) < best[2]:
            best = (p.copy(), q.copy(), np.max(np.abs(err)))
        w = w * np.abs(err)
        w /= w.sum()
    p, q, _ = best
    k = np.arange(DEG + 1)
    return [f32(c) for c in p / zmax ** k], [f32(c) for c in q / zmax ** k]


def fma(a, b, c):
    """One fused multiply-add in float32 (through double: the product is exact, then two roundings)."""
    return (a.astype(np.float64) * b.astype(np.float64) + np.float64(c)).astype(f32)


def horner(cs, z):
    """cs[0] + cs[1] z + ... in float32, a fused multiply-add a step, from the highest power."""
    s = np.full_like(z, cs[-1])
    for c in reversed(cs[:-1]):
        s = fma(s, z, c)
    return s


def quotient(x, p, q):
    """x * P(x*x) / Q(x*x), rounded as FloatMath.erf rounds it."""
    z = x * x
    return (x * horner(p, z)) / horner(q, z), z


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


def worst(values, ref, ulp):
    return np.max(np.abs(values.astype(np.float64) - ref) / np.maximum(ulp, 1e-45))


def nudged(cs, rng):
    """Each coefficient but the first, with probability 0.3, one float up or down (in that order of draws)."""
    out = [f32(cs[0])]
    for c in cs[1:]:
        if rng.random() < 0.3:
            c = np.nextafter(f32(c), f32(np.inf) if rng.random() < .5 else f32(-np.inf))
        out.append(f32(c))
    return out


if __name__ == "__main__":
    zmax = f32(f32(ONE) * f32(ONE))
    p, q = fit(float(zmax))
    x = np.arange(0, f32(4.5).view(np.int32), 97, dtype=np.int64).astype(np.int32).view(f32)
    ref = erf(x.astype(np.float64))
    r32 = np.abs(ref.astype(f32))
    ulp = np.minimum(np.spacing(r32), np.spacing(np.nextafter(r32, f32(0)))).astype(np.float64)
    best = (worst(unclamped(x, p, q, zmax), ref, ulp), p, q)
    rng = np.random.default_rng(1)
    for _ in range(NUDGES):
        cp, cq = nudged(best[1], rng), nudged(best[2], rng)
        e = worst(unclamped(x, cp, cq, zmax), ref, ulp)
        if e < best[0]:
            best = (e, cp, cq)
    _, p, q = best
    e = worst(kiln_erff(x, p, q), ref, ulp)
    print("P (z^0 first):", ", ".join(repr(float(c)) + "f" for c in p))
    print("Q (z^0 first):", ", ".join(repr(float(c)) + "f" for c in q))
    print("worst error on every 97th float in [0, 4.5): %.3f ulp" % e)
