#!/usr/bin/env bash
# On a GPU machine (`bash .gpu/run.sh micro` there, or `bash scripts/gpu-micro/diag.sh` in a
# checkout): builds micro.cu (hand-written forms of Kiln's GELU and softmax kernels, timed with CUDA
# events beside a device copy of the same bytes) against Kiln's CUDA headers and runs it; then ncu's
# launch statistics, occupancy and throughput of its kernels and of PyTorch's GELU and softmax
# (pt_probe.py), into $OUT/ncu-micro.txt and $OUT/ncu-torch.txt. docs/BENCHMARKS.md has its results
# (the fourth GPU session).
set -u
out=${OUT:-/tmp}
cd "$(dirname "${BASH_SOURCE[0]}")"
nvcc -arch=compute_80 -code=compute_80 -std=c++17 --fmad=false -prec-div=true -prec-sqrt=true \
  -I "${KILN_CUDA_HEADERS:-../../cuda-templates/src/main/resources}" -o micro micro.cu || exit 1
timeout 60 ./micro
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1)
echo "ncu: $ncu"
[ -n "$ncu" ] && [ "${KILN_MICRO_NCU:-1}" != 0 ] || exit 0
timeout 60 "$ncu" --clock-control none --kernel-name-base demangled -k 'regex:gelu_base|gelu_vec4|softmax_smem|softmax_reg' -c 6 \
  --section LaunchStats --section Occupancy --section SpeedOfLight ./micro > "$out/ncu-micro.txt" 2>&1
echo "ncu micro rc $?"
timeout 90 "$ncu" --clock-control none --kernel-name-base demangled -k 'regex:Gelu|gelu|SoftMax|softmax' -c 6 \
  --section LaunchStats --section Occupancy --section SpeedOfLight python3 pt_probe.py > "$out/ncu-torch.txt" 2>&1
echo "ncu torch rc $?"
