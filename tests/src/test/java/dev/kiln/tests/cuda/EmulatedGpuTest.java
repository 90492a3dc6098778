package dev.kiln.tests.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.tests.CudaSourcesTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GPU tests ({@link CudaAgreementTest}, {@link CudaGradientAgreementTest}) run without a GPU:
 * in a child JVM whose {@code libcuda.so.1} is the emulated driver ({@link EmulatedDriver}), with
 * {@code -Dkiln.device=cuda}. Everything above the driver is what runs on a GPU: JCuda, the
 * runtime's preflight, device arrays, module loading from the PTX resources, argument checks and
 * launch configurations, and every generated device launcher (composites' kernel sequences and
 * temporaries included). The kernels are the generated CUDA C, built for the host and run with
 * real grids and blocks: every thread with its own indices, barriers and shared memory per block,
 * blocks and threads in a shuffled order; device memory starts as NaN and ends at a guard page.
 *
 * <p>Each child test comes back as one dynamic test here. Twice: with the device's real grid
 * limits, and with a grid of at most 2 blocks along each axis, so that every grid-stride loop
 * strides.
 */
class EmulatedGpuTest {
  /** The GPU tests of the kernels, run under both grid limits. */
  private static final List<String> KERNEL_TESTS = List.of(
      CudaAgreementTest.class.getName(), CudaGradientAgreementTest.class.getName());

  /**
   * The runtime's own GPU test (device arrays, streams, threads, launch counts and timing, errors;
   * it checks that the device allows grids of at least 65535 blocks) and the emulation's fault
   * checks, run once, under the real limits.
   */
  private static final List<String> RUNTIME_TESTS = List.of(
      "dev.kiln.runtime.cuda.CudaGpuTest", EmulationFaultsTest.class.getName());

  @TempDir static Path work;

  @TestFactory
  Stream<DynamicTest> gpuTestsPassOnTheEmulatedDriver() throws Exception {
    List<String> tests = new ArrayList<>(KERNEL_TESTS);
    tests.addAll(RUNTIME_TESTS);
    return run("real grid limits", java.util.Map.of(), "1", tests);
  }

  @TestFactory
  Stream<DynamicTest> gpuTestsPassWithGridsOfTwoBlocks() throws Exception {
    return run("grids of at most 2 x 2 x 2 blocks", java.util.Map.of("KILN_CUDA_EMULATION_MAX_GRID", "2,2,2"), "7",
        KERNEL_TESTS);
  }

  /**
   * A CUDA 12.6 driver, which refuses the build's PTX (ISA 9.0, from nvcc 13): the runtime must
   * compile every module's .cu with NVRTC (the emulated NVRTC 12.6, which compiles with nvcc) and
   * load that.
   */
  @TestFactory
  Stream<DynamicTest> runtimeTestsPassOnAnOlderDriverThroughNvrtc() throws Exception {
    return run("CUDA 12.6 driver, modules from NVRTC", java.util.Map.of("KILN_CUDA_EMULATION_DRIVER_VERSION", "12060"),
        "3", RUNTIME_TESTS);
  }

  private static EmulatedDriver driver;

  private static Stream<DynamicTest> run(String what, java.util.Map<String, String> settings, String seed,
      List<String> testClasses) throws Exception {
    Path cc = CudaSourcesTest.tool("gcc");
    Path cxx = CudaSourcesTest.tool("g++");
    if (cc == null || cxx == null) {
      return skipped(what, "the emulated driver is built with gcc and g++, and this machine lacks them");
    }
    if (driver == null) {
      driver = EmulatedDriver.build(Files.createDirectories(work.resolve("driver")), cc, cxx);
    }
    if (driver.modules.isEmpty()) {
      return skipped(what, "no generated class has PTX on the class path (nvcc was not found at build time), and the"
          + " runtime loads modules from their PTX");
    }
    Path results = work.resolve("results-" + seed + ".tsv");
    if (CudaSourcesTest.tool("nvcc") == null && settings.containsKey("KILN_CUDA_EMULATION_DRIVER_VERSION")) {
      return skipped(what, "the emulated NVRTC compiles with nvcc, and this machine lacks it");
    }
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"),
        "-Dkiln.device=cuda", "-Dkiln.cuda.timing=true",
        EmulatedGpuRun.class.getName(), results.toString()));
    command.addAll(testClasses);
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().putAll(driver.environment());
    pb.environment().put("KILN_CUDA_EMULATION_SEED", seed);
    pb.environment().putAll(settings);
    Process child = pb.start();
    byte[] output = child.getInputStream().readAllBytes();
    boolean finished = child.waitFor(1200, TimeUnit.SECONDS);
    String log = tail(new String(output, StandardCharsets.UTF_8));
    List<String> lines = EmulatedGpuRun.read(results);
    System.out.println("[" + what + "] " + lines.stream().filter(l -> l.startsWith("DEVICE") || l.startsWith("LAUNCHES"))
        .map(l -> l.replace('\t', ' ')).toList() + ", " + lines.stream().filter(l -> l.startsWith("PASS")).count() + " passed");
    List<DynamicTest> tests = new ArrayList<>();
    tests.add(DynamicTest.dynamicTest("[" + what + "] the child JVM opened the emulated device and ran the GPU tests", () -> {
      assertTrue(finished, "the child JVM did not finish in 20 minutes:\n" + log);
      assertTrue(!lines.isEmpty() && lines.get(0).startsWith("DEVICE\t"), "the child wrote no results:\n" + log);
      String[] device = lines.get(0).split("\t", -1);
      assertTrue(device[1].contains("Kiln CUDA emulation"), "the child did not open the emulated device: "
          + String.join(" ", device) + "\n" + log);
      assertEquals(0, child.exitValue(), "the child JVM exited with " + child.exitValue() + ":\n" + log);
      assertTrue(lines.stream().anyMatch(l -> l.startsWith("PASS\t")), "no GPU test passed:\n" + log);
      assertTrue(lines.get(lines.size() - 1).startsWith("LAUNCHES\t"), "the child stopped before the end:\n" + log);
    }));
    for (String line : lines) {
      String[] f = line.split("\t", -1);
      if (f.length < 3 || !(f[0].equals("PASS") || f[0].equals("FAIL") || f[0].equals("SKIP"))) {
        continue;
      }
      String message = f[2].replace("\\n", "\n");
      tests.add(DynamicTest.dynamicTest("[" + what + "] " + f[1], () -> {
        switch (f[0]) {
          case "FAIL" -> fail(message + "\n(child output, last lines:)\n" + log);
          case "SKIP" -> assumeTrue(false, message);
          default -> { }
        }
      }));
    }
    return tests.stream();
  }

  private static Stream<DynamicTest> skipped(String what, String reason) {
    return Stream.of(DynamicTest.dynamicTest("[" + what + "] GPU tests on the emulated driver (skipped)",
        () -> assumeTrue(false, reason)));
  }

  private static String tail(String s) {
    return s.length() <= 6000 ? s : "...\n" + s.substring(s.length() - 6000);
  }
}
