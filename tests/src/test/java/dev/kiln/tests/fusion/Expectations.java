package dev.kiln.tests.fusion;

import static dev.kiln.tests.fusion.Expected.one;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** The expected fusion of every composite in this package (see {@link Expected}). */
final class Expectations {
  private Expectations() {}

  static final List<Class<?>> OWNERS = List.of(Composites.class, Graphs.class, Layouts.class, Loops.class, Edges.class, AcrossJars.class);

  static final List<Expected> ALL = List.of(
      // AcrossJars: the callees come from the standard library's jar, through their IR
      one(AcrossJars.class, "softmax", "the library's row primitives fuse like source ones: three row passes",
          "rowMax#1", "subRow#1", "exp#1", "rowSum#1", "divRow#1"),
      one(AcrossJars.class, "denseReluT", "relu and the transposed store are the dot product's epilogue",
          "affine#1", "relu#1", "transpose#1"),
      one(AcrossJars.class, "ovl", "OVL's example from the library's split, add, mul and concat",
          "split2#1", "add#1", "add#2", "mul#1", "concat2#1"),
      // Composites
      one(Composites.class, "lstmCell", "every call is elementwise over [B, H] after inverting split4's pattern",
          "split4#1", "addScalar#1", "sigmoidMap#1", "sigmoidMap#2", "tanhMap#1", "mul#1", "mul#2", "add#1",
          "tanhMap#2", "sigmoidMap#3", "mul#3"),
      one(Composites.class, "ovl", "OVL's example: the split and the concat invert, all on the grid [N]",
          "split2#1", "add#1", "add#2", "mul#1", "concat2#1"),
      one(Composites.class, "softmax", "one worker per row runs three sequential passes",
          "rowMax#1", "subRow#1", "expMap#1", "rowSum#1", "divRow#1"),
      one(Composites.class, "dimArguments", "@Dim expressions given to int parameters (2*H, 3*H) are sizes in the kernel;"
          + " both column copies are recomputed inside the add", "columnsFrom#1", "columnsFrom#2", "add#1"),
      one(Composites.class, "derivedBoundGates", "the activations over [B, 4*H] (a @Parallel bound 4 * H) are the"
          + " product's epilogue", "gateProduct#1", "gateActivations#1"),
      one(Composites.class, "layerNorm", "one worker per row: a mean pass, a variance pass, an output pass",
          "rowMean#1", "subRow#1", "square#1", "rowMean#2", "addScalar#1", "rsqrtMap#1", "mulRow#1", "mulCols#1",
          "addCols#1"),
      // Graphs
      one(Graphs.class, "diamond", "the cheap shared producer is recomputed in both branches",
          "tanhMap#1", "sigmoidMap#1", "expMap#1", "add#1"),
      one(Graphs.class, "matmulDiamond", "both consumers read the dot product at their own worker: it stays in a register",
          "matmul#1", "tanhMap#1", "sigmoidMap#1", "add#1"),
      one(Graphs.class, "rowDiamond", "both consumers read the row mean of their own row: one worker per row",
          "rowMean#1", "subRow#1", "mulRow#1", "add#1"),
      new Expected(Graphs.class, "stencilDiamond",
          List.of(List.of("matvec#1"), List.of("tanhMap#1", "blur3#1", "add#1")), Set.of("y"),
          "the stencil reads the dot products of neighbouring workers: y is stored once, then read by a second kernel"),
      one(Graphs.class, "twoDiamonds", "nested composites expand into one elementwise chain",
          "tanhMap#1", "sigmoidMap#1", "expMap#1", "add#1", "tanhMap#2", "sigmoidMap#2", "expMap#2", "add#2"),
      one(Graphs.class, "tanhSoftmax", "the tanh prologue is recomputed in softmax's three row passes",
          "tanhMap#1", "rowMax#1", "subRow#1", "expMap#1", "rowSum#1", "divRow#1"),
      one(Graphs.class, "scaleShift", "two scalar maps", "mulScalar#1", "addScalar#1"),
      one(Graphs.class, "scaleShiftTanh", "a nested composite with a scalar and a literal, then a map",
          "mulScalar#1", "addScalar#1", "tanhMap#1"),
      one(Graphs.class, "scaleByInt", "an int scalar widened to float, then a literal", "mulScalar#1", "addScalar#1"),
      one(Graphs.class, "readBack", "y is stored, and the stencil recomputes the cheap tanh at i - 1, i and i + 1",
          "tanhMap#1", "blur3#1"),
      one(Graphs.class, "expRowSum", "one worker per row stores e and sums it in the same pass (like softmax)",
          "expMap#1", "rowSum#1"),
      new Expected(Graphs.class, "interleaved", List.of(List.of("tanhMap#1", "expMap#1"), List.of("sigmoidMap#1", "mulScalar#1")),
          Set.of(), "the third call joins the first kernel of its grid, past the independent kernel of the other grid"),
      // Layouts
      one(Layouts.class, "biasScale", "two broadcast reads on the grid [B, N]", "addCols#1", "mulRow#1"),
      one(Layouts.class, "gatedBias", "the cheap gate is recomputed for each row", "sigmoidMap#1", "addCols#1"),
      one(Layouts.class, "transposeBias", "the transpose inverts: a read of t[b, n] is x[n, b]",
          "transpose#1", "addCols#1", "tanhMap#1"),
      one(Layouts.class, "flatRoundTrip", "the flat 1-D map runs over [B, H]", "addCols#1", "tanhMap#1", "mulCols#1"),
      one(Layouts.class, "flatToRows", "the flat map is recomputed inside the row sums", "sigmoidMap#1", "rowSum#1"),
      one(Layouts.class, "reshapeRows", "the map is recomputed inside the row sums of the reshaped rows",
          "tanhMap#1", "rowSum#1"),
      // Loops
      one(Loops.class, "denseRelu", "bias and relu are an epilogue of the dot product", "matmul#1", "addCols#1", "reluMap#1"),
      one(Loops.class, "sumSquares", "the square is the reduction's prologue", "square#1", "sumAll#1"),
      one(Loops.class, "stencilCheap", "tanh is cheap enough to compute three times", "tanhMap#1", "blur3#1"),
      new Expected(Loops.class, "stencilCostly", List.of(List.of("costlyMap#1"), List.of("blur3#1")), Set.of("p"),
          "six math calls per element: computing them three times costs more than storing p"),
      new Expected(Loops.class, "stencilMatvec", List.of(List.of("matvec#1"), List.of("blur3#1")), Set.of("y"),
          "recomputing the dot product at three reads would repeat the loop"),
      new Expected(Loops.class, "costlyMatvec", List.of(List.of("costlyMap#1"), List.of("matvec#1")), Set.of("x"),
          "every row reads all of x: inlining the six math calls would repeat them once per row (M times)"),
      one(Loops.class, "rowNormalizeD", "one worker per row: a sum pass and a scale pass",
          "squareD#1", "rowSumD#1", "addScalarD#1", "rsqrtMapD#1", "mulRowD#1"),
      new Expected(Loops.class, "centeredScaled", List.of(List.of("rowScaled#1", "rowCentered#1")), Set.of("t"),
          "one worker per row: the scaled row is read back only by the worker that wrote it"),
      new Expected(Loops.class, "centeredCumsum", List.of(List.of("rowPrefixSum#1", "rowCentered#1")), Set.of("t"),
          "one worker per row: the running sums are read back only by the worker that wrote them"),
      // Edges
      one(Edges.class, "clampTanh", "the clamp is inlined into the map", "clampHigh#1", "tanhMap#1"),
      // Known limit: 'a' is written twice per worker (once in a loop), so its value is not forwarded in a register;
      // the map reads it back from memory in the same kernel and the temporary stays.
      new Expected(Edges.class, "lastAboveTanh", List.of(List.of("lastAbove#1", "tanhMap#1")), Set.of("a"),
          "the map reads the scan's result at its own worker, through memory"),
      one(Edges.class, "padConv", "the padding inverts: p[j] = tanh(x[j - 1]) inside, zero at the pads",
          "tanhMap#1", "padInto#1", "conv3#1"),
      new Expected(Edges.class, "padConvMatvec", List.of(List.of("matvec#1"), List.of("padInto#1", "conv3#1")), Set.of("y"),
          "the convolution reads the dot products of neighbouring workers: y is stored; the padded copy is not"),
      one(Edges.class, "gatherTanh", "the data-dependent read recomputes tanh at the gathered index",
          "tanhMap#1", "wrapIndex#1", "gather#1"),
      new Expected(Edges.class, "centre", List.of(List.of("sumAll#1"), List.of("subMean#1")), Set.of("s"),
          "every element needs the sum over all workers: a grid-wide barrier between two kernels"),
      new Expected(Edges.class, "rootMeanSquare", List.of(List.of("square#1", "sumAll#1", "rootMean#1")), Set.of("s"),
          "the square is the reduction's prologue; the root of the mean runs once after every worker, on the total"),
      new Expected(Edges.class, "inverseRootMeanSquare", List.of(List.of("square#1", "sumAll#1", "rootMean#1",
          "inverseScalar#1")), Set.of(), "both scalar epilogues run after every worker; the second recomputes the"
          + " first's cheap root, so r is never stored"),
      one(Edges.class, "rowNormalize", "a @Reduce by rows becomes a worker per row adding its terms in order, so the"
          + " divide joins it as a second row pass (exp recomputed in both)", "expMap#1", "rowSumsReduce#1", "divRow#1"),
      one(Edges.class, "rowInverseNorms", "the square is the reduction's prologue and rsqrt its epilogue, on the"
          + " row's total in a register", "square#1", "rowSumsReduce#1", "rsqrtMap#1"),
      one(Edges.class, "biasSgd", "a @Reduce down columns becomes a worker per column adding its terms in order, so"
          + " the SGD step on the column's total joins it", "colSumsReduce#1", "sgdStep#1"),
      one(Edges.class, "columnInverseNorms", "the square is the reduction's prologue and rsqrt its epilogue, on the"
          + " column's total in a register", "square#1", "colSumsReduce#1", "rsqrtMap#1"),
      one(Edges.class, "middleSumsBias", "a sum over the middle dimension is a worker per (b, k) looping over h; the"
          + " broadcast add on its grid joins it", "middleSumsReduce#1", "addCols#1"),
      new Expected(Edges.class, "groupShift", List.of(List.of("groupMaxReduce#1", "subGroup#1")), Set.of(),
          "a max by (b, h) over k is a worker per group; the shift is its second pass over the group"),
      one(Edges.class, "shadowedParam", "an elementwise chain", "tanhMap#1", "sigmoidMap#1", "expMap#1", "add#1", "add#2"),
      // Known limit: the scan's values are stored inside its loop, so the map cannot take them from a register; it
      // stays parallel in a second kernel rather than run on the scan's single worker.
      new Expected(Edges.class, "prefixTanh", List.of(List.of("prefixSum#1"), List.of("tanhMap#1")), Set.of("p"),
          "the map stays parallel in its own kernel and reads p"));

  static Stream<Expected> all() {
    return ALL.stream();
  }

  static Stream<Class<?>> owners() {
    return OWNERS.stream();
  }

  static List<Expected> of(Class<?> owner) {
    return ALL.stream().filter(e -> e.owner() == owner).toList();
  }
}
