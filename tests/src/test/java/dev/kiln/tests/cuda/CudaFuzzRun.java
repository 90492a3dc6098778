package dev.kiln.tests.cuda;

import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.CudaRuntime;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The child JVM of {@link CudaFuzzTest}: runs the differential fuzzer's operator classes (on this
 * JVM's class path) through their generated device launchers on the CUDA device (the emulated
 * driver), each against its plain-Java source on the same random inputs, and writes one line per
 * operator and size set: {@code PASS}, {@code FAIL} with what differed, or {@code SKIP} with why
 * (the plain method itself threw on these inputs, so there is nothing to compare).
 *
 * <p>The corpus file has one line per item: {@code class <name> <seed>}, then for its operators
 * {@code grid <op> <dim>=<n>,...} (one line per size set) and {@code map <op>}.
 */
public final class CudaFuzzRun {
  private CudaFuzzRun() {}

  public static void main(String[] args) throws Exception {
    List<String> corpus = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
    List<String> results = new ArrayList<>();
    CudaDevice gpu = CudaRuntime.device();
    results.add("DEVICE\t" + gpu.name());
    GpuBackend backend = new GpuBackend(gpu);
    Class<?> ops = null;
    String seed = "";
    for (String line : corpus) {
      String[] f = line.split("\t", -1);
      switch (f[0]) {
        case "class" -> {
          ops = Class.forName(f[1]);
          seed = f[2];
        }
        case "grid" -> results.add(grid(backend, operator(ops, f[1]), sizes(f[2]), seed));
        case "map" -> results.add(map(backend, operator(ops, f[1]), seed));
        default -> throw new IllegalArgumentException("corpus line " + line);
      }
    }
    results.add("LAUNCHES\t" + gpu.stats().launches());
    Files.write(Path.of(args[1]), results, StandardCharsets.UTF_8);
  }

  private static Method operator(Class<?> ops, String name) {
    for (Method m : ops.getDeclaredMethods()) {
      if (m.getName().equals(name) && m.isAnnotationPresent(Operator.class)) {
        return m;
      }
    }
    throw new IllegalArgumentException(ops.getName() + " has no operator " + name);
  }

  private static Map<String, Integer> sizes(String text) {
    Map<String, Integer> dims = new LinkedHashMap<>();
    if (!text.isEmpty()) {
      for (String pair : text.split(",")) {
        String[] kv = pair.split("=");
        dims.put(kv[0], Integer.parseInt(kv[1]));
      }
    }
    return dims;
  }

  private static String grid(GpuBackend backend, Method op, Map<String, Integer> dims, String seed) {
    String what = seed + "\t" + op.getDeclaringClass().getSimpleName() + "." + op.getName() + " " + dims;
    try {
      SplittableRandom random = new SplittableRandom(Long.parseLong(seed) * 31 + dims.hashCode());
      Parameter[] params = op.getParameters();
      Object[] host = OperatorRuns.gridArguments(params, dims, random);
      Object[] expected = HostData.copy(host);
      try {
        op.invoke(null, expected);
      } catch (InvocationTargetException e) {
        return "SKIP\t" + what + "\tthe plain method threw " + e.getCause();
      }
      backend.grid(op, host);
      for (int i = 0; i < params.length; i++) {
        if (params[i].isAnnotationPresent(Out.class)) {
          assertAgree(op.getName() + "." + params[i].getName(), expected[i], host[i], floatAtCuda(op.getDeclaringClass()));
        }
      }
      return "PASS\t" + what;
    } catch (Throwable t) {
      return "FAIL\t" + what + "\t" + describe(t);
    }
  }

