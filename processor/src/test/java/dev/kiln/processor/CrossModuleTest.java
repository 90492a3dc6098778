package dev.kiln.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Operators across modules: a library compiled by the processor on its own, then a user's operators
 * compiled with only the library's class output (classes and resources) on the class path. The
 * library's elementwise operators are read back from their IR resources and inlined as if their
 * source were there; without the resources, the call is refused with the reason.
 */
class CrossModuleTest {
  private static final JavaFileObject LIB = JavaFileObjects.forResource("crossmodule/lib/Lib.java");
  private static final JavaFileObject MODEL = JavaFileObjects.forResource("crossmodule/user/Model.java");

  @TempDir Path temp;

  /** Compiles {@code sources} with {@code extra} before the test class path; the processor runs unless {@code -proc:none}. */
  private static Compilation compile(List<File> extra, List<String> options, JavaFileObject... sources) {
    List<File> classpath = new ArrayList<>(extra);
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      classpath.add(new File(entry));
    }
    return javac().withProcessors(new KilnProcessor()).withOptions(options).withClasspath(classpath).compile(sources);
  }

  /** Writes a compilation's class output (class files and resources) under {@code dir}. */
  private static Path classOutput(Compilation c, Path dir) throws IOException {
    for (JavaFileObject f : c.generatedFiles()) {
      String path = f.toUri().getPath();
      String prefix = "/" + StandardLocation.CLASS_OUTPUT.getName() + "/";
      if (path.startsWith(prefix)) {
        Path out = dir.resolve(path.substring(prefix.length()));
        Files.createDirectories(out.getParent());
        try (InputStream in = f.openInputStream()) {
          Files.write(out, in.readAllBytes());
        }
      }
    }
    return dir;
  }

  private Path library() throws IOException {
    Compilation lib = compile(List.of(), List.of(), LIB);
    assertThat(lib).succeeded();
    assertThat(lib).generatedFile(StandardLocation.CLASS_OUTPUT, "lib/Lib.kir");
    assertThat(lib).generatedFile(StandardLocation.CLASS_OUTPUT, "lib/Lib_Nested.kir");
    return classOutput(lib, Files.createDirectories(temp.resolve("lib")));
  }

  private static String irListing(Compilation c, String path) throws IOException {
    return c.generatedFile(StandardLocation.CLASS_OUTPUT, path).orElseThrow().getCharContent(true).toString();
  }

  private static long lineOf(JavaFileObject source, String marker) throws IOException {
    String[] lines = source.getCharContent(true).toString().split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].contains(marker)) {
        return i + 1;
      }
    }
    throw new AssertionError(marker + " is not in " + source.getName());
  }

  @Test
  void aLibrarysElementwiseOperatorsInlineAsIfTheirSourceWereHere() throws Exception {
    Path lib = library();
    Compilation user = compile(List.of(lib.toFile()), List.of(), MODEL);
    assertThat(user).succeededWithoutWarnings();
    String listing = irListing(user, "META-INF/kiln/user/Model.ir.txt");
    assertThat(listing).contains("call log f32");
    assertThat(listing).contains("call exp f32");
    assertThat(listing).doesNotContain("softplus(");

    Compilation together = compile(List.of(), List.of(), LIB, MODEL);
    assertThat(together).succeededWithoutWarnings();
    assertThat(listing).isEqualTo(irListing(together, "META-INF/kiln/user/Model.ir.txt"));
  }

  @Test
  void aLibraryInAJarWorksAlike() throws Exception {
    Path dir = library();
    Path jar = temp.resolve("lib.jar");
    try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out);
         Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.filter(Files::isRegularFile).toList()) {
        j.putNextEntry(new JarEntry(dir.relativize(p).toString().replace(File.separatorChar, '/')));
        j.write(Files.readAllBytes(p));
        j.closeEntry();
      }
    }
    Compilation user = compile(List.of(jar.toFile()), List.of(), MODEL);
    assertThat(user).succeededWithoutWarnings();
    assertThat(irListing(user, "META-INF/kiln/user/Model.ir.txt")).contains("call log f32");
  }

  /** The generated CPU kernel, with the library's operators inlined, computes what the plain Java computes. */
  @Test
  void theInlinedKernelComputesWhatThePlainJavaComputes() throws Exception {
    Path lib = library();
    Compilation user = compile(List.of(lib.toFile()), List.of(), MODEL);
    assertThat(user).succeeded();
    Path classes = classOutput(user, Files.createDirectories(temp.resolve("user")));
    try (URLClassLoader loader = new URLClassLoader(new URL[] {lib.toUri().toURL(), classes.toUri().toURL()},
        getClass().getClassLoader())) {
      Method plain = loader.loadClass("user.Model").getMethod("act", int.class, float[].class, int.class, float[].class);
      Method kernel = loader.loadClass("user.ModelKernels").getMethod("act", int.class, float[].class, int.class, float[].class);
      int n = 257;
      float[] x = new float[n];
      for (int i = 0; i < n; i++) {
        x[i] = (i - 128) * 0.37f;
      }
      float[] expected = new float[n];
      float[] actual = new float[n];
      plain.invoke(null, n, x, 3, expected);
      kernel.invoke(null, n, x, 3, actual);
      for (int i = 0; i < n; i++) {
        assertThat(actual[i]).isWithin(1e-5f * Math.max(1f, Math.abs(expected[i]))).of(expected[i]);
      }
    }
  }

  @Test
  void aLibraryCompiledWithoutKilnIsRefusedOnTheCallWithTheReason() throws Exception {
    Compilation lib = compile(List.of(), List.of("-proc:none"), LIB);
    assertThat(lib).succeeded();
    Path dir = classOutput(lib, Files.createDirectories(temp.resolve("plain")));
    assertThat(Files.exists(dir.resolve("lib/Lib.kir"))).isFalse();

    Compilation user = compile(List.of(dir.toFile()), List.of(), MODEL);
    assertThat(user).failed();
    String reason = "[KILN031] operator 'Lib.softplus' is compiled in another module or jar, and its Kiln IR"
        + " cannot be used: class lib.Lib has no Kiln IR on the classpath (lib/Lib.kir): compile"
        + " it with the Kiln processor (version ";
    assertThat(user).hadErrorContaining(reason).inFile(MODEL).onLine(lineOf(MODEL, "y[i] = softplus(v)"));
    assertThat(user).hadErrorContaining(reason).inFile(MODEL).onLine(lineOf(MODEL, "Lib.softplus(x)"));
  }

  @Test
  void irOfAnotherVersionIsRefusedNamingBoth() throws Exception {
    Path lib = library();
    Path kir = lib.resolve("lib/Lib.kir");
    Files.writeString(kir, Files.readString(kir).replaceFirst("kiln-ir 1", "kiln-ir 7"));
    Compilation user = compile(List.of(lib.toFile()), List.of(), MODEL);
    assertThat(user).hadErrorContaining("[KILN031] operator 'Lib.softplus'").inFile(MODEL).onLine(lineOf(MODEL, "Lib.softplus(x)"));
    assertThat(user).hadErrorContaining("class lib.Lib was compiled by another Kiln: its IR (lib/Lib.kir)"
        + " is kiln-ir 7, but this Kiln (version ");
    assertThat(user).hadErrorContaining(" reads kiln-ir 1; rebuild it with this Kiln");
    assertThat(user).hadErrorCount(2);
  }

  @Test
  void unreadableIrIsRefusedWithItsLine() throws Exception {
    Path lib = library();
    Path kir = lib.resolve("lib/Lib.kir");
    List<String> lines = new ArrayList<>(Files.readAllLines(kir, StandardCharsets.UTF_8));
    int garbled = lines.indexOf(lines.stream().filter(l -> l.contains(" = call f32 log ")).findFirst().orElseThrow());
    lines.set(garbled, "  n99 = call f32 log");
    Files.write(kir, lines, StandardCharsets.UTF_8);
    Compilation user = compile(List.of(lib.toFile()), List.of(), MODEL);
    assertThat(user).hadErrorContaining("the Kiln IR of class lib.Lib (lib/Lib.kir) is unreadable at line "
        + (garbled + 1) + ": node n99 is out of order").inFile(MODEL).onLine(lineOf(MODEL, "Lib.softplus(x)"));
  }

  @Test
  void irThatNoLongerMatchesTheClassIsNotUsed() throws Exception {
    Compilation stale = compile(List.of(), List.of(), JavaFileObjects.forResource("crossmodule/stale/Lib.java"));
    assertThat(stale).succeeded();
    Path lib = library();
    Files.writeString(lib.resolve("lib/Lib.kir"), irListing(stale, "lib/Lib.kir"));
    Compilation user = compile(List.of(lib.toFile()), List.of(), MODEL);
    assertThat(user).hadErrorContaining("the Kiln IR of lib.Lib.softplus does not match its class: parameter 1 is"
        + " float in the class and double in the IR; rebuild the class with this Kiln").inFile(MODEL)
        .onLine(lineOf(MODEL, "Lib.softplus(x)"));
  }

  @Test
  void aLibrarysGridOperatorInsideAWorkerIsAGridOperatorCall() throws Exception {
    JavaFileObject source = JavaFileObjects.forResource("crossmodule/user/CallsGrid.java");
    Compilation user = compile(List.of(library().toFile()), List.of(), source);
    assertThat(user).hadErrorContaining("[KILN027] call to grid operator 'apply'").inFile(source)
        .onLine(lineOf(source, "Lib.apply("));
    assertThat(user).hadErrorCount(1);
  }
}
