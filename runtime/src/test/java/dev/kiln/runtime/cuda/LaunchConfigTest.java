package dev.kiln.runtime.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The launch arithmetic, without a GPU. */
class LaunchConfigTest {
  private static final LaunchConfig.Limits LIMITS = LaunchConfig.Limits.DEFAULT;

  private static LaunchConfig grid(long... extents) {
    return LaunchConfig.grid(extents, LIMITS).orElseThrow();
  }

  @Test
  void oneDimensionUses256ThreadBlocks() {
    assertEquals(new LaunchConfig(4, 1, 1, 256, 1, 1), grid(1000));
    assertEquals(new LaunchConfig(1, 1, 1, 256, 1, 1), grid(1));
    assertEquals(new LaunchConfig(1, 1, 1, 256, 1, 1), grid(256));
    assertEquals(new LaunchConfig(2, 1, 1, 256, 1, 1), grid(257));
  }

  @Test
  void oneDimensionIsCappedAtTheGridLimit() {
    assertEquals(new LaunchConfig(Integer.MAX_VALUE, 1, 1, 256, 1, 1), grid(Long.MAX_VALUE));
    LaunchConfig.Limits small = new LaunchConfig.Limits(100, 10, 10);
    assertEquals(new LaunchConfig(100, 1, 1, 256, 1, 1),
        LaunchConfig.grid(new long[] {1_000_000}, small).orElseThrow());
  }

  @Test
  void twoDimensionsPutTheInnermostOnX() {
    assertEquals(new LaunchConfig(32, 128, 1, 32, 8, 1), grid(1024, 1024));
    assertEquals(new LaunchConfig(4, 1, 1, 32, 8, 1), grid(8, 100));
  }

  @Test
  void aSmallInnerExtentGivesItsThreadsToY() {
    assertEquals(new LaunchConfig(1, 15625, 1, 4, 64, 1), grid(1_000_000, 3));
    assertEquals(new LaunchConfig(1, 1, 1, 1, 2, 1), grid(2, 1));
  }

  @Test
  void aSmallOuterExtentGivesItsThreadsToX() {
    assertEquals(new LaunchConfig(7813, 1, 1, 128, 2, 1), grid(2, 1_000_000));
  }

  @Test
  void twoDimensionsAreCappedOnYAtTheDeviceLimit() {
    LaunchConfig c = grid(1_000_000_000L, 32);
    assertEquals(65535, c.gridY());
    assertEquals(new LaunchConfig(1, 65535, 1, 32, 8, 1), c);
  }

  @Test
  void threeDimensionsPutTheOutermostOnZ() {
    assertEquals(new LaunchConfig(32, 128, 10, 32, 8, 1), grid(10, 1024, 1024));
    assertEquals(new LaunchConfig(1, 1, 16, 2, 2, 64), grid(1000, 2, 2));
  }

  @Test
  void fourDimensionsMultiplyTheOuterOnesOnZ() {
    assertEquals(new LaunchConfig(2, 2, 15, 32, 8, 1), grid(3, 5, 16, 64));
    LaunchConfig capped = grid(1_000_000, 1_000_000, 64, 64);
    assertEquals(65535, capped.gridZ());
    LaunchConfig saturated = grid(Long.MAX_VALUE, Long.MAX_VALUE, 4, 4);
    assertEquals(65535, saturated.gridZ());
    assertTrue(saturated.blockThreads() <= 256);
  }

  @Test
  void aZeroExtentLaunchesNothing() {
    assertEquals(Optional.empty(), LaunchConfig.grid(new long[] {0}, LIMITS));
    assertEquals(Optional.empty(), LaunchConfig.grid(new long[] {5, 0}, LIMITS));
    assertEquals(Optional.empty(), LaunchConfig.grid(new long[] {0, 5, 5}, LIMITS));
    assertEquals(Optional.empty(), LaunchConfig.grid(new long[] {3, 4, 0, 7}, LIMITS));
  }

  @Test
  void noExtentsIsOneThread() {
    assertEquals(new LaunchConfig(1, 1, 1, 1, 1, 1), grid());
  }

