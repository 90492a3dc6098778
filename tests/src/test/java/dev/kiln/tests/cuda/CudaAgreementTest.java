package dev.kiln.tests.cuda;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.runtime.cuda.CudaRuntime;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * Every operator of the test suite on a real GPU, through its generated device launcher, compared
 * with its plain-Java source. Where there is no CUDA device it is skipped, saying why.
 */
@Tag("gpu")
class CudaAgreementTest {
  @TestFactory
  Stream<DynamicTest> everyOperatorAgreesWithItsSourceOnCuda() {
    if (!CudaRuntime.available()) {
      String reason = "no CUDA here: " + CudaRuntime.unavailableReason();
      return Stream.of(DynamicTest.dynamicTest("every operator on CUDA (skipped)", () -> assumeTrue(false, reason)));
    }
    return OperatorRuns.all(new GpuBackend(CudaRuntime.device()));
  }
}
