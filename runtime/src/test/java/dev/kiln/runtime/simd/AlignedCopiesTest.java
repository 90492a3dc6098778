package dev.kiln.runtime.simd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The copies a launcher hands its SIMD form: the input's floats, from a pool of at most four arrays, and only where they pay. */
class AlignedCopiesTest {
  private static float[] floats(int n, float from) {
    float[] a = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = from + i * 0.25f;
    }
    return a;
  }

  private static boolean g1() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName)
        .anyMatch(n -> n.startsWith("G1"));
  }

  @Test
  void underG1ACopyHoldsTheInputsFloatsFromElementZero() {
    assumeTrue(g1(), "the JVM runs another collector: " + AlignedCopies.describe());
    assertTrue(AlignedCopies.describe().startsWith("on (G1, regions of "), AlignedCopies.describe());
    float[] input = floats(2048, -3f);
    long before = AlignedCopies.copied();
    float[] copy;
    try (AlignedCopies copies = AlignedCopies.of(64)) {
      copy = copies.copy(input);
      assertNotSame(input, copy);
      assertTrue(copy.length > input.length);
      assertArrayEquals(input, Arrays.copyOf(copy, input.length));
    }
    assertEquals(before + 1, AlignedCopies.copied());
    // given back: the next call copies into the same array, over what the last one left
    float[] other = floats(300, 7f);
    try (AlignedCopies copies = AlignedCopies.of(64)) {
      assertSame(copy, copies.copy(other));
      assertArrayEquals(other, Arrays.copyOf(copy, other.length));
    }
  }

  @Test
  void aCallThatFindsNoArrayFreeReadsItsInputsWhereTheyAre() {
    assumeTrue(g1(), "the JVM runs another collector: " + AlignedCopies.describe());
    List<float[]> inputs = new ArrayList<>();
    List<float[]> copied = new ArrayList<>();
    try (AlignedCopies copies = AlignedCopies.of(64)) {
      for (int i = 0; i < AlignedCopies.MAX_ARRAYS + 2; i++) {
        float[] input = floats(512, i);
        inputs.add(input);
        copied.add(copies.copy(input));
      }
      for (int i = 0; i < inputs.size(); i++) {
        if (i < AlignedCopies.MAX_ARRAYS) {
          assertNotSame(inputs.get(i), copied.get(i), "input " + i);
          assertArrayEquals(inputs.get(i), Arrays.copyOf(copied.get(i), 512), "input " + i);
        } else {
          assertSame(inputs.get(i), copied.get(i), "input " + i + ": the pool holds " + AlignedCopies.MAX_ARRAYS);
        }
      }
    }
    // all given back: another call copies again
    try (AlignedCopies copies = AlignedCopies.of(64)) {
      for (int i = 0; i < AlignedCopies.MAX_ARRAYS; i++) {
        assertNotSame(inputs.get(i), copies.copy(inputs.get(i)));
      }
    }
  }

  @Test
  void fewRowsOrShortInputsAreReadWhereTheyAre() {
    float[] input = floats(4096, 1f);
    try (AlignedCopies copies = AlignedCopies.of(AlignedCopies.MIN_ROWS - 1)) {
      assertSame(input, copies.copy(input));
    }
    float[] shortInput = floats(AlignedCopies.MIN_LENGTH - 1, 1f);
    try (AlignedCopies copies = AlignedCopies.of(1000)) {
      assertSame(shortInput, copies.copy(shortInput));
    }
  }

  /** Prints {@link AlignedCopies#describe()}, in a JVM of its own. */
  public static final class Describe {
    public static void main(String[] args) {
      System.out.println(AlignedCopies.describe());
    }
  }

  private static String describeIn(String... jvmOptions) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(jvmOptions));
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), Describe.class.getName()));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertEquals(0, p.waitFor(), out);
    return out;
  }

  @Test
  void otherCollectorsSmallHeapsAndThePropertiesTurnTheCopiesOff() throws Exception {
    assertEquals("off (the collector is not G1)", describeIn("-XX:+UseParallelGC"));
    String smallHeap = describeIn("-XX:+UseG1GC", "-Xmx128m");
    assertTrue(smallHeap.startsWith("off (a heap of "), smallHeap);
    assertEquals("on (G1, regions of 1048576 bytes)", describeIn("-XX:+UseG1GC", "-Xmx1g", "-XX:G1HeapRegionSize=1m"));
    assertEquals("off (-Dkiln.simd.alignedCopies=false)", describeIn("-XX:+UseG1GC", "-Dkiln.simd.alignedCopies=false"));
    assertEquals("off (-Dkiln.simd.align=false)", describeIn("-XX:+UseG1GC", "-Dkiln.simd.align=false"));
  }
}
