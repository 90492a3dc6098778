package dev.kiln.processor.codegen.cpu;

import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.FLOAT_VECTOR;
import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.SPECIES;
import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.VECTOR_OPERATORS;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import dev.kiln.processor.codegen.Names;

/**
 * Writes {@code KRandom.uniform(seed, stream, index)} and {@code KRandom.normal} for the consecutive
 * indices of a vector's lanes as statements in the kernel, bit for bit: Philox4x32-10 of counter
 * {@code (index, stream, 0, 0)} under key {@code (seed, 0)} (uniform: its first word's top 24 bits
 * times 2^-24) or {@code (seed, 1)} (normal: Box and Muller on two words). The 32-bit words are
 * held unsigned in the lanes of {@code LongVector}s (a 32 x 32 multiplication's 64-bit product in
 * one lane, its high word a shift away), so a vector of {@code n} floats is two long vectors of
 * {@code n / 2} lanes, each through the ten rounds; the two halves' top 24 bits are put side by side
 * in one int vector of the float vector's shape. Written out, not called, for the reason {@link
 * VectorMathCode} gives (a vector returned by a method C2 did not inline is boxed). Tested against
 * {@code KRandom} through the kernels that draw ({@code RandomOpsTest}, {@code CpuRandomBitsTest}).
 */
final class VectorRandomCode extends VectorStatements {
  static final ClassName LONG_VECTOR = ClassName.get("jdk.incubator.vector", "LongVector");
  private static final TypeName LONG_SPECIES =
      ParameterizedTypeName.get(SimdKernelWriter.VECTOR_SPECIES, TypeName.LONG.box());

  /** Philox's multipliers and Weyl key increments, as in {@code KRandom}. */
  private static final long M0 = 0xD2511F53L;
  private static final long M1 = 0xCD9E8D57L;
  private static final int W0 = 0x9E3779B9;
  private static final int W1 = 0xBB67AE85;
  private static final int ROUNDS = 10;
  private static final long MASK = 0xFFFF_FFFFL;

  VectorRandomCode(CodeBlock.Builder out, Names names) {
    super(out, names);
  }

  /**
   * Writes the uniform floats for indices {@code first, first + 1, ...} (one a lane); {@code seed},
   * {@code stream} and {@code first} are int expressions. Returns the float vector's name.
   */
  String uniform(CodeBlock seed, CodeBlock stream, CodeBlock first) {
    String[][] words = philox(seed, stream, first, 0);
    String w0 = top24(words[0][0], words[1][0]);
    return vec("uniform", "(($T) $N.convert($T.I2F, 0)).mul(0x1.0p-24f)", FLOAT_VECTOR, w0, VECTOR_OPERATORS);
  }

  /**
   * Writes {@code KRandom.normal} for indices {@code first, first + 1, ...}: Box and Muller on the
   * first two words under key {@code (seed, 1)}, {@code sqrt(-2 logUnit(u1)) cosTurn(k)} with {@code
   * KRandom}'s own float logarithm and cosine, every step as there (a fused multiply-add where it
   * calls {@code Math.fma}; {@code Math.sqrt} of a float rounded back to float is the vector's float
   * square root, both correctly rounded). Returns the float vector's name.
   */
  String normal(CodeBlock seed, CodeBlock stream, CodeBlock first) {
    String[][] words = philox(seed, stream, first, 1);
    String w0 = top24(words[0][0], words[1][0]);
    String w1 = top24(words[0][1], words[1][1]);
    String u1 = vec("u1", "(($T) $N.add(1).convert($T.I2F, 0)).mul(0x1.0p-24f)", FLOAT_VECTOR, w0, VECTOR_OPERATORS);
    String radius = vec("radius", "$N.mul(-2f).sqrt()", logUnit(u1));
    return vec("normal", "$N.mul($N)", radius, cosTurn(w1));
  }

  /** KRandom.logUnit over the lanes (u in (0, 1], a normal float). */
  private String logUnit(String u) {
    String bits = ints("bits", "$N.reinterpretAsInts()", u);
    String e0 = ints("logE", "$N.lanewise($T.LSHR, 23).sub(126)", bits, VECTOR_OPERATORS);
    String m = vec("logM", "$N.and(0x007F_FFFF).or(0x3F00_0000).reinterpretAsFloats()", bits);
    String small = mask("logSmall", "$N.lt(0.70710677f)", m);
    String e = ints("logE", "$N.sub(1, $N.cast($T.SPECIES_PREFERRED))", e0, small, INT_VECTOR);
    String x = vec("logX", "$N.sub(1f).blend($N.add($N).sub(1f), $N)", m, m, m, small);
    String z = vec("logZ", "$N.mul($N)", x, x);
    String y = horner("logY", x, "7.0376836292E-2", "-1.1514610310E-1", "1.1676998740E-1", "-1.2420140846E-1",
        "1.4249322787E-1", "-1.6668057665E-1", "2.0000714765E-1", "-2.4999993993E-1", "3.3333331174E-1");
    y = vec("logY", "$N.mul($N).mul($N)", y, x, z);
    String fe = vec("logFe", "($T) $N.convert($T.I2F, 0)", FLOAT_VECTOR, e, VECTOR_OPERATORS);
    y = vec("logY", "$N.fma($T.broadcast($N, -2.12194440e-4f), $N)", fe, FLOAT_VECTOR, SPECIES, y);
    y = vec("logY", "$N.fma($T.broadcast($N, -0.5f), $N)", z, FLOAT_VECTOR, SPECIES, y);
    return vec("log", "$N.fma($T.broadcast($N, 0.693359375f), $N.add($N))", fe, FLOAT_VECTOR, SPECIES, x, y);
  }

