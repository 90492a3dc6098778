package dev.kiln.tests.cuda;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.tests.CudaSourcesTest;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated CUDA C of every test operator, compiled for the host with g++ against a one-thread
 * emulation of CUDA ({@code cuda_emulation.h}) and run on the same inputs as the plain-Java source:
 * checks what the CUDA code computes (64-bit indexing, grid-stride loops, decomposed dimensions,
 * guards, reducing kernels) in the normal test run, without a GPU. Libm and threads are the host's:
 * the GPU test ({@link CudaAgreementTest}) checks those where a GPU is lent.
 */
class EmulatedCudaTest {
  @TempDir static Path work;

  @TestFactory
  Stream<DynamicTest> generatedCudaComputesWhatTheSourceDoes() {
    Path compiler = CudaSourcesTest.tool("g++");
    if (compiler == null) {
      return Stream.of(DynamicTest.dynamicTest("CUDA C on the host (skipped)", () -> assumeTrue(false, "no g++ here")));
    }
    return OperatorRuns.all(new EmulatorBackend(compiler, work));
  }

  /** Marshals arguments to a file in the kernel's parameter order, runs the emulator, reads arrays back. */
  private static final class EmulatorBackend implements Backend {
    private final Path compiler;
    private final Path work;
    private final Map<Class<?>, HostEmulator> built = new HashMap<>();

    EmulatorBackend(Path compiler, Path work) {
      this.compiler = compiler;
      this.work = work;
    }

    private HostEmulator emulator(Class<?> owner) throws IOException, InterruptedException {
      HostEmulator e = built.get(owner);
      if (e == null) {
        String base = owner.getName().replace('.', '/');
        Path dir = Files.createDirectories(work.resolve(owner.getSimpleName()));
        e = HostEmulator.build("META-INF/kiln/" + base + ".cu", dir, compiler);
        built.put(owner, e);
      }
      return e;
    }

    @Override
    public void grid(Method op, Object[] args) throws Exception {
      HostEmulator emulator = emulator(op.getDeclaringClass());
      if (emulator.kernels.containsKey(op.getName())) {
        run(op.getDeclaringClass(), op.getName(), args);
        return;
      }
      // a composite: fused into kernels <op>_k0, <op>_k1, ...
      String kernel = op.getName() + "_k0";
      assertNotNull(emulator.kernels.get(kernel), "no CUDA kernel " + op.getName() + " or " + kernel);
      assumeTrue(!emulator.kernels.containsKey(op.getName() + "_k1"),
          "composite " + op.getName() + " fuses into several kernels with temporaries: the host emulation runs"
              + " single-kernel composites; its device launcher runs on a GPU in CudaAgreementTest");
      Map<String, Object> byName = new HashMap<>();
      java.lang.reflect.Parameter[] params = op.getParameters();
      for (int i = 0; i < params.length; i++) {
        byName.put(params[i].getName(), args[i]);
      }
      List<KernelSignatures.Param> kernelParams = emulator.kernels.get(kernel);
      Object[] kernelArgs = new Object[kernelParams.size()];
      for (int i = 0; i < kernelArgs.length; i++) {
        String name = kernelParams.get(i).name();
        // CUDA names that C already uses (gamma, exp, ...) get a trailing '_'
        kernelArgs[i] = byName.containsKey(name) ? byName.get(name) : byName.get(name.replaceAll("_$", ""));
        assumeTrue(kernelArgs[i] != null, "kernel " + kernel + " takes '" + name + "' (a temporary or a derived size)"
            + ", which only the composite's device launcher makes; it runs on a GPU in CudaAgreementTest");
      }
      run(op.getDeclaringClass(), kernel, kernelArgs);
    }

    @Override
    public void map(Method op, Object[] inputs, Object out) throws Exception {
      int n = java.lang.reflect.Array.getLength(out);
      Object[] args = new Object[2 * inputs.length + 2];
      args[0] = (long) n;
      for (int i = 0; i < inputs.length; i++) {
        args[1 + 2 * i] = inputs[i];
        args[2 + 2 * i] = (long) java.lang.reflect.Array.getLength(inputs[i]);
      }
      args[args.length - 1] = out;
      run(op.getDeclaringClass(), op.getName() + "_map", args);
    }

    private void run(Class<?> owner, String kernel, Object[] args) throws Exception {
      HostEmulator emulator = emulator(owner);
      List<KernelSignatures.Param> params = emulator.kernels.get(kernel);
      assertNotNull(params, "no CUDA kernel " + kernel + " in " + owner.getSimpleName() + ".cu");
      Path input = work.resolve(kernel + ".in");
      Path output = work.resolve(kernel + ".out");
      try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(input))) {
        for (int i = 0; i < params.size(); i++) {
          write(out, params.get(i), args[i]);
        }
      }
      emulator.run(kernel, input, output);
      ByteBuffer back = ByteBuffer.wrap(Files.readAllBytes(output)).order(ByteOrder.nativeOrder());
      for (Object a : args) {
        if (a instanceof float[] f) { back.asFloatBuffer().get(f); back.position(back.position() + 4 * f.length); }
        if (a instanceof double[] d) { back.asDoubleBuffer().get(d); back.position(back.position() + 8 * d.length); }
        if (a instanceof int[] v) { back.asIntBuffer().get(v); back.position(back.position() + 4 * v.length); }
      }
    }

    private static void write(DataOutputStream out, KernelSignatures.Param p, Object value) throws IOException {
      ByteBuffer b;
      if (value instanceof float[] f) {
        b = ByteBuffer.allocate(8 + 4 * f.length).order(ByteOrder.nativeOrder());
        b.putLong(f.length);
        b.asFloatBuffer().put(f);
      } else if (value instanceof double[] d) {
        b = ByteBuffer.allocate(8 + 8 * d.length).order(ByteOrder.nativeOrder());
        b.putLong(d.length);
        b.asDoubleBuffer().put(d);
      } else if (value instanceof int[] v) {
        b = ByteBuffer.allocate(8 + 4 * v.length).order(ByteOrder.nativeOrder());
        b.putLong(v.length);
        b.asIntBuffer().put(v);
      } else {
        b = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
        switch (p.type()) {
          case "int" -> b.putInt(((Number) value).intValue());
          case "long long" -> b.putLong(((Number) value).longValue());
          case "float" -> b.putFloat(((Number) value).floatValue());
          case "double" -> b.putDouble(((Number) value).doubleValue());
          case "bool" -> b.put((byte) (((Boolean) value) ? 1 : 0));
          default -> throw new IllegalArgumentException("parameter type " + p.type());
        }
        b.flip();
        out.write(b.array(), 0, b.limit());
        return;
      }
      out.write(b.array());
    }
  }
}
