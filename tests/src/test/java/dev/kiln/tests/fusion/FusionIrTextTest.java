package dev.kiln.tests.fusion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same kernel counts and allocated temporaries as {@link FusionReportTest}, read from the IR
 * text ({@code fused into N kernel(s); temporaries allocated: ...}).
 */
class FusionIrTextTest {
  static List<Class<?>> owners() {
    return Expectations.OWNERS;
  }

  static List<Expected> expected() {
    return Expectations.ALL;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("owners")
  void everyCompositeHasAnExpectation(Class<?> owner) {
    Map<String, IrSummary> ir = IrSummary.read(FusionResources.text(owner, ".ir.txt"));
    TreeSet<String> want = new TreeSet<>();
    Expectations.of(owner).forEach(e -> want.add(e.composite()));
    TreeSet<String> listed = new TreeSet<>();
    for (String name : ir.keySet()) {
      // <op>Saving is <op>'s training form (its stored temporaries handed out): it has <op>'s expectation
      boolean saving = name.endsWith("Saving") && ir.containsKey(name.substring(0, name.length() - "Saving".length()));
      if (!saving) {
        listed.add(name);
      }
    }
    assertEquals(want, listed, "the composites of " + owner.getSimpleName());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expected")
  void kernelCount(Expected e) {
    IrSummary s = summary(e);
    assertEquals(e.kernelCount(), s.kernelCount(), e + ": kernels (" + e.why() + ")");
    assertEquals(e.kernelCount(), s.kernels().size(), e + ": '# kernel' sections");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expected")
  void temporariesAllocated(Expected e) {
    assertEquals(new TreeSet<>(e.allocated()), new TreeSet<>(summary(e).allocated()), e + ": temporaries allocated (" + e.why() + ")");
  }

  private static IrSummary summary(Expected e) {
    IrSummary s = IrSummary.read(FusionResources.text(e.owner(), ".ir.txt")).get(e.composite());
    assertNotNull(s, e + " is not in the IR text");
    assertNotNull(s.allocated(), e + ": no 'fused into' line");
    return s;
  }
}
