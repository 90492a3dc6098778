package dev.kiln.tests.cuda;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.CudaStream;
import dev.kiln.runtime.cuda.DeviceArray;
import dev.kiln.runtime.cuda.DeviceDoubleArray;
import dev.kiln.runtime.cuda.DeviceFloatArray;
import dev.kiln.runtime.cuda.DeviceIntArray;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs operators' CUDA kernels on host arrays, through the generated device overloads of {@code
 * <Class>Kernels} on a CUDA device (a GPU, or the emulated driver in {@link EmulatedGpuTest}'s
 * children): uploads the host arguments, launches on the default stream, synchronizes and downloads
 * every array, updating the host arrays in place.
 */
record GpuBackend(CudaDevice gpu) {
  /** Runs grid operator {@code op} on {@code args} (the operator's own arguments). */
  void grid(Method op, Object[] args) throws Exception {
    run(op.getDeclaringClass(), op.getName(), args);
  }

  /** Runs the map kernel of elementwise operator {@code op}: {@code out[i] = op(inputs[j][i or 0]...)}. */
  void map(Method op, Object[] inputs, Object out) throws Exception {
    map(op.getDeclaringClass(), op.getName(), inputs, out);
  }

  /**
   * Runs the map kernel {@code name} of {@code owner}'s class (an elementwise operator's, or an
   * elementwise gradient's such as {@code reluGrad} or {@code clampGrad_lo}) on host arrays.
   */
  void map(Class<?> owner, String name, Object[] inputs, Object out) throws Exception {
    Object[] args = new Object[inputs.length + 1];
    System.arraycopy(inputs, 0, args, 0, inputs.length);
    args[inputs.length] = out;
    run(owner, name, args);
  }

  /**
   * Runs on CUDA what the CPU gradient launcher {@code launcher} ({@code fGrad} of {@code owner}'s
   * {@code Kernels} class) computes, through its device overload, on its arguments {@code args}.
   */
  void gradient(Class<?> owner, Method launcher, Object[] args) throws Exception {
    run(owner, launcher.getName(), args);
  }

  private void run(Class<?> owner, String name, Object[] host) throws Exception {
    Method device = launcher(owner, name, host);
    assertNotNull(device, "no CUDA launcher " + name + "(CudaStream, ...) was generated in " + owner.getSimpleName() + "Kernels");
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

  /** The device overload {@code name(CudaStream, ...)} whose parameters take {@code host} once uploaded. */
  private static Method launcher(Class<?> owner, String name, Object[] host) throws ClassNotFoundException {
    Class<?> kernels = Class.forName(owner.getName() + "Kernels");
    for (Method m : kernels.getMethods()) {
      Class<?>[] types = m.getParameterTypes();
      if (!m.getName().equals(name) || types.length != host.length + 1 || types[0] != CudaStream.class) {
        continue;
      }
      boolean fits = true;
      for (int i = 0; i < host.length && fits; i++) {
        fits = takes(types[i + 1], host[i]);
      }
      if (fits) {
        return m;
      }
    }
    return null;
  }

  private static boolean takes(Class<?> t, Object value) {
    if (value instanceof float[]) return t == DeviceFloatArray.class;
    if (value instanceof double[]) return t == DeviceDoubleArray.class;
    if (value instanceof int[]) return t == DeviceIntArray.class;
    if (value instanceof long[]) return t == dev.kiln.runtime.cuda.DeviceLongArray.class;
    if (value instanceof short[]) return t == dev.kiln.runtime.cuda.DeviceShortArray.class;
    if (value instanceof byte[]) return t == dev.kiln.runtime.cuda.DeviceByteArray.class;
    if (value instanceof Float) return t == float.class;
    if (value instanceof Double) return t == double.class;
    if (value instanceof Integer) return t == int.class;
    if (value instanceof Long) return t == long.class;
    return t == boolean.class;
  }
}
