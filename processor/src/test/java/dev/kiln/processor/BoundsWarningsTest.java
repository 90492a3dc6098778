package dev.kiln.processor;

import javax.tools.Diagnostic;
import org.junit.jupiter.api.Test;

/**
 * An unguarded affine access that is neither provably inside its array for every size nor
 * provably outside it for some worker at every size (KILN047) gets warning KILN049 on its line;
 * guarded and provably-inside accesses get none, and {@code @SuppressWarnings("KILN049")} silences
 * it. Each expected warning is marked {@code // warning: KILN049 text} in {@code
 * warnings/MaybeOutOfBounds.java}; the class compiles.
 */
class BoundsWarningsTest {
  @Test
  void eachWarningIsOnItsLineAndNoOther() throws Exception {
    MarkedDiagnostics.check("warnings/MaybeOutOfBounds.java", Diagnostic.Kind.WARNING, "KILN049");
  }
}
