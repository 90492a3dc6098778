package dev.kiln.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.tests.CudaSourcesTest;
import dev.kiln.tests.cuda.EmulatedDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parts whose executor's {@code Kiln.device()} is CUDA run the operators' CUDA kernels (the tensor
 * launchers): {@link CudaExecutorsRun} in a child JVM with {@code -Dkiln.device=cuda} on the tests
 * module's emulated CUDA driver (host builds of this module's generated {@code .cu}), Spark's local
 * mode in it.
 */
class CudaExecutorsTest {
  @TempDir Path work;

  @Test
  void partsRunTheirCudaKernelsOnAnExecutorWithAGpu() throws Exception {
    Path cc = CudaSourcesTest.tool("gcc");
    Path cxx = CudaSourcesTest.tool("g++");
    assumeTrue(cc != null && cxx != null, "the emulated driver is built with gcc and g++, and this machine lacks them");
    Path classes = Path.of(ShardOps.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Map<String, EmulatedDriver.Module> modules = EmulatedDriver.modulesUnder(classes);
    assumeTrue(modules.containsKey("dev/kiln/spark/ShardOps") && modules.get("dev/kiln/spark/ShardOps").ptx() != null,
        "the test operators have no PTX (nvcc was not found at build time), and the runtime loads modules from PTX");
    EmulatedDriver driver = EmulatedDriver.build(Files.createDirectories(work.resolve("driver")), cc, cxx, modules);
    List<String> jvmArgs = new ArrayList<>(List.of("-Dkiln.device=cuda"));
    for (String option : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (option.startsWith("--add-opens") || option.startsWith("--add-modules") || option.startsWith("-Djdk.reflect")) {
        jvmArgs.add(option);
      }
    }
    EmulatedDriver.Child child = driver.runJava(System.getProperty("java.class.path"), jvmArgs,
        CudaExecutorsRun.class.getName(), List.of(), null, Map.of(), work.resolve("output.txt"), 5);
    String out = child.output();
    assertTrue(child.finished(), "the child did not finish in 5 minutes:\n" + out);
    assertEquals(0, child.exitValue(), out);
    assertTrue(out.contains("\nOK"), out);
    Matcher launches = Pattern.compile("LAUNCHES (\\d+)").matcher(out);
    assertTrue(launches.find() && Integer.parseInt(launches.group(1)) >= 20,
        "the parts ran no CUDA kernels (one or more launches a part are expected):\n" + out);
  }
}
