package dev.kiln.tests.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
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
 * guards, reducing kernels) in the normal test run, without a GPU. Composites fused into several
 * kernels, and every gradient launcher ({@code fGrad}: a backward composite of kernels {@code
 * fGrad_k<n>}, or an elementwise gradient's map kernel), run as their generated CPU launchers run
 * their CPU kernels: the same kernels in the same order, with the same derived sizes and zero-filled
 * temporaries ({@link LauncherPlan}, cross-checked against the fusion report); gradients are
 * compared with the CPU gradient launcher ({@link GradientRuns}). Libm and threads are the host's:
 * the GPU tests ({@link CudaAgreementTest}, {@link CudaGradientAgreementTest}) check those where a
 * GPU is lent.
 */
class EmulatedCudaTest {
  @TempDir static Path work;

  /** Built once and shared by both test factories: each class's .cu is compiled by g++ once. */
  private static EmulatorBackend backend;

  private static EmulatorBackend backend(Path compiler) {
    if (backend == null) {
      backend = new EmulatorBackend(compiler, work);
    }
    return backend;
  }

  @TestFactory
  Stream<DynamicTest> generatedCudaComputesWhatTheSourceDoes() {
    Path compiler = CudaSourcesTest.tool("g++");
    if (compiler == null) {
      return Stream.of(DynamicTest.dynamicTest("CUDA C on the host (skipped)", () -> assumeTrue(false, "no g++ here")));
    }
    return OperatorRuns.all(backend(compiler));
  }

  /**
   * Every gradient launcher's CUDA kernels, run in the emulation as the CPU launcher runs its CPU
   * kernels (same order, same derived sizes, zero-filled temporaries: read from the generated CPU
   * launcher), compared with the CPU launcher; elementwise gradients through their map kernels.
   */
  @TestFactory
  Stream<DynamicTest> generatedGradientCudaComputesWhatTheCpuGradientDoes() throws ClassNotFoundException {
    Path compiler = CudaSourcesTest.tool("g++");
    if (compiler == null) {
      return Stream.of(DynamicTest.dynamicTest("gradient CUDA C on the host (skipped)", () -> assumeTrue(false, "no g++ here")));
    }
    return GradientRuns.all(backend(compiler));
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
      // a composite, fused into kernels <op>_k0, <op>_k1, ...: replayed as its CPU launcher calls its CPU kernels
      Method launcher = Class.forName(op.getDeclaringClass().getName() + "Kernels").getMethod(op.getName(), op.getParameterTypes());
      replay(op.getDeclaringClass(), launcher, args, "forward");
    }

    @Override
    public void map(Class<?> owner, String name, Object[] inputs, Object out) throws Exception {
      int n = java.lang.reflect.Array.getLength(out);
      Object[] args = new Object[2 * inputs.length + 2];
      args[0] = (long) n;
      for (int i = 0; i < inputs.length; i++) {
        args[1 + 2 * i] = inputs[i];
        args[2 + 2 * i] = (long) java.lang.reflect.Array.getLength(inputs[i]);
      }
      args[args.length - 1] = out;
      run(owner, name + "_map", args);
    }

    /**
     * Replays the CPU launcher's plan (read from its generated source) with the CUDA kernels of the
     * same names: derived sizes evaluated, temporaries zero-filled as the device launcher does,
     * each kernel called with the launcher's arguments in the launcher's order.
     */
    @Override
    public void gradient(Class<?> owner, Method launcher, Object[] args) throws Exception {
      if (emulator(owner).kernels.containsKey(launcher.getName())) {
        run(owner, launcher.getName(), args);
        return;
      }
      replay(owner, launcher, args, "backward");
    }

    /**
     * Runs composite launcher {@code launcher} (a CPU launcher of {@code owner}'s Kernels class, of a
     * composite of pass {@code pass} in the fusion report) as its kernel calls in the emulation.
     */
    private void replay(Class<?> owner, Method launcher, Object[] args, String pass) throws Exception {
      HostEmulator emulator = emulator(owner);
      Path source = LauncherPlan.source(owner);
      assumeTrue(source != null, "the generated source of " + owner.getSimpleName() + "Kernels is not under"
          + " target/generated-sources: the emulation replays the kernel calls of the CPU launcher from it");
      java.lang.reflect.Parameter[] params = launcher.getParameters();
      LauncherPlan plan = LauncherPlan.parse(source, launcher.getName(),
          Stream.of(params).map(java.lang.reflect.Parameter::getName).toList());
      assertEquals(reportedKernels(owner, launcher.getName(), pass), plan.kernels(),
          launcher.getName() + ": the kernels its CPU launcher calls, against the " + pass + " kernels of "
              + owner.getSimpleName() + ".fusion.json");
      Map<String, Object> env = new HashMap<>();
      for (int i = 0; i < params.length; i++) {
        env.put(params[i].getName(), args[i]);
      }
      for (LauncherPlan.Step step : plan.steps) {
        if (step instanceof LauncherPlan.Size size) {
          env.put(size.name(), Math.toIntExact(LauncherPlan.eval(size.expression(), env)));
        } else if (step instanceof LauncherPlan.Temporary t) {
          int n = Math.toIntExact(LauncherPlan.eval(t.length(), env));
          env.put(t.name(), switch (t.elementType()) {
            case "float" -> new float[n];
            case "double" -> new double[n];
            default -> new int[n];
          });
        } else {
          LauncherPlan.Call call = (LauncherPlan.Call) step;
          List<KernelSignatures.Param> kernelParams = emulator.kernels.get(call.kernel());
          assertNotNull(kernelParams, "no CUDA kernel " + call.kernel() + " in " + owner.getSimpleName() + ".cu");
          assertEquals(kernelParams.size(), call.arguments().size(),
              call.kernel() + ": CUDA parameters " + kernelParams + " against the CPU launcher's arguments " + call.arguments());
          Object[] kernelArgs = new Object[kernelParams.size()];
          java.util.Set<Object> arrays = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
          for (int i = 0; i < kernelArgs.length; i++) {
            String name = call.arguments().get(i);
            kernelArgs[i] = env.get(name);
            assertNotNull(kernelArgs[i], call.kernel() + ": argument '" + name + "' is not bound by the CPU launcher");
            boolean array = kernelArgs[i].getClass().isArray();
            assertEquals(kernelParams.get(i).pointer(), array, call.kernel() + ": argument " + i + " '" + name
                + "' is " + (array ? "an array" : "a scalar") + " but the CUDA parameter is " + kernelParams.get(i));
            assumeTrue(!array || arrays.add(kernelArgs[i]), call.kernel() + " is passed array '" + name
                + "' twice: the emulation copies each pointer argument, so aliasing is left to the GPU test");
          }
          run(owner, call.kernel(), kernelArgs);
        }
      }
    }

    /** The kernels the fusion report lists for composite {@code name} of pass {@code pass}, in order. */
    private static List<String> reportedKernels(Class<?> owner, String name, String pass) throws IOException {
      String resource = "META-INF/kiln/" + owner.getName().replace('.', '/') + ".fusion.json";
      try (java.io.InputStream in = EmulatedCudaTest.class.getClassLoader().getResourceAsStream(resource)) {
        assertNotNull(in, resource + " is not on the class path");
        String json = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(java.util.regex.Pattern.compile("\"name\": \"" + name + "\",\\s*\"pass\": \"" + pass + "\"").matcher(json).find(),
            resource + " has no " + pass + " composite " + name);
        List<String> kernels = new java.util.ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"name\": \"(" + name + "_k\\d+)\"").matcher(json);
        while (m.find()) {
          kernels.add(m.group(1));
        }
        return kernels;
      }
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
