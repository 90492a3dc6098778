package dev.kiln.runtime.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link SimdChoice}: how much of a kernel's first chunk its SIMD form takes while the JIT warms
 * it, when that form is adopted or given up, and that every index is computed once a call, by one
 * form, whatever the split ({@link CpuExecutor#forEachChunkChoosing}). Times are given, not
 * measured: the policy is a function of them.
 */
class SimdChoiceTest {
  private static final long SCALAR_NANOS_A_INDEX = 1_000;

  @Test
  void theFirstShareIsAboutAQuarterOfTheChunkAtTheAssumedRatio() {
    SimdChoice c = new SimdChoice();
    // 256 * 0.25 / 32 = 2 indices: a quarter of the chunk's scalar time if SIMD is 32 times slower
    assertEquals(2, c.simdShare(256));
    assertEquals(Math.round(4096 * SimdChoice.SIMD_PIECE / SimdChoice.FIRST_RATIO), c.simdShare(4096));
  }

  @Test
  void aShareLeavesTheScalarFormAtLeastOneIndexOnceMeasuredFaster() {
    SimdChoice c = new SimdChoice();
    c.record(1, 1, 1, 1); // the first SIMD run is not a measure
    c.record(10, 10 * SCALAR_NANOS_A_INDEX / 100, 10, 10 * SCALAR_NANOS_A_INDEX); // 100 times faster
    assertEquals(9, c.simdShare(10));
  }

  @Test
  void aSmallChunkGivesTheSimdFormOneIndexInSomeCallsOnly() {
    SimdChoice c = new SimdChoice();
    int calls = 0;
    int simd = 0;
    for (int call = 0; call < 1000; call++) {
      int share = c.simdShare(8); // 8 * 0.25 / 32: one index in every 16th call
      assertTrue(share == 0 || share == 1, "share " + share);
      simd += share;
      calls++;
    }
    assertEquals(calls * 8 * SimdChoice.SIMD_PIECE / SimdChoice.FIRST_RATIO, simd, 1.0);
  }

  @Test
  void aChunkOfOneIndexIsTakenWholeByOneFormACall() {
    SimdChoice c = new SimdChoice();
    c.record(1, 1, 0, 0); // the first SIMD run: not a measure
    c.record(0, 0, 1, SCALAR_NANOS_A_INDEX); // a call the scalar form took whole
    c.record(1, 2 * SCALAR_NANOS_A_INDEX, 0, 0); // one the SIMD form took: compared with the last scalar one
    // ratio 2 now: 0.25 / 2 of an index a call, an index every eighth call
    int simd = 0;
    for (int call = 0; call < 80; call++) {
      int share = c.simdShare(1);
      assertTrue(share == 0 || share == 1);
      simd += share;
    }
    assertEquals(10, simd);
  }

  /** While the SIMD form is far slower (still warming) its share grows, to the whole chunk's time. */
  @Test
  void aFarSlowerSimdFormsShareGrowsWhileItWarmsThenFallsBack() {
    SimdChoice c = new SimdChoice();
    c.record(1, 1, 1, 1); // the first SIMD run is not a measure
    long twentyTimes = 20 * SCALAR_NANOS_A_INDEX;
    c.record(1, twentyTimes, 255, 255 * SCALAR_NANOS_A_INDEX); // 1 measured chunk, ratio 20
    assertEquals(Math.round(2560 * SimdChoice.SIMD_PIECE * (1 + 1.0 / SimdChoice.RAMP) / 20), c.simdShare(2560));
    for (int i = 1; i < 3 * SimdChoice.RAMP; i++) {
      c.record(1, twentyTimes, 255, 255 * SCALAR_NANOS_A_INDEX);
    }
    // 96 measured chunks: 0.25 * (1 + 3) = the most, MAX_SIMD_PIECE
    assertEquals(Math.round(2560 * SimdChoice.MAX_SIMD_PIECE / 20), c.simdShare(2560));
    for (int i = 3 * SimdChoice.RAMP; i < SimdChoice.RAMP_END; i++) {
      c.record(1, twentyTimes, 255, 255 * SCALAR_NANOS_A_INDEX);
    }
    // not compiled after RAMP_END chunks: a quarter again
    assertEquals(Math.round(2560 * SimdChoice.SIMD_PIECE / 20), c.simdShare(2560));
  }

  /** A chunk of a small kernel (under RAMP_MIN_CHUNK_NANOS of scalar time) keeps a quarter. */
  @Test
  void aSmallKernelsShareDoesNotGrow() {
    SimdChoice c = new SimdChoice();
    c.record(1, 1, 1, 1);
    for (int i = 0; i < 3 * SimdChoice.RAMP; i++) {
      c.record(1, 20 * SCALAR_NANOS_A_INDEX, 255, 255 * SCALAR_NANOS_A_INDEX); // ratio 20
    }
    int small = (int) (SimdChoice.RAMP_MIN_CHUNK_NANOS / SCALAR_NANOS_A_INDEX / 2); // half of it
    int simd = 0;
    for (int call = 0; call < 1000; call++) {
      simd += c.simdShare(small);
    }
    assertEquals(1000 * small * SimdChoice.SIMD_PIECE / 20, simd, 1.0);
  }

  /** A SIMD form within WARMING_RATIO of the scalar one (compiled, not faster yet) keeps a quarter. */
  @Test
  void aCloseSimdFormKeepsAQuarter() {
    SimdChoice c = new SimdChoice();
    c.record(1, 1, 1, 1);
    for (int i = 0; i < 3 * SimdChoice.RAMP; i++) {
      c.record(4, 4 * 2 * SCALAR_NANOS_A_INDEX, 4, 4 * SCALAR_NANOS_A_INDEX); // twice as slow
    }
    assertEquals(Math.round(1000 * SimdChoice.SIMD_PIECE / 2), c.simdShare(1000));
  }

  /** A kernel whose SIMD form may take one index a call is called once an index of its share. */
  @Test
  void theSimdPieceIsCalledOnceAnIndexWhereOneIsEnough() {
    for (int minimum : new int[] {1, 4}) {
      java.util.List<Integer> calls = new java.util.ArrayList<>();
      CpuExecutor.ChunkBody simd = (chunk, lo, hi) -> calls.add(hi - lo);
      CpuExecutor.ChunkBody scalar = (chunk, lo, hi) -> { };
      SimdChoice c = new SimdChoice();
      c.trial(simd, scalar, minimum).run(0, 0, 1024); // 1024 * 0.25 / 32 = 8 indices
      assertEquals(minimum == 1 ? 8 : 2, calls.size(), "minimum " + minimum + ": " + calls);
      assertEquals(8, calls.stream().mapToInt(Integer::intValue).sum());
    }
  }

  @Test
  void theFirstSimdRunIsNotCompared() {
    SimdChoice c = new SimdChoice();
    for (int i = 0; i < SimdChoice.STREAK; i++) {
      c.record(4, i == 0 ? 1 : 4 * SCALAR_NANOS_A_INDEX / 2, 4, 4 * SCALAR_NANOS_A_INDEX);
    }
    assertEquals(SimdChoice.Form.TRYING, c.form(), "the first, not measured, run leaves the streak one short");
    c.record(4, 4 * SCALAR_NANOS_A_INDEX / 2, 4, 4 * SCALAR_NANOS_A_INDEX);
    assertEquals(SimdChoice.Form.SIMD, c.form(), c.describe());
  }

  @Test
  void theSimdFormIsAdoptedAfterAStreakOfFasterCallsOnly() {
    SimdChoice c = new SimdChoice();
    c.record(4, 1, 4, 4);
    c.record(4, 4 * SCALAR_NANOS_A_INDEX / 2, 4, 4 * SCALAR_NANOS_A_INDEX); // faster
    c.record(4, 4 * SCALAR_NANOS_A_INDEX / 2, 4, 4 * SCALAR_NANOS_A_INDEX); // faster
    c.record(4, 4 * SCALAR_NANOS_A_INDEX * 3, 4, 4 * SCALAR_NANOS_A_INDEX); // slower: the streak restarts
    c.record(4, 4 * SCALAR_NANOS_A_INDEX / 2, 4, 4 * SCALAR_NANOS_A_INDEX);
    c.record(4, 4 * SCALAR_NANOS_A_INDEX / 2, 4, 4 * SCALAR_NANOS_A_INDEX);
    assertEquals(SimdChoice.Form.TRYING, c.form(), c.describe());
    c.record(4, 4 * SCALAR_NANOS_A_INDEX / 2, 4, 4 * SCALAR_NANOS_A_INDEX);
    assertEquals(SimdChoice.Form.SIMD, c.form(), c.describe());
    assertTrue(c.describe().startsWith("simd (after 6 measured chunks, 0.50x"), c.describe());
  }

  @Test
  void callsTheSimdFormSatOutDoNotCount() {
    SimdChoice c = new SimdChoice();
    c.record(4, 1, 4, 4);
    c.record(4, 4 * SCALAR_NANOS_A_INDEX / 2, 4, 4 * SCALAR_NANOS_A_INDEX);
    for (int i = 0; i < 10; i++) {
      c.record(0, 0, 8, 8 * SCALAR_NANOS_A_INDEX);
    }
    assertEquals(SimdChoice.Form.TRYING, c.form(), c.describe());
    assertTrue(c.describe().contains("1 measured chunks"), c.describe());
  }

  @Test
  void aSimdFormStillSlowerAfterTheTrialsIsGivenUp() {
    SimdChoice c = new SimdChoice();
    c.record(4, 1, 4, 4);
    for (int i = 0; i < SimdChoice.MAX_TRIALS - 1; i++) {
      c.record(4, 4 * SCALAR_NANOS_A_INDEX * 2, 4, 4 * SCALAR_NANOS_A_INDEX);
    }
    assertEquals(SimdChoice.Form.TRYING, c.form());
    c.record(4, 4 * SCALAR_NANOS_A_INDEX * 2, 4, 4 * SCALAR_NANOS_A_INDEX);
    assertEquals(SimdChoice.Form.SCALAR, c.form(), c.describe());
    c.record(4, 1, 4, 4 * SCALAR_NANOS_A_INDEX); // decided: measurements no longer change it
    assertEquals(SimdChoice.Form.SCALAR, c.form());
  }

  @Test
  void aPauseDoesNotStarveTheSimdForm() {
    SimdChoice c = new SimdChoice();
    c.record(1, 1, 1, 1);
    c.record(1, SCALAR_NANOS_A_INDEX * 1_000_000, 255, 255 * SCALAR_NANOS_A_INDEX); // a second's pause
    int simd = 0;
    for (int call = 0; call < 1024; call++) {
      simd += c.simdShare(256);
    }
    // sized by the largest ratio, MAX_RATIO: 256 * 0.25 / 4096 of an index a call
    assertEquals(1024 * 256 * SimdChoice.SIMD_PIECE / SimdChoice.MAX_RATIO, simd, 1.0);
  }

  @Test
  void everyIndexIsComputedOnceACallByOneFormOrTheOther() {
    int n = 1000;
    int[] bySimd = new int[n];
    int[] byScalar = new int[n];
    CpuExecutor.ChunkBody simd = (chunk, lo, hi) -> {
      for (int i = lo; i < hi; i++) {
        bySimd[i]++;
        long until = System.nanoTime() + 20_000; // far slower than the scalar form: never adopted here
        while (System.nanoTime() < until) {
          Thread.onSpinWait();
        }
      }
    };
    CpuExecutor.ChunkBody scalar = (chunk, lo, hi) -> {
      for (int i = lo; i < hi; i++) {
        byScalar[i]++;
      }
    };
    int calls = 50;
    for (int call = 0; call < calls; call++) {
      CpuExecutor.forEachChunkChoosing("test kernel", n, 4, simd, scalar);
    }
    for (int i = 0; i < n; i++) {
      assertEquals(calls, bySimd[i] + byScalar[i], "index " + i);
      if (i % (n / 4) >= n / 8) {
        assertEquals(0, bySimd[i], "the SIMD form takes the first indices of a chunk: index " + i);
      }
    }
    assertTrue(java.util.Arrays.stream(bySimd).sum() > 0, "the SIMD form took some indices");
    assertTrue(CpuExecutor.simdChoices().get("test kernel").startsWith("trying"), CpuExecutor.simdChoices().toString());
  }

  @Test
  void anIndexOutOfBoundsInTheSimdPieceIsTheScalarFormsExceptionForItsChunk() {
    java.util.concurrent.atomic.AtomicBoolean simdRan = new java.util.concurrent.atomic.AtomicBoolean();
    CpuExecutor.ChunkBody simd = (chunk, lo, hi) -> {
      simdRan.set(true);
      throw new ArrayIndexOutOfBoundsException("Index 16 out of bounds for length 10"); // a vector's first lane
    };
    CpuExecutor.ChunkBody scalar = (chunk, lo, hi) -> {
      if (simdRan.get() && lo == 0) { // the chunk run again by the scalar form, from its first index
        throw new ArrayIndexOutOfBoundsException("Index 12 out of bounds for length 10");
      }
    };
    CpuExecutor.KernelIndexOutOfBoundsException e = assertThrows(CpuExecutor.KernelIndexOutOfBoundsException.class,
        () -> {
          for (int call = 0; call < 100; call++) { // until a call hands the SIMD form an index
            CpuExecutor.forEachChunkChoosing("Ops.shifted (Ops.java:3)", 10, 1, simd, scalar);
          }
        });
    assertTrue(simdRan.get());
    assertTrue(e.getMessage().startsWith("Ops.shifted (Ops.java:3): Index 12 out of bounds for length 10"), e.getMessage());
  }

  @Test
  void theChoiceIsOneACallSite() {
    float[] a = new float[1];
    CpuExecutor.ChunkBody first = (chunk, lo, hi) -> a[0]++;
    CpuExecutor.ChunkBody other = (chunk, lo, hi) -> a[0]--;
    assertTrue(SimdChoice.of(first.getClass(), "k") == SimdChoice.of(first.getClass(), "k"));
    assertTrue(SimdChoice.of(first.getClass(), "k") != SimdChoice.of(other.getClass(), "k2"));
  }
}
