package dev.kiln.tests.grad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.kiln.tests.gradients.Gradients;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The shape of the input gradient of PlaidML's strided, dilated convolution ({@link
 * Gradients#conv2dStridedLevels}: stride 3, dilation 2), read from the generated listing {@code
 * META-INF/kiln/dev/kiln/tests/gradients/Gradients.gradients.ir.txt}. Whether the values are right is
 * {@link GradientCheckTest}'s job; this pins how they are computed: a gather, never a scatter.
 *
 * <p>What the listing shows ({@code conv2dStridedLevelsGrad}, two kernels):
 *
 * <ol>
 *   <li>{@code _k0}, over dx's grid {@code [CI, 3*OH + 2*KH - 4, 3*OW + 2*KW - 4]}: the gather. The
 *       read {@code x[ci, 3 oh + 2 kh, 3 ow + 2 kw]} is inverted per dimension: {@code ci} is the
 *       worker's own, {@code oh = (j1 - 2 kh) / 3} and {@code ow = (j2 - 2 kw) / 3} are solved where
 *       the remainders are 0 and the quotients in range, and the worker loops over {@code co, kh,
 *       kw}. The adjoint of each forward read, {@code dy[co, oh, ow] * k[co, ci, kh, kw]}, has its
 *       own loop-free kernel over {@code [CO, OH, OW, CI, KH, KW]}, which the merger recomputes
 *       here instead of storing it. Positions that no window reaches get 0.
 *   <li>{@code _k1}, over dk's grid {@code [CO, CI, KH, KW]}: the same for {@code dy * x[...]},
 *       summed over {@code oh, ow}, solved exactly.
 * </ol>
 *
 * <p>Each gradient element is written by exactly one worker, so no kernel needs atomics; Kiln
 * never emits them, and this test pins that for the whole listing and the class's CUDA source.
 */
class StridedConvGatherTest {
  private static final String PACKAGE = "META-INF/kiln/dev/kiln/tests/gradients/";

