"""PyTorch's side of the GPU side-by-side benchmark (dev.kiln.bench.GpuSideBySide is Kiln's).

The same math and sizes, case by case and under the same names, in eager PyTorch on the GPU (op by
op, float32, TF32 off), timed the same way: the median of five rounds of about 100 ms, each round's
calls divided into its time with the device synchronised at its end. A device-to-device copy of the
same bytes is printed beside each case.

    python3 scripts/gpu_torch_bench.py [regex]
"""
import math
import re
import statistics
import sys
import time

import torch

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
dev = torch.device("cuda")


def rand(n, scale, seed):
    g = torch.Generator(device="cpu").manual_seed(seed)
    return ((torch.rand(n, generator=g) * 2 - 1) * scale).to(dev)


def timed(body):
    for _ in range(3):
        body()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    body()
    torch.cuda.synchronize()
    once = max(1e-6, time.perf_counter() - t0)
    reps = int(max(1, min(10_000, 0.1 / once)))
    rounds = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(reps):
            body()
        torch.cuda.synchronize()
        rounds.append((time.perf_counter() - start) / reps)
    return statistics.median(rounds)


def copy_seconds(nbytes):
    half = int(nbytes / 2) // 4
    a = torch.zeros(half, device=dev)
    b = torch.empty_like(a)
    s = timed(lambda: b.copy_(a))
    del a, b
    return s


def dense(b, k, n):
    x, w, bias = rand(b * k, 1, 1).view(b, k), rand(k * n, 0.05, 2).view(k, n), rand(n, 0.1, 3)
    return (lambda: torch.relu(x @ w + bias)), 2.0 * b * k * n, 4.0 * (b * k + k * n + n + b * n)


def matmul_grad():
    b, k, n = 512, 1024, 1024
    x, w, dy = rand(b * k, 1, 4).view(b, k), rand(k * n, 0.05, 5).view(k, n), rand(b * n, 1, 6).view(b, n)
    return (lambda: (dy @ w.t(), x.t() @ dy)), 4.0 * b * k * n, 4.0 * (2 * b * k + 2 * k * n + 2 * b * n)


def cell(g, c, h):
    i, j, f, o = g[:, :h], g[:, h:2 * h], g[:, 2 * h:3 * h], g[:, 3 * h:]
    cn = c * torch.sigmoid(f + 1) + torch.sigmoid(i) * torch.tanh(j)
    return cn, torch.tanh(cn) * torch.sigmoid(o)


def lstm_step(train):
    b, i, h = 256, 256, 512
    req = train
    x = rand(b * i, 1, 7).view(b, i).requires_grad_(req)
    hs = rand(b * h, 1, 8).view(b, h).requires_grad_(req)
    c = rand(b * h, 1, 9).view(b, h).requires_grad_(req)
    wx = rand(i * 4 * h, 0.05, 10).view(i, 4 * h).requires_grad_(req)
    wh = rand(h * 4 * h, 0.05, 11).view(h, 4 * h).requires_grad_(req)
    bias = rand(4 * h, 0.1, 12).requires_grad_(req)
    dcn, dhn = rand(b * h, 1, 13).view(b, h), rand(b * h, 1, 14).view(b, h)
    flops = 2.0 * b * (i + h) * 4 * h
    weights = 4.0 * (i + h) * 4 * h

    def forward():
        with torch.no_grad():
            return cell(x @ wx + hs @ wh + bias, c, h)

    def step():
        cn, hn = cell(x @ wx + hs @ wh + bias, c, h)
        return torch.autograd.grad([cn, hn], [x, hs, c, wx, wh, bias], [dcn, dhn])

    if train:
        return step, 3 * flops, 3 * weights
    return forward, flops, weights + 4.0 * b * (i + 4 * h)


def lstm_cell(train):
    b, h = 1024, 1024
    g = rand(b * 4 * h, 3, 15).view(b, 4 * h).requires_grad_(train)
    c = rand(b * h, 1, 16).view(b, h).requires_grad_(train)
    dcn, dhn = rand(b * h, 1, 17).view(b, h), rand(b * h, 1, 18).view(b, h)

    def forward():
        with torch.no_grad():
            return cell(g, c, h)

    def step():
        cn, hn = cell(g, c, h)
        return torch.autograd.grad([cn, hn], [g, c], [dcn, dhn])

    return (step, 0, 4.0 * (19 * b * h)) if train else (forward, 0, 4.0 * 7 * b * h)