  /** KRandom.cosTurn over the lanes: cos(2 pi k / 2^24) for k in [0, 2^24). */
  private String cosTurn(String k) {
    String quarter = ints("quarter", "$N.lanewise($T.LSHR, 22)", k, VECTOR_OPERATORS);
    String t = vec("turnT", "(($T) $N.and(0x3F_FFFF).convert($T.I2F, 0)).mul(0x1.0p-22f)", FLOAT_VECTOR, k,
        VECTOR_OPERATORS);
    String z = vec("turnZ", "$N.mul($N)", t, t);
    String c = horner("turnC", z, "-2.3848322598496452e-05", "0.0009177866159006953", "-0.020862746983766556",
        "0.2536693513393402", "-1.2337005138397217", "1");
    String s = horner("turnS", z, "-3.434721293160692e-06", "0.0001602623233338818", "-0.004681664984673262",
        "0.07969260960817337", "-0.6459640860557556", "1.5707963705062866");
    s = vec("turnS", "$N.mul($N)", s, t);
    String out1 = vec("cos", "$N.blend($N.neg(), $N.eq(1).cast($N))", c, s, quarter, SPECIES);
    String out2 = vec("cos", "$N.blend($N.neg(), $N.eq(2).cast($N))", out1, c, quarter, SPECIES);
    return vec("cos", "$N.blend($N, $N.eq(3).cast($N))", out2, s, quarter, SPECIES);
  }

  /**
   * Philox4x32-10 of counters {@code (first + lane, stream, 0, 0)} under key {@code (seed, key1)}, for
   * the two halves of a float vector: per half, the names of the long vectors holding words 0 and 1.
   */
  private String[][] philox(CodeBlock seed, CodeBlock stream, CodeBlock first, int key1) {
    String s = declare(TypeName.INT, "seed", "$L", seed);
    String at = declare(TypeName.INT, "first", "$L", first);
    String species = declare(LONG_SPECIES, "longSpecies", "$T.SPECIES_PREFERRED", LONG_VECTOR);
    String c1 = longs("stream", "$T.broadcast($N, ($L) & $LL)", LONG_VECTOR, species, stream, MASK);
    String[][] words = new String[2][];
    for (int part = 0; part < 2; part++) {
      String c0 = longs("c0", "$T.broadcast($N, (long) ($N + $L * $N.length())).addIndex(1).and($LL)", LONG_VECTOR,
          species, at, part, species, MASK);
      String c1v = c1;
      String c2 = null;
      String c3 = null;
      for (int r = 0; r < ROUNDS; r++) {
        // the round keys: seed + r W0 and key1 + r W1, wrapping as ints, read unsigned
        CodeBlock k0 = CodeBlock.of("(($N + $L) & $LL)", s, r * W0, MASK);
        long k1 = (key1 + r * W1) & MASK;
        String p0 = longs("p0", "$N.mul($LL)", c0, M0);
        String n0;
        String n1;
        String n2;
        if (c2 == null) {
          // the counter's last two words are 0: the second product is 0
          n0 = longs("c0", "$N.lanewise($T.XOR, $L)", c1v, VECTOR_OPERATORS, k0);
          n1 = longs("c1", "$T.zero($N)", LONG_VECTOR, species);
          n2 = longs("c2", "$N.lanewise($T.LSHR, 32).lanewise($T.XOR, $LL)", p0, VECTOR_OPERATORS, VECTOR_OPERATORS, k1);
        } else {
          String p1 = longs("p1", "$N.mul($LL)", c2, M1);
          n0 = longs("c0", "$N.lanewise($T.LSHR, 32).lanewise($T.XOR, $N).lanewise($T.XOR, $L)", p1, VECTOR_OPERATORS,
              VECTOR_OPERATORS, c1v, VECTOR_OPERATORS, k0);
          n1 = longs("c1", "$N.and($LL)", p1, MASK);
          n2 = longs("c2", "$N.lanewise($T.LSHR, 32).lanewise($T.XOR, $N).lanewise($T.XOR, $LL)", p0, VECTOR_OPERATORS,
              VECTOR_OPERATORS, c3, VECTOR_OPERATORS, k1);
        }
        c3 = longs("c3", "$N.and($LL)", p0, MASK);
        c0 = n0;
        c1v = n1;
        c2 = n2;
      }
      words[part] = new String[] {c0, c1v};
    }
    return words;
  }

  private String longs(String base, String format, Object... args) {
    return declare(LONG_VECTOR, base, format, args);
  }


  /**
   * The top 24 bits of a word (its two halves' long vectors) as one int vector of the float
   * vector's shape: the first half's lanes in [0, n/2), the second's in [n/2, n).
   */
  private String top24(String lo, String hi) {
    // IntVector's preferred species has the float species' shape (both preferred), and is a constant
    return ints("top24", "(($T) $N.lanewise($T.LSHR, 8).convertShape($T.L2I, $T.SPECIES_PREFERRED, 0))"
        + ".add(($T) $N.lanewise($T.LSHR, 8).convertShape($T.L2I, $T.SPECIES_PREFERRED, -1))", INT_VECTOR, lo,
        VECTOR_OPERATORS, VECTOR_OPERATORS, INT_VECTOR, INT_VECTOR, hi, VECTOR_OPERATORS, VECTOR_OPERATORS, INT_VECTOR);
  }
}
