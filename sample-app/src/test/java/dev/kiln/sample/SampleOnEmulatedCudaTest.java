package dev.kiln.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.tests.CudaSourcesTest;
import dev.kiln.tests.cuda.EmulatedDriver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample's CUDA path (what {@code -Dkiln.device=cuda} runs on a GPU: the LSTM forward through
 * the generated device launchers, compared with plain Java, with launches counted and timed; then
 * three training steps on the device, forward and backward, in lockstep with the CPU) run end to
 * end on the emulated CUDA driver of the tests module, in a child JVM. The sample itself checks the
 * CUDA results against plain Java and the CPU's losses, and exits 1 when they disagree.
 */
class SampleOnEmulatedCudaTest {
  @TempDir Path work;

  @Test
  void theSampleRunsItsCudaPathOnTheEmulatedDriver() throws Exception {
    Path cc = CudaSourcesTest.tool("gcc");
    Path cxx = CudaSourcesTest.tool("g++");
    assumeTrue(cc != null && cxx != null, "the emulated driver is built with gcc and g++, and this machine lacks them");
    EmulatedDriver driver = EmulatedDriver.build(Files.createDirectories(work.resolve("driver")), cc, cxx);
    assumeTrue(driver.modules.contains("dev/kiln/sample/LstmOps"),
        "the sample's kernels have no PTX (nvcc was not found at build time), and the runtime loads modules from PTX");
    EmulatedDriver.Child child = driver.runJava(System.getProperty("java.class.path"), List.of("-Dkiln.device=cuda"),
        Main.class.getName(), List.of("--train", "3", "--reps", "1", "--plot", work.resolve("training.svg").toString()),
        null, Map.of(), work.resolve("output.txt"), 10);
    String out = child.output();
    assertTrue(child.finished(), "the sample did not finish in 10 minutes and was killed:\n" + out);
    System.out.println(out.substring(Math.max(0, out.indexOf("CUDA on "))));
    assertEquals(0, child.exitValue(), "the sample failed:\n" + out);
    assertTrue(out.contains("CUDA on Kiln CUDA emulation on the host: LSTM forward"), out);
    assertTrue(out.matches("(?s).*LSTM forward [0-9.]+ ms .* [1-9][0-9]* kernel launches per pass.*"), out);
    assertTrue(out.contains("Training on CUDA: 3 steps"), out);
    assertTrue(out.matches("(?s).*kernel launches per training step on CUDA: [1-9][0-9]*.*"), out);
    String svg = Files.readString(work.resolve("training.svg"), StandardCharsets.UTF_8);
    assertTrue(svg.contains("training the LSTM on CUDA") && svg.contains("step 3: loss "), svg);
  }
}
