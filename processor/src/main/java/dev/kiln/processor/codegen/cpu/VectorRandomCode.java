package dev.kiln.processor.codegen.cpu;

import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.FLOAT_VECTOR;
import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.SPECIES;
import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.VECTOR_OPERATORS;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.codegen.Names;

/**
 * Writes {@code KRandom.uniform(seed, stream, index)} for the consecutive indices of a vector's
 * lanes as statements in the kernel, bit for bit: Philox4x32-10 of counter {@code (index, stream, 0,
 * 0)} under key {@code (seed, 0)}, its first word's top 24 bits times 2^-24. The 32-bit words are
 * held unsigned in the lanes of {@code LongVector}s (a 32 x 32 multiplication's 64-bit product in
 * one lane, its high word a shift away), so a vector of {@code n} floats is two long vectors of
 * {@code n / 2} lanes, each through the ten rounds; the two halves' floats (below 2^24, exact) are
 * put side by side in one float vector. Written out, not called, for the reason {@link
 * VectorMathCode} gives (a vector returned by a method C2 did not inline is boxed). Tested against
 * {@code KRandom} through the kernels that draw ({@code RandomOpsTest}, {@code CpuRandomBitsTest}).
 */
final class VectorRandomCode {
  static final ClassName LONG_VECTOR = ClassName.get("jdk.incubator.vector", "LongVector");

  /** Philox's multipliers and Weyl key increments, as in {@code KRandom}. */
  private static final long M0 = 0xD2511F53L;
  private static final long M1 = 0xCD9E8D57L;
  private static final int W0 = 0x9E3779B9;
  private static final int W1 = 0xBB67AE85;
  private static final int ROUNDS = 10;
  private static final long MASK = 0xFFFF_FFFFL;

  private final CodeBlock.Builder out;
  private final Names names;

  VectorRandomCode(CodeBlock.Builder out, Names names) {
    this.out = out;
    this.names = names;
  }

  /**
   * Writes the uniform floats for indices {@code first, first + 1, ...} (one a lane); {@code seed},
   * {@code stream} and {@code first} are int expressions. Returns the float vector's name.
   */
  String uniform(CodeBlock seed, CodeBlock stream, CodeBlock first) {
    String s = names.fresh("seed");
    String c1 = names.fresh("stream");
    String at = names.fresh("first");
    String longs = names.fresh("longSpecies");
    out.addStatement("final int $N = $L", s, seed);
    out.addStatement("final $T $N = $T.broadcast($T.SPECIES_PREFERRED, ($L) & $LL)", LONG_VECTOR, c1, LONG_VECTOR,
        LONG_VECTOR, stream, MASK);
    out.addStatement("final int $N = $L", at, first);
    out.addStatement("final var $N = $T.SPECIES_PREFERRED", longs, LONG_VECTOR);
    String[] halves = new String[2];
    for (int part = 0; part < 2; part++) {
      String c0 = names.fresh("c0");
      out.addStatement("$T $N = $T.broadcast($N, (long) ($N + $L * $N.length())).addIndex(1).and($LL)", LONG_VECTOR, c0,
          LONG_VECTOR, longs, at, part, longs, MASK);
      String c1v = c1;
      String c2 = null;
      String c3 = null;
      for (int r = 0; r < ROUNDS; r++) {
        // the round keys: seed + r W0 and r W1, wrapping as ints, read unsigned
        CodeBlock k0 = CodeBlock.of("(($N + $L) & $LL)", s, r * W0, MASK);
        long k1 = (r * W1) & MASK;
        String p0 = names.fresh("p0");
        out.addStatement("final $T $N = $N.mul($LL)", LONG_VECTOR, p0, c0, M0);
        String n0 = names.fresh("c0");
        String n1 = names.fresh("c1");
        String n2 = names.fresh("c2");
        String n3 = names.fresh("c3");
        if (c2 == null) {
          // the counter's last two words are 0: the second product is 0
          out.addStatement("final $T $N = $N.lanewise($T.XOR, $L)", LONG_VECTOR, n0, c1v, VECTOR_OPERATORS, k0);
          out.addStatement("final $T $N = $T.zero($N)", LONG_VECTOR, n1, LONG_VECTOR, longs);
          out.addStatement("final $T $N = $N.lanewise($T.LSHR, 32).lanewise($T.XOR, $LL)", LONG_VECTOR, n2, p0,
              VECTOR_OPERATORS, VECTOR_OPERATORS, k1);
        } else {
          String p1 = names.fresh("p1");
          out.addStatement("final $T $N = $N.mul($LL)", LONG_VECTOR, p1, c2, M1);
          out.addStatement("final $T $N = $N.lanewise($T.LSHR, 32).lanewise($T.XOR, $N).lanewise($T.XOR, $L)",
              LONG_VECTOR, n0, p1, VECTOR_OPERATORS, VECTOR_OPERATORS, c1v, VECTOR_OPERATORS, k0);
          out.addStatement("final $T $N = $N.and($LL)", LONG_VECTOR, n1, p1, MASK);
          out.addStatement("final $T $N = $N.lanewise($T.LSHR, 32).lanewise($T.XOR, $N).lanewise($T.XOR, $LL)",
              LONG_VECTOR, n2, p0, VECTOR_OPERATORS, VECTOR_OPERATORS, c3, VECTOR_OPERATORS, k1);
        }
        out.addStatement("final $T $N = $N.and($LL)", LONG_VECTOR, n3, p0, MASK);
        c0 = n0;
        c1v = n1;
        c2 = n2;
        c3 = n3;
      }
      // word 0's top 24 bits as floats, in lanes [0, n/2) of the float vector or in [n/2, n)
      String half = names.fresh("uniformHalf");
      out.addStatement("final $T $N = ($T) $N.lanewise($T.LSHR, 8).convertShape($T.L2F, $N, $L)", FLOAT_VECTOR, half,
          FLOAT_VECTOR, c0, VECTOR_OPERATORS, VECTOR_OPERATORS, SPECIES, part == 0 ? 0 : -1);
      halves[part] = half;
    }
    String u = names.fresh("uniform");
    out.addStatement("final $T $N = $N.add($N).mul(0x1.0p-24f)", FLOAT_VECTOR, u, halves[0], halves[1]);
    return u;
  }
}
