package dev.kiln.tests.cuda;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Compiles a generated .cu with the host C++ compiler against {@code cuda_emulation.h}, plus a
 * generated {@code main} that reads one kernel's arguments from a file, calls it (one block of one
 * thread) and writes every array argument back.
 */
final class HostEmulator {
  private final Path executable;
  final Map<String, List<KernelSignatures.Param>> kernels;

  private HostEmulator(Path executable, Map<String, List<KernelSignatures.Param>> kernels) {
    this.executable = executable;
    this.kernels = kernels;
  }

  static HostEmulator build(String cuResource, Path work, Path compiler) throws IOException, InterruptedException {
    String cu = read(cuResource);
    Map<String, List<KernelSignatures.Param>> kernels = KernelSignatures.of(cu);
    for (String h : List.of("kiln/kiln.cuh", "kiln/math.cuh", "kiln/index.cuh", "kiln/reduce.cuh")) {
      Path target = work.resolve(h);
      Files.createDirectories(target.getParent());
      Files.writeString(target, read(h));
    }
    Files.writeString(work.resolve("cuda_emulation.h"), read("emulation/cuda_emulation.h"));
    Files.writeString(work.resolve("kernels.cu.h"), cu);
    Files.writeString(work.resolve("main.cpp"), glue(kernels));
    Path exe = work.resolve("kernels");
    Process p = new ProcessBuilder(compiler.toString(), "-O1", "-std=c++17", "-w", "-include", "cuda_emulation.h",
        "-I", work.toString(), "-o", exe.toString(), work.resolve("main.cpp").toString(), "-lm")
        .directory(work.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new AssertionError("the host compiler rejected " + cuResource + ":\n" + out);
    }
    return new HostEmulator(exe, kernels);
  }

  /** Runs {@code kernel} on the arguments in {@code input}; its array arguments come back in {@code output}. */
  void run(String kernel, Path input, Path output) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(executable.toString(), kernel, input.toString(), output.toString())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new AssertionError("emulated kernel " + kernel + " failed (exit " + p.exitValue() + "): " + out);
    }
  }

  private static String glue(Map<String, List<KernelSignatures.Param>> kernels) {
    StringBuilder c = new StringBuilder();
    c.append("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include \"kernels.cu.h\"\n");
    c.append("static FILE* in;\n");
    c.append("template <class T> static T rd() { T v; if (fread(&v, sizeof v, 1, in) != 1) exit(3); return v; }\n");
    c.append("template <class T> static T* rda(long long* n) { *n = rd<long long>();"
        + " T* p = (T*) malloc(*n * sizeof(T) + 1); if (fread(p, sizeof(T), *n, in) != (size_t) *n) exit(4); return p; }\n");
    c.append("int main(int argc, char** argv) {\n  in = fopen(argv[2], \"rb\");\n  FILE* out = fopen(argv[3], \"wb\");\n");
    for (Map.Entry<String, List<KernelSignatures.Param>> k : kernels.entrySet()) {
      c.append("  if (strcmp(argv[1], \"").append(k.getKey()).append("\") == 0) {\n");
      List<KernelSignatures.Param> ps = k.getValue();
      StringBuilder call = new StringBuilder();
      for (int i = 0; i < ps.size(); i++) {
        KernelSignatures.Param p = ps.get(i);
        if (p.pointer()) {
          c.append("    long long n").append(i).append("; ").append(p.type()).append("* a").append(i)
              .append(" = rda<").append(p.type()).append(">(&n").append(i).append(");\n");
        } else {
          c.append("    ").append(p.type()).append(" a").append(i).append(" = rd<").append(p.type()).append(">();\n");
        }
        call.append(i == 0 ? "" : ", ").append("a").append(i);
      }
      c.append("    ").append(k.getKey()).append("(").append(call).append(");\n");
      for (int i = 0; i < ps.size(); i++) {
        if (ps.get(i).pointer()) {
          c.append("    fwrite(a").append(i).append(", sizeof(").append(ps.get(i).type()).append("), n").append(i).append(", out);\n");
        }
      }
      c.append("    fclose(out);\n    return 0;\n  }\n");
    }
    c.append("  return 2;\n}\n");
    return c.toString();
  }

  private static String read(String resource) throws IOException {
    try (InputStream in = HostEmulator.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("resource " + resource + " is not on the test class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
