package dev.kiln.examples;

import dev.kiln.runtime.FloatTensor;
import dev.kiln.runtime.IntTensor;
import dev.kiln.runtime.Kiln;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Example 4: arrays of other types on the device. Looks up rows of an embedding table at {@code
 * int} ids with {@link ExampleOps#lookup}, the ids in an {@link IntTensor} and the table in a
 * {@link FloatTensor}, on {@code Kiln.device()}; the ids stay where they are for a second lookup.
 * An id outside the table throws, naming the operator and its line, where the plain Java would throw.
 *
 * <pre>java -cp examples/target/kiln-examples.jar dev.kiln.examples.Lookup</pre>
 */
public final class Lookup {
  private Lookup() {}

  public static void main(String[] args) {
    int v = 1000;
    int d = 64;
    int n = 4096;
    SplittableRandom random = new SplittableRandom(7);
    float[] table = new float[v * d];
    for (int i = 0; i < table.length; i++) {
      table[i] = (float) random.nextDouble(-1, 1);
    }
    int[] ids = random.ints(n, 0, v).toArray();
    System.out.println("looking up " + n + " rows of a " + v + " x " + d + " table at int ids on " + Kiln.device());
    try (IntTensor at = IntTensor.of(ids); FloatTensor weights = FloatTensor.of(table);
        FloatTensor rows = FloatTensor.zeros(n * d); FloatTensor again = FloatTensor.zeros(n * d)) {
      ExampleOpsKernels.lookup(n, v, d, at, weights, rows);     // int[] and float[] both as tensors
      ExampleOpsKernels.lookup(n, v, d, at, weights, again);    // the ids are not copied a second time
      float[] plain = new float[n * d];
      ExampleOps.lookup(n, v, d, ids, table, plain);            // the same method as ordinary Java
      boolean same = Arrays.equals(plain, rows.toArray()) && Arrays.equals(plain, again.toArray());
      System.out.println(same ? "rows = plain Java, bit for bit (twice)" : "rows differ from plain Java");
      System.out.println("ids " + at);
      if (!same) {
        throw new AssertionError("the lookup disagrees with its plain Java");
      }
    }
    try (IntTensor bad = IntTensor.of(0, v); FloatTensor weights = FloatTensor.of(table);
        FloatTensor rows = FloatTensor.zeros(2 * d)) {
      ExampleOpsKernels.lookup(2, v, d, bad, weights, rows);
      throw new AssertionError("an id outside the table was not refused");
    } catch (RuntimeException e) {
      System.out.println("an id outside the table: " + e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }
}
