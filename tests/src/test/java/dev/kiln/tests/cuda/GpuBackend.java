package dev.kiln.tests.cuda;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.CudaStream;
import dev.kiln.runtime.cuda.DeviceArray;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs on a real GPU through the generated device overloads of {@code <Class>Kernels}: uploads the
 * host arguments, launches on the default stream, synchronizes and downloads every array.
 */
record GpuBackend(CudaDevice gpu) implements Backend {
  @Override
  public void grid(Method op, Object[] args) throws Exception {
    run(op.getDeclaringClass(), op.getName(), args);
  }

  @Override
  public void map(Class<?> owner, String name, Object[] inputs, Object out) throws Exception {
    Object[] args = new Object[inputs.length + 1];
    System.arraycopy(inputs, 0, args, 0, inputs.length);
    args[inputs.length] = out;
    run(owner, name, args);
  }

  @Override
  public void gradient(Class<?> owner, Method launcher, Object[] args) throws Exception {
    run(owner, launcher.getName(), args);
  }

  private void run(Class<?> owner, String name, Object[] host) throws Exception {
    Method device = launcher(owner, name, host.length);
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

  /** The device overload {@code name(CudaStream, ...)} taking {@code arity} arguments after the stream. */
  private static Method launcher(Class<?> owner, String name, int arity) throws ClassNotFoundException {
    Class<?> kernels = Class.forName(owner.getName() + "Kernels");
    for (Method m : kernels.getMethods()) {
      if (m.getName().equals(name) && m.getParameterCount() == arity + 1 && m.getParameterTypes()[0] == CudaStream.class) {
        return m;
      }
    }
    return null;
  }
}
