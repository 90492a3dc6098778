package dev.kiln.tests.grad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.gradients.HandGradients;
import dev.kiln.tests.gradients.HandGradientsKernels;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Hand-written gradients replace derived ones, and agree with the derived gradients of their twins. */
class HandWrittenGradientTest {
  private static final int N = 301;

  @Test
  void elementwiseHandWrittenAndDerivedAgree() {
    SplittableRandom r = new SplittableRandom(7);
    for (int k = 0; k < 200; k++) {
      float x = (float) r.nextDouble(-6, 6);
      float dy = (float) r.nextDouble(-1, 1);
      float hand = HandGradientsKernels.softplusGrad(x, HandGradients.softplus(x), dy);
      assertEquals(HandGradients.softplusBackward(x, HandGradients.softplus(x), dy), hand, 0f, "softplusGrad calls the hand-written one");
      float derived = HandGradientsKernels.softplusDerivedGrad(x, HandGradients.softplusDerived(x), dy);
      assertEquals(hand, derived, 1e-6f + 1e-5f * Math.abs(hand), "at x = " + x);
    }
  }

  @Test
  void gridHandWrittenAndDerivedAgree() {
    float[] x = random(1);
    float[] dy = random(2);
    float[] y = new float[N];
    HandGradients.cube(N, x, y);
    float[] hand = new float[N];
    float[] derived = new float[N];
    HandGradientsKernels.cubeGrad(N, x, y, dy, hand);
    HandGradientsKernels.cubeDerivedGrad(N, x, y, dy, derived);
    Agreement.assertClose(hand, derived, 1e-6, 1e-6);
  }

  @Test
  void compositeBackwardUsesTheHandWrittenGradient() throws IOException {
    float[] x = random(3);
    float[] dy = random(4);
    float[] y = new float[N];
    HandGradients.cubeTwice(N, x, y);
    float[] hand = new float[N];
    float[] derived = new float[N];
    HandGradientsKernels.cubeTwiceGrad(N, x, y, dy, hand);
    HandGradientsKernels.cubeTwiceDerivedGrad(N, x, y, dy, derived);
    Agreement.assertClose(hand, derived, 1e-5, 1e-6);
    String listing = resource("META-INF/kiln/dev/kiln/tests/gradients/HandGradients.gradients.ir.txt");
    String hand2 = listing.substring(listing.indexOf("composite cubeTwiceGrad("), listing.indexOf("composite cubeTwiceDerivedGrad("));
    assertTrue(hand2.contains("= cubeGrad("), "cubeTwiceGrad calls the hand-written cubeGrad:\n" + hand2);
    assertFalse(hand2.contains("cube$adjoint"), "and derives no gradient of cube:\n" + hand2);
    assertFalse(listing.contains("composite cubeGrad("), "cube's gradient is not derived:\n" + listing);
  }

  private static float[] random(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    float[] a = new float[N];
    for (int i = 0; i < N; i++) {
      a[i] = (float) r.nextDouble(-1.5, 1.5);
    }
    return a;
  }

  private static String resource(String path) throws IOException {
    try (InputStream in = HandWrittenGradientTest.class.getClassLoader().getResourceAsStream(path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
