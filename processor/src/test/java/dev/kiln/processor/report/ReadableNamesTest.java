package dev.kiln.processor.report;

import static com.google.common.truth.Truth.assertThat;

import dev.kiln.processor.report.FusionReport.CallNode;
import dev.kiln.processor.report.FusionReport.Composite;
import dev.kiln.processor.report.FusionReport.Edge;
import dev.kiln.processor.report.FusionReport.Kernel;
import dev.kiln.processor.report.FusionReport.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The page shows a backward pass's made-up names in readable form, each with its own name behind a
 * CSS-only toggle, and says in the contents which composites are backward passes.
 */
class ReadableNamesTest {
  @Test
  void madeUpNamesReadAsWhatTheyAre() {
    assertThat(ReadableNames.of("adj$x$1")).isEqualTo("\u2202x, part 1");
    assertThat(ReadableNames.of("crossEntropyGrad$adj$logits$3")).isEqualTo("\u2202logits, part 3");
    assertThat(ReadableNames.of("g$weights$3")).isEqualTo("\u2202weights");
    assertThat(ReadableNames.of("softmax$adjoint#1")).isEqualTo("adjoint of softmax");
    assertThat(ReadableNames.of("crossEntropy$adjoint1#1")).isEqualTo("adjoint of crossEntropy");
    assertThat(ReadableNames.of("softmax$dx#1")).isEqualTo("gradient of x from softmax");
    assertThat(ReadableNames.of("g$cNext")).isEqualTo("\u2202cNext");
    assertThat(ReadableNames.of("diamond$a2")).isEqualTo("a2 (in diamond)");
    assertThat(ReadableNames.of("columnMaxByRows$ties#1")).isEqualTo("ties of columnMaxByRows");
    assertThat(ReadableNames.of("diamond$d2")).isEqualTo("d2 (in diamond)"); // a tensor, not a gather call
    assertThat(ReadableNames.of("logits")).isEqualTo("logits");
    assertThat(ReadableNames.of("affine#1")).isEqualTo("affine#1");
    assertThat(ReadableNames.internal("affine#1")).isFalse();
  }

  @Test
  void theBackwardPassesTablesShowReadableNamesWithTheInternalOnesBehindTheToggle() {
    Composite grad = new Composite("softmaxGrad",
        List.of(new CallNode("softmax$adjoint#1", "dev.kiln.samples.Softmax.softmax$adjoint", 10, List.of("x", "dy"),
            List.of("adj$x$1")),
            new CallNode("softmax$dx#1", "dev.kiln.samples.Softmax.softmax$dx", 10, List.of("adj$x$1"), List.of("dx"))),
        List.of(new Tensor("x", "in", "[N]", false), new Tensor("dy", "in", "[N]", false),
            new Tensor("adj$x$1", "temp", "[N]", false), new Tensor("dx", "out", "[N]", false)),
        List.of(new Kernel("softmaxGrad_k0", List.of("softmax$adjoint#1", "softmax$dx#1"), "[n < N]", List.of("x", "dy"),
            List.of("dx"))),
        List.of(new Edge("softmax$adjoint#1", "softmax$dx#1", "adj$x$1", true, "one kernel")), "softmax");
    String html = ReportHtml.write(new FusionReport("dev.kiln.samples.Softmax", List.of(Fixtures.softmax(), grad)));
    assertThat(html).contains("<input type=\"checkbox\" id=\"internal-names\"/>");
    assertThat(html).contains("#internal-names:checked ~ section .internal { display: inline; }");
    assertThat(html).contains("<span class=\"readable\" title=\"adj$x$1\">\u2202x, part 1</span>"
        + "<code class=\"internal\">adj$x$1</code>");
    assertThat(html).contains("<span class=\"readable\" title=\"softmax$adjoint#1\">adjoint of softmax</span>");
    assertThat(html).contains("(backward pass of softmax)");
  }
}
