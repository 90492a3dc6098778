package dev.kiln.runtime.cpu;

/**
 * The last step of a sum that a generated CPU kernel keeps in sixteen partial sums (a derived
 * gradient's adjoint sums, whose order no source fixes): the partials combined in one fixed tree,
 * so that the scalar kernel and the SIMD kernels of every vector width give the same floats.
 */
public final class UnorderedSums {
  private UnorderedSums() {}

  /** How many partial sums a kernel keeps. */
  public static final int PARTS = 16;

  /**
   * {@code parts}' sum: partial {@code j} and {@code j + 8} added, then {@code j} and {@code j + 4},
   * then {@code j} and {@code j + 2}, then the two left.
   */
  public static float total(float[] parts) {
    float a0 = parts[0] + parts[8];
    float a1 = parts[1] + parts[9];
    float a2 = parts[2] + parts[10];
    float a3 = parts[3] + parts[11];
    float a4 = parts[4] + parts[12];
    float a5 = parts[5] + parts[13];
    float a6 = parts[6] + parts[14];
    float a7 = parts[7] + parts[15];
    float b0 = a0 + a4;
    float b1 = a1 + a5;
    float b2 = a2 + a6;
    float b3 = a3 + a7;
    float c0 = b0 + b2;
    float c1 = b1 + b3;
    return c0 + c1;
  }

  /**
   * How many vectors of {@code lanes} floats hold the sixteen partials (16 / lanes), for the vector
   * widths Kiln's SIMD kernels are written for (4, 8 or 16 floats); 0 for any other.
   */
  public static int vectors(int lanes) {
    return lanes == 4 || lanes == 8 || lanes == 16 ? PARTS / lanes : 0;
  }
}
