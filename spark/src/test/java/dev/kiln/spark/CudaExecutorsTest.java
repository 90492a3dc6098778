package dev.kiln.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.tests.CudaSourcesTest;
import dev.kiln.tests.cuda.EmulatedDriver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "-Dkiln.device=cuda"));
    for (String option : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (option.startsWith("--add-opens") || option.startsWith("--add-modules") || option.startsWith("-Djdk.reflect")) {
        command.add(option);
      }
    }
    command.add(CudaExecutorsRun.class.getName());
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(work.resolve("output.txt").toFile());
    pb.environment().putAll(driver.environment());
    Process child = pb.start();
    boolean finished = child.waitFor(5, TimeUnit.MINUTES);
    if (!finished) {
      child.destroyForcibly().waitFor();
    }
    String out = Files.readString(work.resolve("output.txt"), StandardCharsets.UTF_8);
    assertTrue(finished, "the child did not finish in 5 minutes:\n" + out);
    assertEquals(0, child.exitValue(), out);
    assertTrue(out.contains("\nOK"), out);
    Matcher launches = Pattern.compile("LAUNCHES (\\d+)").matcher(out);
    assertTrue(launches.find() && Integer.parseInt(launches.group(1)) >= 20,
        "the parts ran no CUDA kernels (one or more launches a part are expected):\n" + out);
  }
}
