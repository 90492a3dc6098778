package dev.kiln.tests.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.tests.CudaSourcesTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GPU tests ({@link CudaAgreementTest}, {@link CudaGradientAgreementTest}, the runtime's {@code
 * CudaGpuTest} and {@code CudaBlasGpuTest}) run without a GPU: in child JVMs whose {@code libcuda.so.1} is the emulated driver
 * ({@link EmulatedDriver}), with {@code -Dkiln.device=cuda}. Everything above the driver is what
 * runs on a GPU: JCuda, the runtime's preflight, device arrays, module loading from the PTX
 * resources (or NVRTC), argument checks and launch configurations, and every generated device
 * launcher (composites' kernel sequences and temporaries included). The kernels are the generated
 * CUDA C, built for the host and run with real grids and blocks: every thread with its own indices,
 * barriers and shared memory per block, blocks and threads in a shuffled order, every launch checked
 * for races; device and shared memory start as NaN, arrays end at a guard page.
 *
 * <p>Each child test comes back as one dynamic test here, under each configuration: the device's
 * real grid limits; grids of at most 2 blocks along each axis, so that every grid-stride loop
 * strides, with reductions split into segments of 16 points (so the test sizes take the segmented
 * path and its fold kernel); a CUDA 12.6 driver, which refuses the build's PTX, so modules come from NVRTC; and each
 * fault of {@link EmulationFaultsTest} in a child of its own (a failed context stays failed).
 */
class EmulatedGpuTest {
  private static final String RUNTIME_TEST = "dev.kiln.runtime.cuda.CudaGpuTest";
  private static final String CUBLAS_TEST = "dev.kiln.runtime.cuda.CudaBlasGpuTest";
  private static final String FAULTS = EmulationFaultsTest.class.getName();

  /** The GPU tests of the generated kernels. */
  private static final List<String> KERNEL_TESTS = List.of(
      CudaAgreementTest.class.getName(), CudaGradientAgreementTest.class.getName(), CudaEdgeCasesTest.class.getName(),
      CudaMathBitsTest.class.getName(), "dev.kiln.tests.TensorLaunchersTest", "dev.kiln.tests.records.MonoidsCudaTest");

  /** The emulation's checks that leave the context working. */
  private static final List<String> CLEAN_CHECKS = List.of(
      FAULTS + "#freshDeviceMemoryIsNaN", FAULTS + "#unwrittenSharedMemoryIsNaNInEveryBlock");

  /** The faults, each of which leaves the context failed. */
  private static final List<String> FAULT_TESTS = List.of(
      FAULTS + "#aWritePastTheEndIsAnIllegalAddressNamingTheKernel",
      FAULTS + "#aBarrierNotReachedByEveryThreadFailsTheLaunch",
      FAULTS + "#blocksWritingOneElementAreARace");

  @TempDir static Path work;

  private static EmulatedDriver driver;

  /** Every kernel test, the runtime's GPU test and the clean checks, under the device's own limits. */
  @TestFactory
  Stream<DynamicTest> gpuTestsPassOnTheEmulatedDriver() throws Exception {
    List<String> tests = new ArrayList<>(KERNEL_TESTS);
    tests.add(RUNTIME_TEST);
    tests.add(CUBLAS_TEST);
    tests.addAll(CLEAN_CHECKS);
    return run("real grid limits", Map.of(), List.of(), "1", tests);
  }

  @TestFactory
  Stream<DynamicTest> gpuTestsPassWithGridsOfTwoBlocks() throws Exception {
    return run("grids of at most 2 x 2 x 2 blocks, reductions in segments, column kernels of 8 threads a worker",
        Map.of("KILN_CUDA_EMULATION_MAX_GRID", "2,2,2"),
        List.of("-D" + dev.kiln.runtime.cuda.PartialResults.SEGMENT_WORK_PROPERTY + "=16",
            "-D" + dev.kiln.runtime.cuda.LaunchConfig.COLUMN_THREADS_PROPERTY + "=8"), "7", KERNEL_TESTS);
  }

  /**
   * A CUDA 12.6 driver, which refuses the build's PTX (ISA 9.0, from nvcc 13): the runtime must
   * compile each module's .cu with NVRTC (the emulated NVRTC 12.6, which compiles with nvcc) and
   * load that. The runtime's test, the NVRTC check, and the kernel tests of two generated classes
   * (all of them would cost a minute of nvcc).
   */
  @TestFactory
  Stream<DynamicTest> runtimeTestsPassOnAnOlderDriverThroughNvrtc() throws Exception {
    List<String> tests = new ArrayList<>(KERNEL_TESTS);
    tests.add(RUNTIME_TEST);
    tests.add(FAULTS + "#anOlderDriverGetsItsKernelsFromNvrtc");
    return run("CUDA 12.6 driver, modules from NVRTC", Map.of("KILN_CUDA_EMULATION_DRIVER_VERSION", "12060"),
        List.of("-D" + OperatorRuns.CLASSES_PROPERTY + "=Reductions,Lstm"), "3", tests);
  }

  /** Each fault in a JVM of its own: after a kernel fails, a CUDA context fails every call. */
  @TestFactory
  Stream<DynamicTest> faultsFailAsOnAGpu() throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    for (String fault : FAULT_TESTS) {
      String name = fault.substring(fault.indexOf('#') + 1);
      run("fault: " + name, Map.of(), List.of(), "5", List.of(fault)).forEach(tests::add);
    }
    return tests.stream();
  }

  private static Stream<DynamicTest> run(String what, Map<String, String> settings, List<String> jvmArgs, String seed,
      List<String> selectors) throws Exception {
    Path cc = CudaSourcesTest.tool("gcc");
    Path cxx = CudaSourcesTest.tool("g++");
    if (cc == null || cxx == null) {
      return skipped(what, "the emulated driver is built with gcc and g++, and this machine lacks them");
    }
    if (settings.containsKey("KILN_CUDA_EMULATION_DRIVER_VERSION") && CudaSourcesTest.tool("nvcc") == null) {
      return skipped(what, "the emulated NVRTC compiles with nvcc, and this machine lacks it");
    }
    synchronized (EmulatedGpuTest.class) {
      if (driver == null) {
        driver = EmulatedDriver.build(Files.createDirectories(work.resolve("driver")), cc, cxx);
      }
    }
    if (driver.modules.isEmpty()) {
      return skipped(what, "no generated class has PTX on the class path (nvcc was not found at build time), and the"
          + " runtime loads modules from their PTX");
    }
    Path run = Files.createDirectories(work.resolve("run-" + what.replaceAll("\\W+", "-")));
    Path results = run.resolve("results.tsv");
    Path output = run.resolve("output.txt");
    List<String> childJvmArgs = new ArrayList<>(List.of("-Dkiln.device=cuda", "-Dkiln.cuda.timing=true"));
    childJvmArgs.addAll(jvmArgs);
    List<String> childArgs = new ArrayList<>(List.of(results.toString()));
    childArgs.addAll(selectors);
    EmulatedDriver.Child child = driver.runJava(System.getProperty("java.class.path"), childJvmArgs,
        EmulatedGpuRun.class.getName(), childArgs, seed, settings, output, 20);
    boolean finished = child.finished();
    String log = tail(child.output());
    List<String> lines = EmulatedGpuRun.read(results);
    System.out.println("[" + what + "] " + lines.stream().filter(l -> l.startsWith("DEVICE") || l.startsWith("LAUNCHES"))
        .map(l -> l.replace('\t', ' ')).toList() + ", " + lines.stream().filter(l -> l.startsWith("PASS")).count() + " passed");
    List<DynamicTest> tests = new ArrayList<>();
    tests.add(DynamicTest.dynamicTest("[" + what + "] the child JVM opened the emulated device and ran the tests", () -> {
      assertTrue(finished, "the child JVM did not finish in 20 minutes and was killed:\n" + log);
      assertTrue(!lines.isEmpty() && lines.get(0).startsWith("DEVICE\t"), "the child wrote no results:\n" + log);
      String[] device = lines.get(0).split("\t", -1);
      assertTrue(EmulatedDriver.emulates(device[1]), "the child did not open the emulated device: "
          + String.join(" ", device) + "\n" + log);
      assertEquals(0, child.exitValue(), "the child JVM exited with " + child.exitValue() + ":\n" + log);
      assertTrue(lines.get(lines.size() - 1).startsWith("LAUNCHES\t"), "the child stopped before the end:\n" + log);
      for (String selector : selectors) {
        String className = selector.replaceAll("#.*", "");
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("PASS\t" + className + "\t")),
            "no test of " + selector + " passed in the child (missing from the class path, or all skipped):\n" + log);
      }
    }));
    for (String line : lines) {
      String[] f = line.split("\t", -1);
      if (f.length < 4 || !(f[0].equals("PASS") || f[0].equals("FAIL") || f[0].equals("SKIP"))) {
        continue;
      }
      String message = f[3].replace("\\n", "\n");
      String simpleName = f[1].substring(f[1].lastIndexOf('.') + 1);
      tests.add(DynamicTest.dynamicTest("[" + what + "] " + simpleName + ": " + f[2], () -> {
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
