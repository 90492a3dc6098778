package dev.kiln.tests.cuda;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.CudaRuntime;
import dev.kiln.runtime.cuda.CudaStream;
import dev.kiln.runtime.cuda.DeviceArray;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
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

  /** Uploads, launches the device overload of {@code <Class>Kernels}, downloads. */
  private record GpuBackend(CudaDevice gpu) implements Backend {
    @Override
    public void grid(Method op, Object[] args) throws Exception {
      run(op, args);
    }

    @Override
    public void map(Method op, Object[] inputs, Object out) throws Exception {
      Object[] args = new Object[inputs.length + 1];
      System.arraycopy(inputs, 0, args, 0, inputs.length);
      args[inputs.length] = out;
      run(op, args);
    }

    private void run(Method op, Object[] host) throws Exception {
      Method device = launcher(op);
      assertNotNull(device, "no CUDA launcher was generated for " + op.getName());
      List<DeviceArray> allocated = new ArrayList<>();
      try {
        CudaStream stream = gpu.defaultStream();
        Object[] args = new Object[host.length + 1];
        args[0] = stream;
        for (int i = 0; i < host.length; i++) {
          args[i + 1] = HostData.upload(gpu, host[i], allocated);
        }
        device.invoke(null, args);
        stream.synchronize();
        for (int i = 0; i < host.length; i++) {
          if (args[i + 1] instanceof DeviceArray d) {
            HostData.copyBack(d, host[i]);
          }
        }
      } finally {
        allocated.forEach(DeviceArray::close);
      }
    }

    private static Method launcher(Method op) throws ClassNotFoundException {
      Class<?> kernels = Class.forName(op.getDeclaringClass().getName() + "Kernels");
      for (Method m : kernels.getMethods()) {
        if (m.getName().equals(op.getName()) && m.getParameterCount() > 0 && m.getParameterTypes()[0] == CudaStream.class) {
          return m;
        }
      }
      return null;
    }
  }
}
