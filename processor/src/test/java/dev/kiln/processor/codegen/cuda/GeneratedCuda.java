package dev.kiln.processor.codegen.cuda;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.kiln.processor.KilnProcessor;
import java.io.IOException;
import javax.tools.StandardLocation;

/**
 * What the processor writes for one test class, without nvcc: the class's {@code .cu} text and its
 * launchers' Java source, for tests that read the CUDA kernels and how they are launched.
 *
 * @param cu the class's CUDA C
 * @param launchers the source of {@code <package>.<Class>Kernels}
 */
record GeneratedCuda(String cu, String launchers) {
  /** Compiles the resource {@code <package>/<Class>.java} (a class of package {@code ir}, say). */
  static GeneratedCuda of(String packageName, String className) throws IOException {
    Compilation c = javac().withProcessors(new KilnProcessor()).withOptions("-Akiln.nvcc=off")
        .compile(JavaFileObjects.forResource(packageName + "/" + className + ".java"));
    assertThat(c).succeeded();
    String cu = c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/kiln/" + packageName + "/" + className + ".cu")
        .orElseThrow().getCharContent(true).toString();
    String launchers = c.generatedSourceFile(packageName + "." + className + "Kernels").orElseThrow()
        .getCharContent(true).toString();
    return new GeneratedCuda(cu, launchers);
  }

  /** The text of one kernel with the comment lines just before it. */
  String kernel(String name) {
    int start = cu.indexOf("extern \"C\" __global__ void " + name + "(");
    assertThat(start).isAtLeast(0);
    int from = cu.lastIndexOf("\n\n", start) + 2;
    return cu.substring(from, cu.indexOf("\n}\n", start) + 3);
  }
}
