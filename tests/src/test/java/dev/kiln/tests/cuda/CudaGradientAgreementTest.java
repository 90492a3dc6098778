package dev.kiln.tests.cuda;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.runtime.cuda.CudaRuntime;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * Every gradient launcher of the test suite on a real GPU, through its generated device launcher
 * ({@code fGrad(CudaStream, ..., Device*Array ...)}: the backward composite's kernels with
 * temporaries allocated and zero-filled on the device; or an elementwise gradient's map kernel),
 * compared with the CPU gradient launcher on the same arguments (floats within 2e-4 relative: the
 * GPU's block trees sum in another order than the CPU's chunks). Where there is no CUDA device it
 * is skipped, saying why.
 */
@Tag("gpu")
class CudaGradientAgreementTest {
  @TestFactory
  Stream<DynamicTest> everyGradientAgreesWithItsCpuLauncherOnCuda() throws ClassNotFoundException {
    if (!CudaRuntime.available()) {
      String reason = "no CUDA here: " + CudaRuntime.unavailableReason();
      return Stream.of(DynamicTest.dynamicTest("every gradient on CUDA (skipped)", () -> assumeTrue(false, reason)));
    }
    return GradientRuns.all(new GpuBackend(CudaRuntime.device()));
  }
}
