package dev.kiln.tests;

import static dev.kiln.testing.Agreement.FLOAT_ABS;
import static dev.kiln.testing.Agreement.FLOAT_REL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.ops.Lstm;
import dev.kiln.tests.ops.LstmKernels;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The LSTM cell of DESIGN.md: plain Java against the generated kernel. */
class LstmTest {
  @ParameterizedTest(name = "B={0}, H={1}, forgetBias={2}")
  @CsvSource({
    "1, 1, 1",
    "2, 3, 1",
    "3, 5, 0",
    "0, 4, 1",
    "4, 0, 1",
    "7, 129, -0.5",
    "64, 300, 1",
    "300, 64, 1"
  })
  void lstmCell(int batch, int hidden, float forgetBias) {
    float[] gates = Data.floats(41, batch * 4 * hidden, -4f, 4f);
    float[] c = Data.floats(42, batch * hidden, -2f, 2f);
    float[] gatesBefore = gates.clone();
    float[] cBefore = c.clone();

    float[] cExpected = Data.filled(batch * hidden, Float.NaN);
    float[] hExpected = Data.filled(batch * hidden, Float.NaN);
    Lstm.lstmCell(batch, hidden, gates, c, forgetBias, cExpected, hExpected);

    float[] cActual = Data.filled(batch * hidden, Float.NaN);
    float[] hActual = Data.filled(batch * hidden, Float.NaN);
    LstmKernels.lstmCell(batch, hidden, gates, c, forgetBias, cActual, hActual);

    Agreement.assertClose(cExpected, cActual, FLOAT_REL, FLOAT_ABS);
    Agreement.assertClose(hExpected, hActual, FLOAT_REL, FLOAT_ABS);
    assertArrayEquals(gatesBefore, gates, "the kernel modified gates");
    assertArrayEquals(cBefore, c, "the kernel modified c");
  }
}
