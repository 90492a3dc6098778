#!/usr/bin/env python3
"""Lists the names a generated `extern "C" __global__` kernel may not have.

Kiln names a grid kernel after its operator, with C linkage so that the PTX entry keeps the name.
A kernel named like a C function that the CUDA headers declare (exp, div, tanh, printf, ...)
does not compile ("more than one instance of overloaded function has C linkage"), so CudaNames
renames those. This script finds them with the nvcc at hand: it preprocesses kiln/kiln.cuh,
takes every identifier used as a call or declaration, and compiles one kernel of that name each;
the names that fail are printed, one a line (the resource
processor/src/main/resources/dev/kiln/processor/codegen/cuda/c-linkage-names.txt).

    python3 scripts/cuda-c-names.py > names.txt        # from the repository root; minutes

Rerun it when a new CUDA or C library adds functions; names may only be added, never removed
(a rename is harmless, a missing one is a build failure).
"""
import concurrent.futures
import keyword
import os
import re
import subprocess
import sys
import tempfile

TEMPLATES = os.path.abspath("cuda-templates/src/main/resources")
NVCC = ["nvcc", "-ptx", "-arch=compute_80", "-std=c++17", "-I" + TEMPLATES]
CXX_WORDS = set("""alignas alignof and and_eq asm auto bitand bitor bool break case catch char
  char16_t char32_t class compl concept const consteval constexpr constinit const_cast continue
  co_await co_return co_yield decltype default defined delete do double dynamic_cast else enum
  explicit export extern false float for friend goto if inline int long mutable namespace new
  noexcept not not_eq nullptr operator or or_eq private protected public register
  reinterpret_cast requires return short signed sizeof static static_assert static_cast struct
  switch template this thread_local throw true try typedef typeid typename union unsigned using
  virtual void volatile wchar_t while xor xor_eq""".split())


def fails(work, name):
    path = os.path.join(work, name + ".cu")
    with open(path, "w") as f:
        f.write('#include "kiln/kiln.cuh"\nextern "C" __global__ void %s(int* p) { }\n' % name)
    return subprocess.run(NVCC + [path, "-o", os.devnull], capture_output=True).returncode != 0


def main():
    with tempfile.TemporaryDirectory() as work:
        probe = os.path.join(work, "probe.cu")
        with open(probe, "w") as f:
            f.write('#include "kiln/kiln.cuh"\n')
        text = subprocess.run(["nvcc", "-E", "-std=c++17", "-arch=compute_80", "-I" + TEMPLATES, probe],
                              capture_output=True, text=True, check=True).stdout
        names = sorted({m.group(1) for m in re.finditer(r"\b([a-z][A-Za-z0-9_]*)\s*\(", text)}
                       - CXX_WORDS - set(keyword.kwlist))
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
            bad = [n for n, f in zip(names, pool.map(lambda n: fails(work, n), names)) if f]
    print("\n".join(bad))
    print(f"{len(bad)} of {len(names)} names fail", file=sys.stderr)


if __name__ == "__main__":
    main()
