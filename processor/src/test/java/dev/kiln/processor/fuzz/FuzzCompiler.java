package dev.kiln.processor.fuzz;

import dev.kiln.processor.KilnProcessor;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles one generated source in-process with javac and a fresh {@link KilnProcessor}, into a
 * temporary directory, against kiln-annotations and kiln-runtime (found where this test's class
 * loader found them). The result loads the compiled classes in a fresh class loader whose parent
 * is this test's loader, so the operator class and its generated {@code Kernels} share the test's
 * copy of the runtime.
 */
final class FuzzCompiler {
  private static final JavaCompiler JAVAC = ToolProvider.getSystemJavaCompiler();
  private static final String CLASS_PATH =
      location(dev.kiln.Operator.class) + File.pathSeparator + location(dev.kiln.runtime.cpu.CpuExecutor.class);

  private FuzzCompiler() {}

  /** The outcome of one compilation; close it to delete its files. */
  static final class Compilation implements AutoCloseable {
    final boolean success;
    final List<Diagnostic<? extends JavaFileObject>> diagnostics;
    /** An exception that escaped javac or the processor (a crash), or null. */
    final Throwable crash;
    private final Path dir;
    private URLClassLoader loader;

    private Compilation(boolean success, List<Diagnostic<? extends JavaFileObject>> diagnostics, Throwable crash, Path dir) {
      this.success = success;
      this.diagnostics = diagnostics;
      this.crash = crash;
      this.dir = dir;
    }

    /** The errors, one per line: line number and message. */
    String errors() {
      StringBuilder b = new StringBuilder();
      for (Diagnostic<? extends JavaFileObject> d : diagnostics) {
        if (d.getKind() == Diagnostic.Kind.ERROR) {
          b.append("  line ").append(d.getLineNumber()).append(": ").append(d.getMessage(Locale.ROOT)).append('\n');
        }
      }
      return b.toString();
    }

    List<String> errorMessages() {
      List<String> out = new ArrayList<>();
      for (Diagnostic<? extends JavaFileObject> d : diagnostics) {
        if (d.getKind() == Diagnostic.Kind.ERROR) {
          out.add(d.getMessage(Locale.ROOT));
        }
      }
      return out;
    }

    /** The source Kiln generated for {@code qualifiedName}, or a note that there is none. */
    String generatedSource(String qualifiedName) {
      Path file = dir.resolve("gen").resolve(qualifiedName.replace('.', '/') + ".java");
      try {
        return Files.exists(file) ? Files.readString(file) : "(no " + qualifiedName + " was generated)";
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** The directory javac wrote the classes and the processor its resources into (CUDA C, PTX, IR). */
    Path classesDirectory() {
      return dir.resolve("classes");
    }

    /** The temporary directory of this compilation, which {@link #close} deletes. */
    Path directory() {
      return dir;
    }

    Class<?> load(String qualifiedName) throws ClassNotFoundException {
      if (loader == null) {
        try {
          loader = new URLClassLoader(new URL[] {dir.resolve("classes").toUri().toURL()}, FuzzCompiler.class.getClassLoader());
        } catch (MalformedURLException e) {
          throw new IllegalStateException(e);
        }
      }
      return Class.forName(qualifiedName, true, loader);
    }

    @Override
    public void close() throws IOException {
      if (loader != null) {
        loader.close();
      }
      delete(dir);
    }
  }

  /** Deletes a compilation's directory and everything under it. */
  static void delete(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** Compiles without running nvcc on the generated CUDA C (the CPU kernels are what is tested). */
  static Compilation compile(String qualifiedName, String source) throws IOException {
    return compile(qualifiedName, source, false);
  }

  /**
   * Compiles; with {@code nvcc}, the processor also compiles its CUDA C to PTX where it finds
   * nvcc (an nvcc error is then a compile error).
   */
  static Compilation compile(String qualifiedName, String source, boolean nvcc) throws IOException {
    return compile(qualifiedName, source, nvcc, false);
  }

  /**
   * Compiles; with {@code notes}, without {@code -Xlint:none} and {@code -nowarn}, which also silence the processor's
   * notes (such as KILN043, an operator that gets no derived gradient).
   */
  static Compilation compile(String qualifiedName, String source, boolean nvcc, boolean notes) throws IOException {
    Path dir = Files.createTempDirectory("kiln-fuzz");
    Files.createDirectories(dir.resolve("classes"));
    Files.createDirectories(dir.resolve("gen"));
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    boolean success = false;
    Throwable crash = null;
    try (StandardJavaFileManager files = JAVAC.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
      List<String> options = new ArrayList<>(List.of(
          "-classpath", CLASS_PATH,
          "-d", dir.resolve("classes").toString(),
          "-s", dir.resolve("gen").toString(),
          "-implicit:none",
          // parameter names in the class files: a harness that reads @Shape and @Dim by reflection
          // (the tests module's fuzzer of the CUDA kernels) matches them to the sizes by name
          "-parameters"));
      if (!notes) {
        options.add("-Xlint:none");
        options.add("-nowarn");
      }
      if (!nvcc) {
        options.add("-Akiln.nvcc=off");
      }
      if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
        // this JVM runs SIMD kernels (Simd.ENABLED): have the processor write them, so that the
        // fuzzers compare them with the plain methods too
        options.add("--add-modules");
        options.add("jdk.incubator.vector");
      }
      JavaCompiler.CompilationTask task =
          JAVAC.getTask(new StringWriter(), files, diagnostics, options, null, List.of(new Source(qualifiedName, source)));
      task.setProcessors(List.of(new KilnProcessor()));
      success = task.call();
    } catch (RuntimeException | Error e) {
      crash = e;
    }
    return new Compilation(success, diagnostics.getDiagnostics(), crash, dir);
  }

  private static String location(Class<?> c) {
    try {
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A source file held in memory. */
  private static final class Source extends SimpleJavaFileObject {
    private final String code;

    Source(String qualifiedName, String code) {
      super(URI.create("string:///" + qualifiedName.replace('.', '/') + Kind.SOURCE.extension), Kind.SOURCE);
      this.code = code;
    }

    @Override
    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
      return code;
    }
  }
}
