"""Shared by erf-fit.py and tanh-fit.py: a rational fit in z = x*x and its float32 evaluation.

fit() solves for x * P(z) / Q(z) ~ f(x) (Q(0) = 1, and P(0) too when p0 is given) by iteratively
reweighted linear least squares on Chebyshev nodes for the smallest relative error (Lawson's
weights), in double; the float helpers simulate the Java code's arithmetic (numpy float32, one
rounding per fused multiply-add) so that coefficients can be nudged to the smallest error of the
evaluation itself.
"""
import numpy as np

f32 = np.float32


def fit(ratio, zmax, deg_p, deg_q, p0=None, iters=100):
    """Coefficients (z^0 first, rounded to float) of P and Q with P(z)/Q(z) ~ ratio(z) on [0, zmax].

    ratio(z) is f(x)/x at x = sqrt(z) (its limit at z = 0 included); p0 fixes P(0).
    """
    z = (1 - np.cos(np.linspace(0, np.pi, 8000))) / 2 * zmax
    u = z / zmax
    f = ratio(z)
    w, q_prev, best = np.ones_like(u), np.ones_like(u), None
    first = 0 if p0 is None else 1
    for _ in range(iters):
        pp = np.vander(u, deg_p + 1, increasing=True)[:, first:]
        qp = np.vander(u, deg_q + 1, increasing=True)[:, 1:]
        m = np.hstack([pp, -f[:, None] * qp])
        rhs = f if p0 is None else f - p0
        scale = np.sqrt(w) / (np.abs(f) * q_prev)
        sol, *_ = np.linalg.lstsq(m * scale[:, None], rhs * scale, rcond=None)
        n_p = deg_p + 1 - first
        p = sol[:n_p] if p0 is None else np.concatenate([[p0], sol[:n_p]])
        q = np.concatenate([[1], sol[n_p:]])
        q_prev = np.abs(np.polyval(q[::-1], u))
        err = (np.polyval(p[::-1], u) / np.polyval(q[::-1], u) - f) / f
        if best is None or np.max(np.abs(err)) < best[2]:
            best = (p.copy(), q.copy(), np.max(np.abs(err)))
        w = w * np.abs(err)
        w /= w.sum()
    p, q, _ = best
    return ([f32(c) for c in p / zmax ** np.arange(deg_p + 1)],
            [f32(c) for c in q / zmax ** np.arange(deg_q + 1)])


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
    """x * P(x*x) / Q(x*x), rounded as FloatMath rounds it; also returns x*x."""
    z = x * x
    return (x * horner(p, z)) / horner(q, z), z


def ulps_of(ref):
    """The unit in the last place of each float32-rounded reference (the smaller one at a binade's edge)."""
    r32 = np.abs(ref.astype(f32))
    return np.minimum(np.spacing(r32), np.spacing(np.nextafter(r32, f32(0)))).astype(np.float64)


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


def nudge(p, q, score, rounds, seed=1):
    """Keeps each random nudge of P and Q that lowers score(p, q); returns the best pair."""
    best = (score(p, q), p, q)
    rng = np.random.default_rng(seed)
    for _ in range(rounds):
        cp, cq = nudged(best[1], rng), nudged(best[2], rng)
        e = score(cp, cq)
        if e < best[0]:
            best = (e, cp, cq)
    return best[1], best[2]