  /** The map launcher over 1,003 elements (inputs other than the first sometimes of length 1, broadcast). */
  private static String map(GpuBackend backend, Method op, String seed) {
    String what = seed + "\t" + op.getDeclaringClass().getSimpleName() + "." + op.getName() + " map";
    try {
      SplittableRandom random = new SplittableRandom(Long.parseLong(seed) * 17 + op.getName().hashCode());
      int n = 1003;
      Parameter[] params = op.getParameters();
      Object[] inputs = OperatorRuns.mapInputs(params, n, 10, random);
      Object expected;
      try {
        expected = OperatorRuns.mapExpected(op, inputs, n);
      } catch (InvocationTargetException x) {
        return "SKIP\t" + what + "\tthe plain method threw " + x.getCause();
      }
      Object out = Array.newInstance(op.getReturnType(), n);
      backend.map(op, inputs, out);
      assertAgree(op.getName(), expected, out, floatAtCuda(op.getDeclaringClass()));
      return "PASS\t" + what;
    } catch (Throwable t) {
      return "FAIL\t" + what + "\t" + describe(t);
    }
  }

  /**
   * {@link HostData#assertClose}, except that a double output gets the float tolerance where CUDA's
   * float arithmetic may differ from Java's in the last bits: one whose two values are both floats
   * (widened from float arithmetic), and every double output of a class for which {@link
   * #floatAtCuda} holds.
   */
  private static void assertAgree(String what, Object expected, Object actual, boolean floatMath) {
    if (expected instanceof double[] e && actual instanceof double[] a) {
      for (int i = 0; i < e.length; i++) {
        boolean floats = (double) (float) e[i] == e[i] && (double) (float) a[i] == a[i];
        if (floats || floatMath) {
          HostData.assertClose(what + "[" + i + "] (float arithmetic)", new float[] {(float) e[i]},
              new float[] {(float) a[i]});
        } else {
          HostData.assertClose(what + "[" + i + "]", new double[] {e[i]}, new double[] {a[i]});
        }
      }
      return;
    }
    HostData.assertClose(what, expected, actual);
  }

  /**
   * Whether CUDA may compute {@code ops}' float values other than Java in the last bits, so that a
   * double computed from them differs beyond the double tolerance: its {@code .cu} adds sums in a
   * tree ({@code block_reduce}, {@code column_reduce}: seed 1342's {@code (double) sum / hi} after a
   * column kernel's float sum two ulps from Java's), or its IR calls a float function whose CUDA
   * form is the device's libm, within an ulp or two of Java's rather than the same bits ({@link
   * #INEXACT_FLOAT_CALL}: seed 1567's {@code w /= sin(exp)} of a float, seed 1922's float {@code
   * exp(t) - sin(t) + log(...)} returned as a double). Kiln's own float exp, tanh, sigmoid and erf
   * have Java's bits on CUDA and do not count.
   */
  static boolean floatAtCuda(Class<?> ops) {
    return FLOAT_AT_CUDA.computeIfAbsent(ops, c -> {
      String base = "META-INF/kiln/" + c.getName().replace('.', '/');
      String cu = resource(c, base + ".cu");
      String ir = resource(c, base + ".ir.txt");
      return cu.contains("kiln::block_reduce(") || cu.contains("kiln::column_reduce(")
          || INEXACT_FLOAT_CALL.matcher(ir).find();
    });
  }

  /** A float call in the IR's text whose CUDA form is the device's libm ({@code sinf}, {@code logf}, ...). */
  static final java.util.regex.Pattern INEXACT_FLOAT_CALL = java.util.regex.Pattern.compile(
      "call (sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|log|log10|log1p|expm1|pow|cbrt|hypot) f32");

  private static final Map<Class<?>, Boolean> FLOAT_AT_CUDA = new java.util.HashMap<>();

  private static String resource(Class<?> c, String name) {
    try (java.io.InputStream in = c.getClassLoader().getResourceAsStream(name)) {
      return in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String describe(Throwable t) {
    Throwable root = t instanceof InvocationTargetException && t.getCause() != null ? t.getCause() : t;
    if (root instanceof AssertionError) {
      return String.valueOf(root.getMessage()).replace('\n', ' ').replace('\t', ' ');
    }
    StringWriter w = new StringWriter();
    root.printStackTrace(new PrintWriter(w));
    String trace = w.toString();
    return trace.substring(0, Math.min(trace.length(), 1500)).replace('\n', ' ').replace('\t', ' ');
  }
}
