package dev.kiln.tests.cuda;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.KMath;
import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.CudaRuntime;
import dev.kiln.runtime.cuda.CudaStream;
import dev.kiln.runtime.cuda.DeviceFloatArray;
import dev.kiln.tests.FloatSamples;
import dev.kiln.tests.simd.MathOpsKernels;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The device's float exp, tanh, sigmoid and erf ({@code kiln/math.cuh}, branch-free) give KMath's
 * bits, as its header promises: every 997th float on a GPU (every 65537th on the emulated driver,
 * whose threads cost microseconds each), the specials, and the 64 floats on each side of every
 * boundary where FloatMath changes formula, each through the CUDA kernel of a one-function operator,
 * compared bit for bit with {@code KMath} on the CPU. Skipped, saying why, where there is no CUDA
 * device; {@code EmulatedGpuTest} runs it on the emulated driver (math.cuh compiled for the host).
 */
@Tag("gpu")
class CudaMathBitsTest {
  private CudaDevice device;
  private float[] inputs;

  @BeforeEach
  void needsCuda() {
    assumeTrue(CudaRuntime.available(), () -> "no CUDA here: " + CudaRuntime.unavailableReason());
    device = CudaRuntime.device();
    float[] sampled = FloatSamples.everyNth(EmulatedDriver.emulates(device.name()) ? 65537 : 997);
    float[] boundaries = FloatSamples.SPECIALS;
    inputs = java.util.Arrays.copyOf(sampled, sampled.length + boundaries.length * 128);
    int n = sampled.length;
    for (float b : boundaries) {
      for (int d = -64; d < 64; d++) {
        inputs[n++] = Float.intBitsToFloat(Float.floatToRawIntBits(b) + d);
      }
    }
  }

  @Test
  void expGivesKMathsBits() {
    check("exp", KMath::exp, MathOpsKernels::exp);
  }

  @Test
  void tanhGivesKMathsBits() {
    check("tanh", KMath::tanh, MathOpsKernels::tanh);
  }

  @Test
  void sigmoidGivesKMathsBits() {
    check("sigmoid", KMath::sigmoid, MathOpsKernels::sigmoid);
  }

  @Test
  void erfGivesKMathsBits() {
    check("erf", KMath::erf, MathOpsKernels::erf);
  }

  private interface DeviceMap {
    void launch(CudaStream stream, int n, DeviceFloatArray x, DeviceFloatArray y);
  }

  private void check(String name, java.util.function.UnaryOperator<Float> cpu, DeviceMap gpu) {
    float[] expected = new float[inputs.length];
    for (int k = 0; k < inputs.length; k++) {
      expected[k] = cpu.apply(inputs[k]);
    }
    try (DeviceFloatArray x = device.upload(inputs); DeviceFloatArray y = device.allocFloats(inputs.length)) {
      gpu.launch(device.defaultStream(), inputs.length, x, y);
      assertNull(FloatSamples.firstDifference(name, inputs, expected, y.download()));
    }
  }
}
