package dev.kiln.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cost model on the processor's plans, with the cores of a driver and of a cluster given. */
class ShardCostTest {
  @Test
  void computeBoundWorkSplitsOnMoreCoresAndMemoryBoundWorkDoesNot() {
    ShardPlan gaussian = ShardPlan.of(ShardOps.class, "gaussianSums");
    Map<String, Long> big = Map.of("B", 256L, "N", 4096L);
    assertTrue(ShardCost.of(gaussian, big, 16, 2, 32).pays(), ShardCost.of(gaussian, big, 16, 2, 32).describe());
    assertFalse(ShardCost.of(gaussian, big, 2, 2, 2).pays(), "no more cores than the driver");
    Map<String, Long> small = Map.of("B", 4L, "N", 256L);
    assertFalse(ShardCost.of(gaussian, small, 4, 2, 32).pays(), "a job costs more than the work");

    ShardPlan softmax = ShardPlan.of(ShardOps.class, "softmax");
    Map<String, Long> rows = Map.of("B", 4096L, "N", 2048L);
    ShardCost cost = ShardCost.of(softmax, rows, 16, 2, 32);
    assertFalse(cost.pays(), cost.describe());
    assertEquals(4096.0 * 2048 * 8, cost.movedBytes(), 1.0, "x's and y's rows, nothing whole");
  }

  @Test
  void polynomialsAreReadAsTheProcessorWritesThem() {
    ShardPlan.Poly p = ShardPlan.Poly.parse("8*N*K + 3*N - 2");
    assertEquals(8 * 5 * 7 + 3 * 5 - 2, p.at(Map.of("N", 5L, "K", 7L)));
    assertEquals(0, ShardPlan.Poly.parse("0").at(Map.of()));
  }
}
