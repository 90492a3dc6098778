package dev.kiln.tests.grad;

import java.util.Map;

/**
 * Operators that have no gradient, each with the reason: the test fails for an operator without
 * {@code fGrad} that is not listed here, and for one listed here that has a gradient method (the
 * expectation is stale). Keys are {@code SimpleClassName.method}.
 */
final class NoGradient {
  private NoGradient() {}

  static final Map<String, String> REASONS = Map.ofEntries(
      Map.entry("Activations.floorMod", "integer result"),
      Map.entry("Activations.mulAddLong", "integer result"),
      Map.entry("Layout.intMix", "integer arrays only"),
      Map.entry("Records.meanVar", "Welford's update: a carried mean that is not a sum (KILN043)"),
      Map.entry("Records.halvesVar", "Welford's update: a carried mean that is not a sum (KILN043)"),
      Map.entry("Records.welfordVariance", "Welford's update: a carried mean that is not a sum (KILN043)"),
      Map.entry("Records.chunkedVariance", "Welford's update: a carried mean that is not a sum (KILN043)"),
      Map.entry("Rows.rowArgMax", "a carried value chosen by comparison, and an int index (KILN043)"),
      Map.entry("Records.chunkMoments", "Welford's update: a carried mean that is not a sum (KILN043)"),
      Map.entry("Records.combineMoments", "Chan's combination: a carried mean that is not a sum (KILN043)"),
      Map.entry("Records.parallelVariance", "calls Records.chunkMoments: Welford's update (KILN043)"),
      Map.entry("Records.logSumExp", "a carried sum rescaled when the maximum moves (KILN043)"),
      Map.entry("Records.argMax", "a carried value chosen by comparison, not a running max (KILN043)"),
      Map.entry("Records.horner", "a carried product, not a sum (KILN043)"),
      Map.entry("RandomOps.noise", "no floating input (its values come from KRandom)"),
      Map.entry("SimdOps.drawRows", "no floating input (its values come from KRandom)"),
      Map.entry("SimdOps.drawStrided", "no floating input (its values come from KRandom)"),
      Map.entry("SimdOps.drawNormal", "no floating input (its values come from KRandom)"),
      Map.entry("SimdOps.laneFolds", "lane nests of products and of p = t - p: carried values that are not sums (KILN043)"),
      Map.entry("SimdOps.laneRefused", "a lane nest whose terms read the lane's index, not a lane sum (KILN043)"),
      Map.entry("LongArrays.mix", "integer arrays only"),
      Map.entry("LongArrays.rowStats", "integer inputs only (its float mean has no floating input)"),
      Map.entry("LongArrays.columnTotals", "integer arrays only"),
      Map.entry("LongArrays.seconds", "integer input only"),
      Map.entry("NarrowArrays.gain", "a short result"),
      Map.entry("NarrowArrays.normalize", "integer input only"),
      Map.entry("NarrowArrays.wrap", "integer arrays only"),
      Map.entry("NarrowArrays.rowSums", "integer arrays only"),
      Map.entry("Prims.wrapIndex", "integer arrays only"),
      Map.entry("Reductions.countPositive", "integer result"),
      Map.entry("RowLoops.countBelow", "integer arrays only"),
      Map.entry("RowLoops.laneProducts", "a lane nest of products: carried values that are not sums (KILN043)"),
      Map.entry("RowLoops.cumsum", "a scan that stores its running value (KILN043)"),
      Map.entry("Prims.rowPrefixSum", "a scan: the carried sum is stored in every iteration (KILN043)"),
      Map.entry("Loops.centeredCumsum", "calls Prims.rowPrefixSum: a scan (KILN043)"),
      Map.entry("RowLoops.rowRounded", "integer result"),
      Map.entry("Reductions.histogram", "integer result"),
      Map.entry("Layout.gather", "data-dependent index"),
      Map.entry("Layout.lowerTriangle", "a loop whose bound depends on the worker (KILN043)"),
      Map.entry("Prims.gather", "data-dependent index"),
      Map.entry("Edges.gatherTanh", "calls Prims.gather: data-dependent index"),
      Map.entry("Prims.prefixSum", "a scan: the carried sum is stored in every iteration (KILN043)"),
      Map.entry("Reductions.prefixSum", "a scan: the carried sum is stored in every iteration (KILN043)"),
      Map.entry("Reductions.rowScan", "a scan: the carried sum is stored in every iteration (KILN043)"),
      Map.entry("Edges.prefixTanh", "calls Prims.prefixSum, a scan"),
      Map.entry("Reductions.product", "@Reduce product (KILN043)"),
      Map.entry("Prims.lastAbove", "an element overwritten in a loop: the surviving value depends on the data (KILN043)"),
      Map.entry("Edges.lastAboveTanh", "calls Prims.lastAbove"),
      Map.entry("SimdOps.columnParts", "a loop over the rows from B / 2: bounds that are not sizes or constants (KILN043)"),
      Map.entry("SimdOps.columns", "a scan: the carried sum is stored in every iteration (KILN043)"),
      Map.entry("SimdOps.folds", "a carried product and differences with the carried value on the right (KILN043)"),
      Map.entry("SimdOps.intOutput", "integer result"),
      Map.entry("SimdOps.prefixSum", "a scan: the carried sum is stored in every iteration (KILN043)"),
      Map.entry("SimdOps.runningStats", "Welford's recurrence: the running mean is updated by a division by the count, not a sum (KILN043)"),
      Map.entry("SimdOps.overlappingStores", "iteration k + 1's first store overwrites iteration k's second (KILN043)"),
      Map.entry("SimdOps.rewritten", "its second loop overwrites what its first wrote (KILN043)"));
}