def rows(kind, b, n):
    x = rand(b * n, 4, 19).view(b, n)
    dy = rand(b * n, 1, 20).view(b, n)
    gamma, beta = rand(n, 1, 21), rand(n, 1, 22)
    nbytes = 8.0 * b * n
    if kind == "Softmax":
        def f():
            with torch.no_grad():
                return torch.softmax(x, 1)
        return f, 0, nbytes
    if kind == "SoftmaxTrain":
        xg = x.clone().requires_grad_(True)
        return (lambda: torch.autograd.grad(torch.softmax(xg, 1), xg, dy)), 0, 2.5 * nbytes
    if kind == "LayerNormFwd":
        def f():
            with torch.no_grad():
                return torch.nn.functional.layer_norm(x, (n,), gamma, beta, 1e-5)
        return f, 0, nbytes
    xg, gg, bg = x.clone().requires_grad_(True), gamma.clone().requires_grad_(True), beta.clone().requires_grad_(True)
    return (lambda: torch.autograd.grad(torch.nn.functional.layer_norm(xg, (n,), gg, bg, 1e-5), (xg, gg, bg), dy)), \
        0, 2.5 * nbytes


def maps(kind, n):
    x, dy, b2 = rand(n, 3, 23), rand(n, 1, 24), rand(n, 3, 25)
    if kind == "Gelu":
        def f():
            with torch.no_grad():
                return torch.nn.functional.gelu(x)
        return f, 0, 8.0 * n
    if kind == "GeluTrain":
        xg = x.clone().requires_grad_(True)
        return (lambda: torch.autograd.grad(torch.nn.functional.gelu(xg), xg, dy)), 0, 20.0 * n
    def f():
        with torch.no_grad():
            return torch.relu(x + b2)
    return f, 0, 12.0 * n


CASES = [
    ("Dense", lambda: dense(512, 1024, 1024)),
    ("DenseLarge", lambda: dense(2048, 2048, 2048)),
    ("MatmulGrad", matmul_grad),
    ("LstmStep", lambda: lstm_step(False)),
    ("LstmStepTrain", lambda: lstm_step(True)),
    ("LstmCell", lambda: lstm_cell(False)),
    ("LstmCellTrain", lambda: lstm_cell(True)),
]
for suffix, (b, n) in (("", (2048, 2048)), ("Big", (8192, 8192))):
    for kind in ("Softmax", "SoftmaxTrain", "LayerNormFwd", "LayerNormTrain"):
        CASES.append((kind + suffix, lambda kind=kind, b=b, n=n: rows(kind, b, n)))
for suffix, n in (("", 1 << 22), ("Big", 1 << 26)):
    for kind in ("Gelu", "GeluTrain", "AddRelu"):
        CASES.append((kind + suffix, lambda kind=kind, n=n: maps(kind, n)))


def main():
    select = re.compile(sys.argv[1] if len(sys.argv) > 1 else ".")
    p = torch.cuda.get_device_properties(0)
    print(f"GPU: {p.name}, {p.multi_processor_count} multiprocessors, {p.total_memory / 2**30:.1f} GiB; "
          f"torch {torch.__version__}, CUDA {torch.version.cuda}")
    print(f"{'case':20s} {'torch ms':>10s} {'copy ms':>10s} {'GB/s':>9s} {'GFLOP/s':>9s} {'of copy':>9s}")
    for name, make in CASES:
        if not select.search(name):
            continue
        try:
            body, flops, nbytes = make()
            s = timed(body)
            copy = copy_seconds(nbytes)
        except Exception as e:  # one case's failure must not hide the others
            print(f"{name:20s} FAILED: {e!r}", flush=True)
            continue
        gflops = f"{flops / s * 1e-9:.0f}" if flops else "-"
        print(f"{name:20s} {s * 1e3:10.4f} {copy * 1e3:10.4f} {nbytes / s * 1e-9:9.1f} {gflops:>9s} "
              f"{100 * copy / s:8.0f}%", flush=True)
        del body
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
