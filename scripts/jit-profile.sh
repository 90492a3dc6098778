#!/usr/bin/env bash
# Where a running JVM spends its time, down to the instructions of the JIT's code: the recipe the
# performance sessions used (docs/BENCHMARKS.md) to find, say, the LSTM cell's stage of stores or
# layer norm's normalising loop. It starts a Java command, lets it warm up, asks HotSpot for a perf
# map of its compiled methods (`jcmd <pid> Compiler.perfmap`), samples it with `perf record`, then
# prints the share of samples per compiled method and writes the disassembly of the methods whose
# names match REGEX, each instruction with its sample count.
#
# usage: bash scripts/jit-profile.sh REGEX [WARMUP_S] [SAMPLE_S] -- JAVA_ARGS...
#   REGEX     an extended regex of method names to disassemble (e.g. 'BenchOpsSimdKernels.lstmCell')
#   WARMUP_S  seconds before sampling (default 12); SAMPLE_S seconds sampled (default 4)
#   JAVA_ARGS the java command's arguments; it must run at least WARMUP_S + SAMPLE_S seconds
#             (the script stops it after sampling)
# Output in ./jit-profile/ (run.out, perf.data, methods.txt, annotated.txt). Needs perf (with
# permission to sample the process: root, or kernel.perf_event_paranoid <= 1), jcmd from the same
# JDK as java, objdump and python3; reads the code from /proc/PID/mem. Works without hardware
# counters (a VM's perf samples the CPU clock). Set JAVA to pick the java binary.
set -euo pipefail
regex=${1:?usage: bash scripts/jit-profile.sh REGEX [WARMUP_S] [SAMPLE_S] -- JAVA_ARGS...}
shift
warmup=12
sample=4
usage() { echo "usage: bash scripts/jit-profile.sh REGEX [WARMUP_S] [SAMPLE_S] -- JAVA_ARGS..." >&2; exit 2; }
if [[ $# -gt 0 && $1 != -- ]]; then warmup=$1; shift; fi
if [[ $# -gt 0 && $1 != -- ]]; then sample=$1; shift; fi
[[ $# -gt 1 && $1 == -- ]] || usage
[[ $warmup =~ ^[0-9]+$ && $sample =~ ^[0-9]+$ ]] || usage
shift
java=${JAVA:-java}
jcmd=${JCMD:-$(dirname "$(readlink -f "$(command -v "$java")")")/jcmd}
for tool in perf objdump python3 "$jcmd"; do
  command -v "$tool" >/dev/null || { echo "jit-profile: $tool not found" >&2; exit 1; }
done
out=jit-profile
mkdir -p "$out"
"$java" "$@" >"$out/run.out" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
sleep "$warmup"
kill -0 "$pid" 2>/dev/null || { echo "jit-profile: the java command ended before sampling (see $out/run.out)" >&2; exit 1; }
"$jcmd" "$pid" Compiler.perfmap >/dev/null
perf record -F 4000 -o "$out/perf.data" -p "$pid" -- sleep "$sample" >/dev/null 2>&1
perf script -i "$out/perf.data" -F ip 2>/dev/null | awk '{print $1}' | sort | uniq -c >"$out/ips.txt"
python3 - "$pid" "/tmp/perf-$pid.map" "$out" "$regex" <<'PY'
import bisect, re, subprocess, sys
pid, mapfile, out, regex = int(sys.argv[1]), sys.argv[2], sys.argv[3], re.compile(sys.argv[4])
syms = []
for line in open(mapfile):
    p = line.split(None, 2)
    try:
        syms.append((int(p[0], 16), int(p[1], 16), p[2].strip()))
    except (ValueError, IndexError):
        pass
syms.sort()
starts = [s[0] for s in syms]
hits, total, per = {}, 0, {}
for line in open(f"{out}/ips.txt"):
    n, ip = line.split()
    n, ip = int(n), int(ip, 16)
    hits[ip] = n
    total += n
    i = bisect.bisect_right(starts, ip) - 1
    name = syms[i][2] if i >= 0 and ip < syms[i][0] + syms[i][1] else "(native, kernel or stub)"
    per[name] = per.get(name, 0) + n
with open(f"{out}/methods.txt", "w") as f:
    for name, n in sorted(per.items(), key=lambda kv: -kv[1]):
        f.write(f"{100 * n / max(1, total):6.1f}%  {name}\n")
with open(f"{out}/annotated.txt", "w") as f, open(f"/proc/{pid}/mem", "rb") as mem:
    for start, size, name in syms:
        if not regex.search(name):
            continue
        mem.seek(start)
        open(f"{out}/code.bin", "wb").write(mem.read(size))
        dis = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", f"--adjust-vma={start}",
                              f"{out}/code.bin"], capture_output=True, text=True).stdout.splitlines()
        inside = sum(n for ip, n in hits.items() if start <= ip < start + size)
        f.write(f"=== {name} at {start:#x}, {size} bytes, {100 * inside / max(1, total):.1f}% of samples\n")
        for d in dis:
            head = d.split(":", 1)[0].strip()
            try:
                ip = int(head, 16)
            except ValueError:
                continue
            f.write(f"{hits.get(ip, 0):6d} {d}\n")
print(f"{total} samples; per method: {out}/methods.txt; code of the methods matching the regex: {out}/annotated.txt")
PY
head -15 "$out/methods.txt"