  @Test
  void negativeExtentsAreRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LaunchConfig.grid(new long[] {4, -3}, LIMITS));
    assertTrue(e.getMessage().contains("extent 1") && e.getMessage().contains("-3"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> LaunchConfig.grid(null, LIMITS));
  }

  @Test
  void everyGridCoversItsExtentsOrIsCapped() {
    Random random = new Random(42);
    for (int trial = 0; trial < 20_000; trial++) {
      int k = 1 + random.nextInt(5);
      long[] extents = new long[k];
      for (int i = 0; i < k; i++) {
        extents[i] = random.nextInt(4) == 0
            ? 1 + random.nextInt(4)
            : 1 + (long) Math.pow(10, random.nextDouble() * (random.nextBoolean() ? 4 : 10));
      }
      LaunchConfig c = grid(extents);
      String where = java.util.Arrays.toString(extents) + " -> " + c;
      assertTrue(c.blockThreads() <= 256 && c.blockThreads() >= 1, where);
      assertTrue(c.blockZ() <= LaunchConfig.MAX_BLOCK_Z, where);
      assertTrue((long) c.gridX() * c.blockX() >= extents[k - 1] || c.gridX() == LIMITS.maxGridX(), where);
      if (k == 1) {
        assertEquals(256, c.blockX(), where);
        continue;
      }
      assertTrue((long) c.gridY() * c.blockY() >= extents[k - 2] || c.gridY() == LIMITS.maxGridY(), where);
      long z = 1;
      for (int i = 0; i < k - 2; i++) {
        z = Math.multiplyHigh(z, extents[i]) != 0 ? Long.MAX_VALUE : z * extents[i];
        z = z < 0 ? Long.MAX_VALUE : z;
      }
      assertTrue((long) c.gridZ() * c.blockZ() >= z || c.gridZ() == LIMITS.maxGridZ(), where);
      // No axis has more threads a block than its extent rounded up to a power of two.
      assertTrue(c.blockX() <= LaunchConfig.ceilPowerOfTwo(extents[k - 1]), where);
      assertTrue(c.blockY() <= LaunchConfig.ceilPowerOfTwo(extents[k - 2]), where);
      assertTrue(c.blockZ() <= LaunchConfig.ceilPowerOfTwo(z), where);
      if (extents[k - 1] >= 32 && extents[k - 2] >= 8) {
        assertEquals(256, c.blockThreads(), where);
      }
    }
  }

  @Test
  void reducingUsesOneBlockPerKeptPointAtLeastOne() {
    assertEquals(new LaunchConfig(1, 1, 1, 256, 1, 1), LaunchConfig.reducing(0, LIMITS));
    assertEquals(new LaunchConfig(1, 1, 1, 256, 1, 1), LaunchConfig.reducing(1, LIMITS));
    assertEquals(new LaunchConfig(512, 1, 1, 256, 1, 1), LaunchConfig.reducing(512, LIMITS));
    assertEquals(new LaunchConfig(Integer.MAX_VALUE, 1, 1, 256, 1, 1),
        LaunchConfig.reducing(1L << 40, LIMITS));
    assertTrue(LaunchConfig.reducing(7, LIMITS).blockThreads() <= 1024);
    assertThrows(IllegalArgumentException.class, () -> LaunchConfig.reducing(-1, LIMITS));
  }

  @Test
  void shortRowsTakeTheThreadsAskedForOneBlockARow() {
    assertEquals(new LaunchConfig(1, 1, 1, 64, 1, 1), LaunchConfig.rows(0, 64, LIMITS));
    assertEquals(new LaunchConfig(3000, 1, 1, 64, 1, 1), LaunchConfig.rows(3000, 64, LIMITS));
    assertEquals(new LaunchConfig(Integer.MAX_VALUE, 1, 1, 32, 1, 1), LaunchConfig.rows(1L << 40, 32, LIMITS));
    assertThrows(IllegalArgumentException.class, () -> LaunchConfig.rows(-1, 64, LIMITS));
    // whole warps, a power of two of them (the short-row form's reduction arrays hold a slot a warp)
    for (int threads : new int[] {0, 16, 48, 96, 2048}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LaunchConfig.rows(5, threads, LIMITS));
      assertTrue(e.getMessage().contains("32, 64, ..., 1024: " + threads), e.getMessage());
    }
  }

  @Test
  void columnsTake32WorkersABlockAtLeastOneBlock() {
    assertEquals(new LaunchConfig(1, 1, 1, 32, 32, 1), LaunchConfig.columns(0, LIMITS));
    assertEquals(new LaunchConfig(1, 1, 1, 32, 32, 1), LaunchConfig.columns(32, LIMITS));
    assertEquals(new LaunchConfig(2, 1, 1, 32, 32, 1), LaunchConfig.columns(33, LIMITS));
    assertEquals(new LaunchConfig(Integer.MAX_VALUE, 1, 1, 32, 32, 1), LaunchConfig.columns(1L << 40, LIMITS));
    assertEquals(1024, LaunchConfig.columns(7, LIMITS).blockThreads());
    assertThrows(IllegalArgumentException.class, () -> LaunchConfig.columns(-1, LIMITS));
    assertEquals(new LaunchConfig(5, 1, 1, 32, 8, 1), LaunchConfig.columns(129, LIMITS, 8));
  }

  @Test
  void mapIsOneDimensional() {
    assertEquals(Optional.empty(), LaunchConfig.map(0, LIMITS));
    assertEquals(new LaunchConfig(1, 1, 1, 256, 1, 1), LaunchConfig.map(1, LIMITS).orElseThrow());
    assertEquals(new LaunchConfig(2, 1, 1, 256, 1, 1), LaunchConfig.map(257, LIMITS).orElseThrow());
    assertEquals(new LaunchConfig(Integer.MAX_VALUE, 1, 1, 256, 1, 1),
        LaunchConfig.map(Long.MAX_VALUE, LIMITS).orElseThrow());
    assertThrows(IllegalArgumentException.class, () -> LaunchConfig.map(-5, LIMITS));
  }

  @Test
  void sizesAndDescription() {
    LaunchConfig c = new LaunchConfig(4, 2, 1, 32, 8, 1);
    assertEquals(256, c.blockThreads());
    assertEquals(8, c.blocks());
    assertEquals(2048, c.threads());
    assertEquals("grid (4, 2, 1) x block (32, 8, 1)", c.toString());
    assertThrows(IllegalArgumentException.class, () -> new LaunchConfig(0, 1, 1, 1, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> new LaunchConfig.Limits(0, 1, 1));
  }

  @Test
  void ceilPowerOfTwo() {
    assertEquals(1, LaunchConfig.ceilPowerOfTwo(1));
    assertEquals(4, LaunchConfig.ceilPowerOfTwo(3));
    assertEquals(4, LaunchConfig.ceilPowerOfTwo(4));
    assertEquals(1L << 62, LaunchConfig.ceilPowerOfTwo(Long.MAX_VALUE));
  }
}
