package dev.kiln.tests;

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
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The CUDA side of the build: every class's generated {@code .cu} (of {@code dev.kiln.tests.ops} and
 * {@code dev.kiln.tests.fusion}) was compiled by nvcc to PTX during this module's compilation (the
 * processor fails the build when nvcc does), every kernel of the source — operators', fused
 * composites' and gradients' — is in its PTX, and the PTX assembles with ptxas for sm_80 (Ampere)
 * and sm_90 (Hopper).
 * Without nvcc on the machine the tests are skipped, saying so.
 */
public class CudaSourcesTest {
  private static final String[] ARCHES = {"sm_80", "sm_90"};
  private static final Pattern KERNEL = Pattern.compile("extern \"C\" __global__ void (\\w+)\\(");
  /** A kernel of a composite in a fusion report: {@code "name": "f_k0"}. */
  private static final Pattern REPORTED_KERNEL = Pattern.compile("\"name\": \"(\\w+_k\\d+)\"");

  @TestFactory
  Stream<DynamicTest> everyCudaSourceHasAssemblingPtx() throws IOException, URISyntaxException {
    List<Path> sources = new ArrayList<>();
    for (Map.Entry<String, Integer> pkg : Map.of("ops", 13, "fusion", 7, "gradients", 3, "types", 2).entrySet()) {
      Path dir = Paths.get(CudaSourcesTest.class.getResource("/META-INF/kiln/dev/kiln/tests/" + pkg.getKey()).toURI());
      try (Stream<Path> files = Files.list(dir)) {
        List<Path> found = files.filter(p -> p.toString().endsWith(".cu")).sorted().toList();
        assertEquals(pkg.getValue(), found.size(), "one .cu per operator class of dev.kiln.tests." + pkg.getKey() + ": " + found);
        sources.addAll(found);
      }
    }
    Path ptxas = tool("ptxas");
    List<DynamicTest> tests = new ArrayList<>();
    for (Path cu : sources) {
      tests.add(DynamicTest.dynamicTest(cu.getParent().getFileName() + "/" + cu.getFileName(), () -> check(cu, ptxas)));
    }
    return tests.stream();
  }

  /**
   * Every kernel of a composite in the fusion report (forward composites' {@code f_k<n>}, and the
   * backward composites' {@code fGrad_k<n>} of gradients) is a kernel of the class's .cu, and every
   * gradient has CUDA: each {@code fGrad}/{@code fGrad_p} map or composite launcher of the Kernels
   * class has its kernels in the .cu (checked against the PTX by {@link #check}).
   */
  @TestFactory
  Stream<DynamicTest> everyGradientKernelIsInTheCudaSource() throws IOException, URISyntaxException {
    List<DynamicTest> tests = new ArrayList<>();
    for (Map.Entry<String, Integer> pkg : Map.of("ops", 9, "fusion", 7, "gradients", 3, "types", 2).entrySet()) {
      Path dir = Paths.get(CudaSourcesTest.class.getResource("/META-INF/kiln/dev/kiln/tests/" + pkg.getKey()).toURI());
      List<Path> sources;
      try (Stream<Path> files = Files.list(dir)) {
        sources = files.filter(p -> p.toString().endsWith(".cu")).sorted().toList();
      }
      for (Path cu : sources) {
        tests.add(DynamicTest.dynamicTest(pkg.getKey() + "/" + cu.getFileName(), () -> {
          String source = Files.readString(cu, StandardCharsets.UTF_8);
          List<String> kernels = new ArrayList<>();
          Matcher k = KERNEL.matcher(source);
          while (k.find()) {
            kernels.add(k.group(1));
            if (k.group(1).endsWith("_partials") && source.contains(" " + k.group(1).replaceAll("_partials$", "_fold") + "(")) {
              kernels.add(k.group(1).replaceAll("_partials$", "")); // a kernel with partial results: two CUDA kernels
            }
          }
          Path report = Paths.get(cu.toString().replaceAll("\\.cu$", ".fusion.json"));
          int backward = 0;
          if (Files.exists(report)) {
            String json = Files.readString(report, StandardCharsets.UTF_8);
            Matcher m = REPORTED_KERNEL.matcher(json);
            while (m.find()) {
              assertTrue(kernels.contains(m.group(1)), cu.getFileName() + " lacks kernel " + m.group(1)
                  + " of " + report.getFileName());
              backward += m.group(1).matches("\\w+Grad_k\\d+") ? 1 : 0;
            }
          }
          long gradients = kernels.stream().filter(n -> n.matches("\\w+Grad(_\\w+)?_(k\\d+|map)")).count();
          assertTrue(gradients >= backward, cu.getFileName() + ": " + gradients + " gradient kernels, "
              + backward + " in the fusion report");
          String name = cu.getFileName().toString().replaceAll("\\.cu$", "");
          Class<?> kernelsClass = Class.forName("dev.kiln.tests." + pkg.getKey() + "." + name + "Kernels");
          for (java.lang.reflect.Method m : kernelsClass.getDeclaredMethods()) {
            String launcher = m.getName();
            boolean gradient = launcher.matches("\\w+Grad(_\\w+)?") && !launcher.matches(".*_k\\d+")
                && java.lang.reflect.Modifier.isPublic(m.getModifiers()) && m.getReturnType() == void.class;
            if (gradient) {
              assertTrue(kernels.contains(launcher + "_map") || kernels.contains(launcher + "_k0") || kernels.contains(launcher),
                  name + "Kernels." + launcher + " has no CUDA kernel in " + cu.getFileName());
            }
          }
        }));
      }
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
    List<Process> runs = new ArrayList<>(); // the architectures assemble side by side
    for (String arch : ARCHES) {
      runs.add(new ProcessBuilder(ptxas.toString(), "-arch=" + arch, ptx.toString(), "-o", "/dev/null")
          .redirectErrorStream(true).start());
    }
    for (int i = 0; i < ARCHES.length; i++) {
      Process p = runs.get(i);
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor(120, TimeUnit.SECONDS), "ptxas timed out");
      assertEquals(0, p.exitValue(), "ptxas -arch=" + ARCHES[i] + " " + ptx.getFileName() + ":\n" + out);
    }
  }

  /** A CUDA tool from CUDA_HOME, PATH or /usr/local/cuda, or null. */
  public static Path tool(String name) {
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
