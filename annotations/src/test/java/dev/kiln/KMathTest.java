package dev.kiln;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class KMathTest {
  @Test
  void erfMatchesKnownValues() {
    // Values from Abramowitz and Stegun, table 7.1, and erf(x) = 1 - erfc(x) for large x.
    assertEquals(0.0, KMath.erf(0.0), 0.0);
    assertEquals(0.1124629160182849, KMath.erf(0.1), 1e-15);
    assertEquals(0.5204998778130465, KMath.erf(0.5), 1e-15);
    assertEquals(0.8427007929497149, KMath.erf(1.0), 1e-15);
    assertEquals(0.9953222650189527, KMath.erf(2.0), 1e-15);
    assertEquals(0.9999779095030014, KMath.erf(3.0), 1e-15);
    assertEquals(1.0 - 1.5374597944280349e-12, KMath.erf(5.0), 1e-15);
    assertEquals(-0.8427007929497149, KMath.erf(-1.0), 1e-15);
    assertEquals(1.0, KMath.erf(10.0), 0.0);
  }

  @Test
  void erfIsContinuousAcrossItsBranches() {
    assertEquals(KMath.erf(2.4999999), KMath.erf(2.5000001), 1e-9);
  }

  @Test
  void floatOverloadsAreWithinTheirStatedErrors() {
    assertEquals((float) Math.exp((double) 0.3f), KMath.exp(0.3f), Math.ulp(1.35f));
    assertEquals((float) (1 / (1 + Math.exp(-0.7f))), KMath.sigmoid(0.7f), 2.41 * Math.ulp(0.668f));
    assertEquals(0.5f, KMath.rsqrt(4f), 0f); // rsqrt still rounds its double result
  }
}
