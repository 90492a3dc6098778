#!/usr/bin/env bash
# Builds kiln_blas.c, the JNI shim of dev.kiln.runtime.cpu.HeapArrayGemm, into the runtime's
# classes: <classes>/dev/kiln/runtime/cpu/native/<platform>/libkilnblas.so. Run by Maven
# (runtime/pom.xml, phase process-classes) with the classes folder and the JDK's home.
#
# Without a C compiler, or on a platform other than Linux x86_64/aarch64, it builds nothing and
# says so: Kiln then stages GEMM operands in off-heap memory, as before, and Gemm.backend() says
# "operands staged off-heap". Never fails the build.
set -u
classes=$1
java_home=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x86_64 ;;
  Linux-aarch64) platform=linux-arm64 ;;
  *)
    echo "kiln-runtime: no JNI GEMM shim for $(uname -s)-$(uname -m); products stage their operands off-heap"
    exit 0
    ;;
esac
cc=${CC:-}
if [ -z "$cc" ]; then
  for candidate in cc gcc clang; do
    if command -v "$candidate" >/dev/null 2>&1; then
      cc=$candidate
      break
    fi
  done
fi
if [ -z "$cc" ]; then
  echo "kiln-runtime: WARNING no C compiler (cc, gcc, clang): the JNI GEMM shim is not built; products stage their operands off-heap (slower)"
  exit 0
fi
include=$java_home/include
if [ ! -f "$include/jni.h" ] && [ -f "$java_home/../include/jni.h" ]; then
  include=$java_home/../include   # a JRE inside a JDK 8-style layout
fi
if [ ! -f "$include/jni.h" ]; then
  echo "kiln-runtime: WARNING no jni.h under $java_home: the JNI GEMM shim is not built; products stage their operands off-heap (slower)"
  exit 0
fi
out=$classes/dev/kiln/runtime/cpu/native/$platform
mkdir -p "$out"
if "$cc" -O2 -std=c99 -Wall -Wextra -Werror -Wno-unused-parameter -shared -fPIC \
    -I"$include" -I"$include/linux" -pthread "$here/kiln_blas.c" -ldl -o "$out/libkilnblas.so"; then
  echo "kiln-runtime: built the JNI GEMM shim with $cc: $out/libkilnblas.so"
else
  rm -f "$out/libkilnblas.so"
  echo "kiln-runtime: WARNING $cc failed on kiln_blas.c: the JNI GEMM shim is not built; products stage their operands off-heap (slower)"
fi
exit 0
