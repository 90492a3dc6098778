package dev.kiln.tests.cuda;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Shape;
import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.CudaRuntime;
import dev.kiln.runtime.cuda.CudaStream;
import dev.kiln.runtime.cuda.DeviceArray;
import dev.kiln.tests.ops.Activations;
import dev.kiln.tests.ops.Layout;
import dev.kiln.tests.ops.Linear;
import dev.kiln.tests.ops.Lstm;
import dev.kiln.tests.ops.Normalization;
import dev.kiln.tests.ops.Reductions;
import dev.kiln.tests.ops.Stencils;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * Every operator of the test suite, run on CUDA through its generated device launcher and
 * compared with its plain-Java source on the same inputs. Generic: inputs come from each
 * parameter's annotations (sizes from {@code @Dim}, lengths from {@code @Shape}). Runs only where
 * a CUDA device is present; elsewhere it is skipped with the reason.
 */
@Tag("gpu")
class CudaAgreementTest {
  private static final List<Class<?>> OPERATOR_CLASSES = List.of(
      Activations.class, Layout.class, Linear.class, Lstm.class, Normalization.class, Reductions.class, Stencils.class);
  private static final int[] SIZES = {37, 130};

  @TestFactory
  Stream<DynamicTest> everyOperatorAgreesWithItsSourceOnCuda() throws ClassNotFoundException {
    if (!CudaRuntime.available()) {
      String reason = "no CUDA here: " + CudaRuntime.unavailableReason();
      return Stream.of(DynamicTest.dynamicTest("every operator on CUDA (skipped)", () -> assumeTrue(false, reason)));
    }
    List<DynamicTest> tests = new ArrayList<>();
    for (Class<?> owner : OPERATOR_CLASSES) {
      Class<?> kernels = Class.forName(owner.getName() + "Kernels");
      for (Method op : owner.getDeclaredMethods()) {
        if (!op.isAnnotationPresent(Operator.class) || !Modifier.isStatic(op.getModifiers())) {
          continue;
        }
        Method device = deviceLauncher(kernels, op.getName());
        boolean mappable = op.getReturnType() != void.class
            && Stream.of(op.getParameterTypes()).allMatch(t -> t == float.class || t == double.class || t == int.class)
            && (op.getReturnType() == float.class || op.getReturnType() == double.class || op.getReturnType() == int.class);
        if (op.getReturnType() != void.class && !mappable) {
          continue; // boolean or long elementwise operators have no map launcher, on any device
        }
        for (int size : SIZES) {
          tests.add(DynamicTest.dynamicTest(owner.getSimpleName() + "." + op.getName() + " size " + size, () -> {
            assertNotNull(device, "no CUDA launcher was generated for " + op.getName());
            if (op.getReturnType() == void.class) {
              grid(op, device, size);
            } else {
              map(op, device, size);
            }
          }));
        }
      }
    }
    return tests.stream();
  }

  private static Method deviceLauncher(Class<?> kernels, String name) {
    for (Method m : kernels.getMethods()) {
      if (m.getName().equals(name) && m.getParameterCount() > 0 && m.getParameterTypes()[0] == CudaStream.class) {
        return m;
      }
    }
    return null;
  }

  private static void grid(Method op, Method device, int size) throws Exception {
    SplittableRandom random = new SplittableRandom(size * 31L + op.getName().hashCode());
    Parameter[] params = op.getParameters();
    Map<String, Integer> dims = new HashMap<>();
    int dimCount = (int) Stream.of(params).filter(p -> p.isAnnotationPresent(Dim.class)).count();
    int dimSize = dimCount >= 3 ? Math.max(3, size / 10) : size;
    for (Parameter p : params) {
      if (p.isAnnotationPresent(Dim.class)) {
        dims.put(p.getName(), dimSize + dims.size());
      }
    }
    int smallest = Integer.MAX_VALUE;
    for (Parameter p : params) {
      if (p.getType().isArray()) {
        smallest = Math.min(smallest, ShapeEval.length(p.getAnnotation(Shape.class).value(), dims));
      }
    }
    Object[] host = new Object[params.length];
    for (int i = 0; i < params.length; i++) {
      host[i] = HostData.make(params[i], dims, smallest, random);
    }
    Object[] expected = HostData.copy(host);
    op.invoke(null, expected);

    CudaDevice gpu = CudaRuntime.device();
    Object[] args = new Object[params.length + 1];
    CudaStream stream = gpu.defaultStream();
    args[0] = stream;
    List<DeviceArray> allocated = new ArrayList<>();
    try {
      for (int i = 0; i < params.length; i++) {
        args[i + 1] = HostData.upload(gpu, host[i], allocated);
      }
      device.invoke(null, args);
      stream.synchronize();
      for (int i = 0; i < params.length; i++) {
        if (params[i].isAnnotationPresent(Out.class)) {
          Object actual = HostData.download((DeviceArray) args[i + 1], host[i]);
          HostData.assertClose(op.getName() + "." + params[i].getName(), expected[i], actual);
        }
      }
    } finally {
      allocated.forEach(DeviceArray::close);
    }
  }

  private static void map(Method op, Method device, int size) throws Exception {
    SplittableRandom random = new SplittableRandom(size * 17L + op.getName().hashCode());
    int n = size * 100 + 3;
    Parameter[] params = op.getParameters();
    Object[] inputs = new Object[params.length];
    for (int i = 0; i < params.length; i++) {
      inputs[i] = HostData.array(params[i].getType(), i == 0 ? n : (random.nextBoolean() ? n : 1), n, random);
    }
    Object expected = java.lang.reflect.Array.newInstance(op.getReturnType(), n);
    Object[] scalar = new Object[params.length];
    for (int e = 0; e < n; e++) {
      for (int i = 0; i < params.length; i++) {
        int len = java.lang.reflect.Array.getLength(inputs[i]);
        scalar[i] = java.lang.reflect.Array.get(inputs[i], len == 1 ? 0 : e);
      }
      java.lang.reflect.Array.set(expected, e, op.invoke(null, scalar));
    }
    CudaDevice gpu = CudaRuntime.device();
    List<DeviceArray> allocated = new ArrayList<>();
    try {
      Object[] args = new Object[params.length + 2];
      CudaStream stream = gpu.defaultStream();
      args[0] = stream;
      for (int i = 0; i < params.length; i++) {
        args[i + 1] = HostData.upload(gpu, inputs[i], allocated);
      }
      Object out = java.lang.reflect.Array.newInstance(op.getReturnType(), n);
      args[params.length + 1] = HostData.upload(gpu, out, allocated);
      device.invoke(null, args);
      stream.synchronize();
      Object actual = HostData.download((DeviceArray) args[params.length + 1], out);
      HostData.assertClose(op.getName(), expected, actual);
    } finally {
      allocated.forEach(DeviceArray::close);
    }
  }

}
