package dev.kiln.processor.codegen.cpu;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import dev.kiln.processor.KilnProcessor;
import java.io.IOException;
import javax.tools.JavaFileObject;

/** The generated Java of test operators compiled with the Vector API (no nvcc), and methods cut out of it. */
final class GeneratedCode {
  private GeneratedCode() {}

  /** The source of {@code generatedClass} ({@code demo.OpsSimdKernels}) generated from {@code ops}, which must compile. */
  static String of(JavaFileObject ops, String generatedClass) throws IOException {
    Compilation c = javac().withProcessors(new KilnProcessor())
        .withOptions("-Akiln.nvcc=none", "--add-modules", "jdk.incubator.vector").compile(ops);
    assertThat(c).succeeded();
    return c.generatedSourceFile(generatedClass).orElseThrow().getCharContent(true).toString();
  }

  /** The source of {@code demo.OpsSimdKernels}, the SIMD forms generated from {@code ops}. */
  static String simdKernels(JavaFileObject ops) throws IOException {
    return of(ops, "demo.OpsSimdKernels");
  }

  /** The SIMD form {@code name} in {@code all} (a {@code SimdKernels} source), to its closing brace. */
  static String simdMethod(String all, String name) {
    return method(all, "static void " + name + "(");
  }

  /** The generated method of {@code all} that starts with {@code header}, to its closing brace. */
  static String method(String all, String header) {
    String from = all.substring(all.indexOf(header));
    return from.substring(0, from.indexOf("\n  }\n"));
  }
}
