package dev.kiln.lib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The library's CUDA side (as the tests module's test of the same name): every class's generated
 * {@code .cu} was compiled by nvcc to PTX during this module's compilation, every kernel of the
 * source is in its PTX, and the PTX assembles with ptxas for sm_80 and sm_90. Without nvcc the
 * tests are skipped, saying so.
 */
class CudaSourcesTest {
  private static final String[] ARCHES = {"sm_80", "sm_90"};
  private static final List<String> CLASSES = List.of("Attention", "Elementwise", "Embedding", "Layout", "Linear", "Losses", "Norms", "Rows", "Scans", "Stats");
  private static final Pattern KERNEL = Pattern.compile("extern \"C\" __global__ void (\\w+)\\(");

  @TestFactory
  Stream<DynamicTest> everyCudaSourceHasAssemblingPtx() throws IOException, URISyntaxException {
    Path dir = Paths.get(CudaSourcesTest.class.getResource("/META-INF/kiln/dev/kiln/lib").toURI());
    List<String> sources;
    try (Stream<Path> files = Files.list(dir)) {
      sources = files.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".cu")).sorted().toList();
    }
    assertEquals(CLASSES.stream().map(c -> c + ".cu").toList(), sources, "one .cu per operator class");
    Path ptxas = tool("ptxas");
    List<DynamicTest> tests = new ArrayList<>();
    for (String cu : sources) {
      tests.add(DynamicTest.dynamicTest(cu, () -> check(dir.resolve(cu), ptxas)));
    }
    return tests.stream();
  }

  private static void check(Path cu, Path ptxas) throws Exception {
    Path ptx = Paths.get(cu.toString().replaceAll("\\.cu$", ".ptx"));
    assumeTrue(Files.exists(ptx) || tool("nvcc") != null,
        "nvcc is not installed here, so the build wrote no PTX; skipped");
    assertTrue(Files.exists(ptx), "nvcc is installed but " + ptx.getFileName() + " was not built");
    String source = Files.readString(cu, StandardCharsets.UTF_8);
    String assembly = Files.readString(ptx, StandardCharsets.UTF_8);
    Matcher m = KERNEL.matcher(source);
    int kernels = 0;
    while (m.find()) {
      kernels++;
      assertTrue(assembly.contains(".entry " + m.group(1) + "("), "PTX lacks kernel " + m.group(1));
    }
    assertTrue(kernels > 0, cu.getFileName() + " has no kernel");
    assumeTrue(ptxas != null, "ptxas is not installed here; skipped assembling");
    for (String arch : ARCHES) {
      Process p = new ProcessBuilder(ptxas.toString(), "-arch=" + arch, ptx.toString(), "-o", "/dev/null")
          .redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor(120, TimeUnit.SECONDS), "ptxas timed out");
      assertEquals(0, p.exitValue(), "ptxas -arch=" + arch + " " + ptx.getFileName() + ":\n" + out);
    }
  }

  /** A CUDA tool from CUDA_HOME, PATH or /usr/local/cuda, or null. */
  static Path tool(String name) {
    List<Path> candidates = new ArrayList<>();
    String home = System.getenv("CUDA_HOME");
    if (home != null) {
      candidates.add(Paths.get(home, "bin", name));
    }
    String path = System.getenv("PATH");
    if (path != null) {
      for (String d : path.split(File.pathSeparator)) {
        if (!d.isEmpty()) {
          candidates.add(Paths.get(d, name));
        }
      }
    }
    candidates.add(Paths.get("/usr/local/cuda/bin", name));
    return candidates.stream().filter(Files::isExecutable).findFirst().orElse(null);
  }
}