  static String resource(String name) throws IOException {
    try (InputStream in = Gradients.class.getClassLoader().getResourceAsStream(PACKAGE + name)) {
      assertNotNull(in, PACKAGE + name + " is not on the class path");
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** The {@code operator <prefix>...} blocks of the listing, each up to the next blank line. */
  static List<String> operators(String listing, String prefix) {
    List<String> out = new ArrayList<>();
    for (String block : listing.split("\n\\s*\n")) {
      int at = block.indexOf("operator " + prefix);
      if (at >= 0) {
        out.add(block.substring(at));
      }
    }
    return out;
  }

  /** The one kernel of {@code gradient} that stores into {@code array}. */
  static String kernelStoring(String listing, String gradient, String array) {
    List<String> found = new ArrayList<>();
    for (String k : operators(listing, gradient + "_k")) {
      if (k.contains("store " + array + "[")) {
        found.add(k);
      }
    }
    if (found.size() != 1) {
      fail(found.size() + " kernels of " + gradient + " store " + array + " (expected one):\n" + String.join("\n\n", found));
    }
    return found.get(0);
  }

  @Test
  void inputGradientIsAGatherOverTheKernelWindowWithAnExactnessGuard() throws IOException {
    String listing = resource("Gradients.gradients.ir.txt");
    String dx = kernelStoring(listing, "conv2dStridedLevelsGrad", "dx");
    assertEquals(1, count(dx, "\\bstore "), "the gather stores dx and nothing else:\n" + dx);
    assertEquals(3, count(dx, "(?m)^\\s*parallel "), "one worker per element of dx [CI, H, W]:\n" + dx);
    assertTrue(Pattern.compile("(?m)^\\s*parallel \\w+ < CI$").matcher(dx).find(), "the first grid dimension is CI:\n" + dx);
    assertTrue(Pattern.compile("(?m)^\\s*loop kh\\w* in \\[0, KH\\)").matcher(dx).find(), "a loop over the window's rows:\n" + dx);
    assertTrue(Pattern.compile("(?m)^\\s*loop kw\\w* in \\[0, KW\\)").matcher(dx).find(), "a loop over the window's columns:\n" + dx);

    // the exactness guard: (j - rest) rem 3 == 0, guarding the load of the adjoint temporary
    Matcher rem = Pattern.compile("(?m)^\\s*(%\\d+) = rem i32 (%\\d+), 3$").matcher(dx);
    assertTrue(rem.find(), "a rem by the stride 3:\n" + dx);
    Matcher div = Pattern.compile("(?m)^\\s*%\\d+ = div i32 " + Pattern.quote(rem.group(2)) + ", 3$").matcher(dx);
    assertTrue(div.find(), "the solved index is the quotient of the same difference by 3:\n" + dx);
    Matcher exact = Pattern.compile("(?m)^\\s*(%\\d+) = eq i32 " + Pattern.quote(rem.group(1)) + ", 0$").matcher(dx);
    assertTrue(exact.find(), "the remainder is compared with 0:\n" + dx);
    // the adjoint of each read is recomputed in the gather (its flat kernel is inlined): dy and the
    // kernel are read under the exactness guard, and no adjoint temporary is stored or read
    assertTrue(Pattern.compile("(?m)^\\s*%\\d+ = load dy\\[[^\\]]*\\] if %\\d+$").matcher(dx).find(),
        "dy is read only under the guard:\n" + dx);
    assertFalse(dx.contains("adj$"), "no adjoint temporary:\n" + dx);
  }

  @Test
  void kernelGradientSumsOverTheOutputPositions() throws IOException {
    String listing = resource("Gradients.gradients.ir.txt");
    String dk = kernelStoring(listing, "conv2dStridedLevelsGrad", "dk");
    assertEquals(4, count(dk, "(?m)^\\s*parallel "), "one worker per element of dk [CO, CI, KH, KW]:\n" + dk);
    assertTrue(Pattern.compile("(?m)^\\s*loop oh\\w* in \\[0, OH\\)").matcher(dk).find(), "a loop over oh:\n" + dk);
    assertTrue(Pattern.compile("(?m)^\\s*loop ow\\w* in \\[0, OW\\)").matcher(dk).find(), "a loop over ow:\n" + dk);
    assertFalse(dk.contains(" rem "), "dk's index is solved exactly, without a remainder:\n" + dk);
  }

  /** The max pool's input gradient is a gather with the pool's stride, 2, as its exactness guard. */
  @Test
  void maxPoolGradientIsAGatherWithItsStride() throws IOException {
    String dx = kernelStoring(resource("Gradients.gradients.ir.txt"), "maxPool3s2RowsGrad", "dx");
    assertTrue(Pattern.compile("(?m)^\\s*%\\d+ = rem i32 %\\d+, 2$").matcher(dx).find(), "a rem by the stride 2:\n" + dx);
    assertEquals(1, count(dx, "\\bstore "), "the gather stores dx and nothing else:\n" + dx);
  }

  @Test
  void noAtomics() throws IOException {
    for (String name : List.of("Gradients.gradients.ir.txt", "Gradients.ir.txt", "Gradients.cu")) {
      String text = resource(name);
      int at = text.toLowerCase(Locale.ROOT).indexOf("atomic");
      if (at >= 0) {
        int line = text.substring(0, at).split("\n", -1).length;
        fail(name + " line " + line + " mentions an atomic operation: "
            + text.substring(text.lastIndexOf('\n', at) + 1, Math.max(at, text.indexOf('\n', at))));
      }
    }
    assertTrue(resource("Gradients.cu").contains("conv2dStridedLevelsGrad_k1"), "the CUDA source holds the gather kernel");
  }

  /** Where nvcc ran, the PTX has no atomic ({@code atom.}) or reduction-to-memory ({@code red.}) instruction. */
  @Test
  void noAtomicInstructionsInThePtx() throws IOException {
    String name = PACKAGE + "Gradients.ptx";
    try (InputStream in = Gradients.class.getClassLoader().getResourceAsStream(name)) {
      Assumptions.assumeTrue(in != null, "no PTX (nvcc was not found at build time)");
      String ptx = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(ptx.contains("conv2dStridedLevelsGrad_k1"), "the PTX holds the gather kernel");
      Matcher m = Pattern.compile("(?m)^\\s*(atom|red)\\.\\S*").matcher(ptx);
      if (m.find()) {
        fail(name + " has the instruction " + m.group());
      }
    }
  }

  private static int count(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }
}
