package dev.kiln.processor.report;

import dev.kiln.processor.report.FusionReport.CallNode;
import dev.kiln.processor.report.FusionReport.Composite;
import dev.kiln.processor.report.FusionReport.Edge;
import dev.kiln.processor.report.FusionReport.Kernel;
import dev.kiln.processor.report.FusionReport.Tensor;
import java.util.List;

/** Reports built by hand, as the merger would fill them. */
final class Fixtures {
  /** The reason of softmax's one materialised edge: quotes, markup characters, a backslash, non-ASCII. */
  static final String REASON =
      "reduction \"max#0\" must finish before 'exp#1' reads m[n] <&> a grid-wide barrier \\ needs a new kernel (naïve → ✓)";

  private Fixtures() {}

  /** An LSTM cell split into ten elementwise calls and eight temporaries, all fused into one kernel. */
  static Composite lstm() {
    String ops = "dev.kiln.samples.LstmOps.";
    List<CallNode> calls = List.of(
        call("slice#0", "dev.kiln.lib.Slices.slice", 21, List.of("gates"), List.of("i")),
        call("slice#1", "dev.kiln.lib.Slices.slice", 22, List.of("gates"), List.of("f")),
        call("slice#2", "dev.kiln.lib.Slices.slice", 23, List.of("gates"), List.of("j")),
        call("slice#3", "dev.kiln.lib.Slices.slice", 24, List.of("gates"), List.of("o")),
        call("sigmoid#4", ops + "sigmoid", 25, List.of("i"), List.of("si")),
        call("sigmoid#5", ops + "sigmoid", 26, List.of("f"), List.of("sf")),
        call("tanh#6", "dev.kiln.lib.Elementwise.tanh", 27, List.of("j"), List.of("tj")),
        call("sigmoid#7", ops + "sigmoid", 28, List.of("o"), List.of("so")),
        call("cellUpdate#8", ops + "cellUpdate", 29, List.of("c", "sf", "si", "tj"), List.of("cNext")),
        call("hidden#9", ops + "hidden", 30, List.of("cNext", "so"), List.of("hNext")));
    List<Tensor> tensors = List.of(
        new Tensor("gates", "in", "[B, 4*H]", false),
        new Tensor("c", "in", "[B, H]", false),
        new Tensor("cNext", "out", "[B, H]", false),
        new Tensor("hNext", "out", "[B, H]", false),
        temp("i", false), temp("f", false), temp("j", false), temp("o", false),
        temp("si", false), temp("sf", false), temp("tj", false), temp("so", false));
    List<String> all = calls.stream().map(CallNode::id).toList();
    Kernel kernel = new Kernel("lstmStep_k0", all, "[b < B, h < H]", List.of("gates", "c"), List.of("cNext", "hNext"));
    String same = "same grid [b, h]; the write pattern inverts onto the read";
    List<Edge> edges = List.of(
        new Edge("slice#0", "sigmoid#4", "i", true, same),
        new Edge("slice#1", "sigmoid#5", "f", true, same),
        new Edge("slice#2", "tanh#6", "j", true, same),
        new Edge("slice#3", "sigmoid#7", "o", true, same),
        new Edge("sigmoid#5", "cellUpdate#8", "sf", true, same),
        new Edge("sigmoid#4", "cellUpdate#8", "si", true, same),
        new Edge("tanh#6", "cellUpdate#8", "tj", true, same),
        new Edge("cellUpdate#8", "hidden#9", "cNext", true, "passed in a register; cNext is also stored as an output"),
        new Edge("sigmoid#7", "hidden#9", "so", true, same));
    return new Composite("lstmStep", calls, tensors, List.of(kernel), edges);
  }

  /** Softmax as four calls in two kernels: the row maximum is materialised, the rest fuses. */
  static Composite softmax() {
    String ops = "dev.kiln.samples.Softmax.";
    List<CallNode> calls = List.of(
        call("max#0", "dev.kiln.lib.Reduce.rowMax", 40, List.of("x"), List.of("m")),
        call("exp#1", ops + "expShift", 41, List.of("x", "m"), List.of("e")),
        call("sum#2", "dev.kiln.lib.Reduce.rowSum", 42, List.of("e"), List.of("s")),
        call("div#3", ops + "normalize", 43, List.of("e", "s"), List.of("y")));
    List<Tensor> tensors = List.of(
        new Tensor("x", "in", "[N, C]", false),
        new Tensor("y", "out", "[N, C]", false),
        new Tensor("m", "temp", "[N]", true),
        new Tensor("e", "temp", "[N, C]", false),
        new Tensor("s", "temp", "[N]", false));
    List<Kernel> kernels = List.of(
        new Kernel("softmax_k0", List.of("max#0"), "[n < N] reduce c < C", List.of("x"), List.of("m")),
        new Kernel("softmax_k1", List.of("exp#1", "sum#2", "div#3"), "[n < N, c < C]", List.of("x", "m"), List.of("y")));
    List<Edge> edges = List.of(
        new Edge("max#0", "exp#1", "m", false, REASON),
        new Edge("exp#1", "sum#2", "e", true, "prologue of the reduction sum#2"),
        new Edge("sum#2", "div#3", "s", true, "epilogue of the reduction sum#2 (row n)"),
        new Edge("exp#1", "div#3", "e", true, "recomputed inline: exp(x[n, c] - m[n]) is cheap"));
    return new Composite("softmax", calls, tensors, kernels, edges);
  }

  static FusionReport lstmReport() {
    return new FusionReport("dev.kiln.samples.LstmOps", List.of(lstm()));
  }

  static FusionReport softmaxReport() {
    return new FusionReport("dev.kiln.samples.Softmax", List.of(softmax()));
  }

  static FusionReport both() {
    return new FusionReport("dev.kiln.samples.Mixed", List.of(lstm(), softmax()));
  }

  static FusionReport empty() {
    return new FusionReport("dev.kiln.samples.NoComposites", List.of());
  }

  private static CallNode call(String id, String operator, long line, List<String> reads, List<String> writes) {
    return new CallNode(id, operator, line, reads, writes);
  }

  private static Tensor temp(String name, boolean allocated) {
    return new Tensor(name, "temp", "[B, H]", allocated);
  }
}
