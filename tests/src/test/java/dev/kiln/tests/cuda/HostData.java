package dev.kiln.tests.cuda;

import static org.junit.jupiter.api.Assertions.fail;

import dev.kiln.Out;
import dev.kiln.Reduce;
import dev.kiln.Shape;
import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.DeviceArray;
import dev.kiln.runtime.cuda.DeviceDoubleArray;
import dev.kiln.runtime.cuda.DeviceFloatArray;
import dev.kiln.runtime.cuda.DeviceIntArray;
import java.lang.reflect.Parameter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** Host-side inputs for generic operator runs, their upload, download and comparison. */
final class HostData {
  private HostData() {}

  /**
   * A value for a parameter: sizes from {@code dims}; input arrays random (ints in {@code [0,
   * smallest)}, so they are valid indices into any array); @Out arrays NaN (or a sentinel int), so
   * unwritten elements show; @Reduce arrays random, the initial value both runs fold into; int
   * scalars at least 1, so they divide.
   */
  static Object make(Parameter p, Map<String, Integer> dims, int smallest, SplittableRandom random) {
    Class<?> t = p.getType();
    if (!t.isArray()) {
      if (dims.containsKey(p.getName())) return dims.get(p.getName());
      if (t == float.class) return (float) random.nextDouble(-1, 1);
      if (t == double.class) return random.nextDouble(-1, 1);
      if (t == int.class) return random.nextInt(1, 10);
      if (t == long.class) return random.nextLong(1, 10);
      return random.nextBoolean();
    }
    int n = ShapeEval.length(p.getAnnotation(Shape.class).value(), dims);
    boolean reduce = p.isAnnotationPresent(Reduce.class);
    if (p.isAnnotationPresent(Out.class) && !reduce) {
      if (t == float[].class) { float[] a = new float[n]; Arrays.fill(a, Float.NaN); return a; }
      if (t == double[].class) { double[] a = new double[n]; Arrays.fill(a, Double.NaN); return a; }
      if (t == long[].class) { long[] a = new long[n]; Arrays.fill(a, Long.MIN_VALUE + 7); return a; }
      if (t == short[].class) { short[] a = new short[n]; Arrays.fill(a, (short) -12345); return a; }
      if (t == byte[].class) { byte[] a = new byte[n]; Arrays.fill(a, (byte) -77); return a; }
      int[] a = new int[n]; Arrays.fill(a, Integer.MIN_VALUE + 7); return a;
    }
    return array(t, n, Math.max(1, smallest), random);
  }

  static Object array(Class<?> t, int n, int intBound, SplittableRandom random) {
    if (t == float[].class || t == float.class) {
      float[] a = new float[n];
      for (int i = 0; i < n; i++) a[i] = (float) random.nextDouble(-2, 2);
      return a;
    }
    if (t == double[].class || t == double.class) {
      double[] a = new double[n];
      for (int i = 0; i < n; i++) a[i] = random.nextDouble(-2, 2);
      return a;
    }
    if (t == short[].class) {
      short[] a = new short[n];
      for (int i = 0; i < n; i++) a[i] = (short) random.nextInt(Short.MIN_VALUE, Short.MAX_VALUE + 1);
      return a;
    }
    if (t == byte[].class) {
      byte[] a = new byte[n];
      for (int i = 0; i < n; i++) a[i] = (byte) random.nextInt(Byte.MIN_VALUE, Byte.MAX_VALUE + 1);
      return a;
    }
    if (t == long[].class) { // past int, so that 64-bit arithmetic shows
      long[] a = new long[n];
      for (int i = 0; i < n; i++) a[i] = random.nextLong(-(1L << 40), 1L << 40);
      return a;
    }
    int[] a = new int[n];
    for (int i = 0; i < n; i++) a[i] = random.nextInt(0, Math.max(1, intBound));
    return a;
  }

  static Object[] copy(Object[] values) {
    Object[] out = values.clone();
    for (int i = 0; i < out.length; i++) {
      if (out[i] instanceof float[] a) out[i] = a.clone();
      else if (out[i] instanceof double[] a) out[i] = a.clone();
      else if (out[i] instanceof int[] a) out[i] = a.clone();
      else if (out[i] instanceof long[] a) out[i] = a.clone();
      else if (out[i] instanceof short[] a) out[i] = a.clone();
      else if (out[i] instanceof byte[] a) out[i] = a.clone();
    }
    return out;
  }

  static Object upload(CudaDevice gpu, Object value, List<DeviceArray> allocated) {
    DeviceArray d;
    if (value instanceof float[] a) d = gpu.upload(a);
    else if (value instanceof double[] a) d = gpu.upload(a);
    else if (value instanceof int[] a) d = gpu.upload(a);
    else if (value instanceof long[] a) d = gpu.upload(a);
    else if (value instanceof short[] a) d = gpu.upload(a);
    else if (value instanceof byte[] a) d = gpu.upload(a);
    else return value;
    allocated.add(d);
    return d;
  }

  /** Downloads {@code d} into the host array {@code into}. */
  static void copyBack(DeviceArray d, Object into) {
    if (d instanceof DeviceFloatArray f) f.download((float[]) into);
    else if (d instanceof DeviceDoubleArray f) f.download((double[]) into);
    else if (d instanceof dev.kiln.runtime.cuda.DeviceLongArray l) l.download((long[]) into);
    else if (d instanceof dev.kiln.runtime.cuda.DeviceShortArray s) s.download((short[]) into);
    else if (d instanceof dev.kiln.runtime.cuda.DeviceByteArray b) b.download((byte[]) into);
    else ((DeviceIntArray) d).download((int[]) into);
  }

  /** Floats within 2e-4 relative (1e-9 for doubles) of the reference, NaN where it is NaN; ints exact. */
  static void assertClose(String what, Object expected, Object actual) {
    int n = java.lang.reflect.Array.getLength(expected);
    if (expected instanceof long[] el) { // exact: a double would round 64-bit values
      long[] al = (long[]) actual;
      for (int i = 0; i < n; i++) {
        if (el[i] != al[i]) {
          fail(what + "[" + i + "] expected " + el[i] + " but CUDA gave " + al[i]);
        }
      }
      return;
    }
    for (int i = 0; i < n; i++) {
      double e = ((Number) java.lang.reflect.Array.get(expected, i)).doubleValue();
      double a = ((Number) java.lang.reflect.Array.get(actual, i)).doubleValue();
      double tol = expected instanceof int[] || expected instanceof short[] || expected instanceof byte[] ? 0 : (expected instanceof double[] ? 1e-9 : 2e-4) * Math.max(1, Math.abs(e));
      boolean same = Double.isNaN(e) ? Double.isNaN(a) : Math.abs(e - a) <= tol || e == a;
      if (!same) {
        fail(what + "[" + i + "] expected " + e + " but CUDA gave " + a + " (tolerance " + tol + ")");
      }
    }
  }
}
