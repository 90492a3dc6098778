package dev.kiln;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class KRandomTest {
  /** Random123's known-answer vectors for philox4x32 with 10 rounds (kat_vectors). */
  @Test
  void philoxMatchesThePublishedKnownAnswers() {
    assertArrayEquals(new int[] {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
        KRandom.philox4x32(0, 0, 0, 0, 0, 0));
    assertArrayEquals(new int[] {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
        KRandom.philox4x32(-1, -1, -1, -1, -1, -1));
    assertArrayEquals(new int[] {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1},
        KRandom.philox4x32(0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0));
  }

  @Test
  void uniformIsTheFirstWordsTop24BitsOfCounterIndexStreamUnderKeySeed() {
    int word = KRandom.philox4x32(12345, 7, 0, 0, 42, 0)[0];
    assertEquals((word >>> 8) * 0x1.0p-24f, KRandom.uniform(42, 7, 12345));
    assertEquals((0x6627e8d5 >>> 8) * 0x1.0p-24f, KRandom.uniform(0, 0, 0));
  }

  @Test
  void uniformIsInTheUnitIntervalAndEvenlySpread() {
    int bins = 16;
    int n = 1 << 20;
    long[] count = new long[bins];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      float u = KRandom.uniform(2026, 3, i);
      assertTrue(u >= 0f && u < 1f, "uniform " + u + " at " + i);
      count[(int) (u * bins)]++;
      sum += u;
    }
    double expected = (double) n / bins;
    double chi2 = 0;
    for (long c : count) {
      chi2 += (c - expected) * (c - expected) / expected;
    }
    // 15 degrees of freedom: P(chi2 > 37.7) = 0.001
    assertTrue(chi2 < 37.7, "chi-square " + chi2 + " over " + bins + " bins");
    assertEquals(0.5, sum / n, 0.002);
  }

  @Test
  void normalHasMeanZeroVarianceOneAndNormalTails() {
    int n = 1 << 21;
    double sum = 0;
    double squares = 0;
    int beyondTwo = 0;
    for (int i = 0; i < n; i++) {
      float z = KRandom.normal(2026, 5, i);
      assertTrue(Float.isFinite(z) && Math.abs(z) < 5.8f, "normal " + z + " at " + i);
      sum += z;
      squares += (double) z * z;
      beyondTwo += Math.abs(z) > 2f ? 1 : 0;
    }
    double mean = sum / n;
    assertEquals(0, mean, 5 * Math.sqrt(1.0 / n)); // five standard errors
    assertEquals(1, squares / n - mean * mean, 0.005);
    assertEquals(0.0455, beyondTwo / (double) n, 0.001); // P(|Z| > 2) = 0.0455
    assertNotEquals(KRandom.normal(1, 0, 0), KRandom.normal(1, 0, 1));
  }

  /** The logarithm and cosine behind {@link KRandom#normal}, on every argument it passes them. */
  @Test
  void normalsLogarithmAndCosineAreAccurateOnTheirWholeDomain() {
    double worstLog = 0;
    for (int j = 1; j <= 1 << 24; j++) {
      float u = j * 0x1.0p-24f;
      double ref = Math.log(u);
      float got = KRandom.logUnit(u);
      if (ref == 0) {
        assertEquals(0f, got);
        continue;
      }
      float rounded = (float) ref;
      double ulp = Math.min(Math.ulp(rounded), Math.ulp(Math.nextDown(Math.abs(rounded))));
      worstLog = Math.max(worstLog, Math.abs(got - ref) / ulp);
    }
    assertTrue(worstLog <= 1.0, "log: " + worstLog + " ulp");
    double worstCos = 0;
    for (int k = 0; k < 1 << 24; k++) {
      worstCos = Math.max(worstCos, Math.abs(KRandom.cosTurn(k) - Math.cos(2 * Math.PI * k / (double) (1 << 24))));
    }
    assertTrue(worstCos <= 2e-7, "cos: " + worstCos);
  }

  @Test
  void seedsStreamsAndIndicesGiveDifferentNumbers() {
    float u = KRandom.uniform(1, 0, 0);
    assertNotEquals(u, KRandom.uniform(2, 0, 0));
    assertNotEquals(u, KRandom.uniform(1, 1, 0));
    assertNotEquals(u, KRandom.uniform(1, 0, 1));
    assertEquals(u, KRandom.uniform(1, 0, 0));
  }
}
