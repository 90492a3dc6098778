package dev.kiln.runtime.cpu;

/** The associative operators a {@code @Reduce} output accumulates with. */
public enum ReduceOp {
  SUM,
  PRODUCT,
  MAX,
  MIN;

  /** The identity of the operation: for a sum {@code -0.0}, since {@code -0.0 + x == x} for every x, -0.0 included. */
  public float identityFloat() {
    switch (this) {
      case SUM: return -0f;
      case PRODUCT: return 1f;
      case MAX: return Float.NEGATIVE_INFINITY;
      default: return Float.POSITIVE_INFINITY;
    }
  }

  /** The identity of the operation: for a sum {@code -0.0} (see {@link #identityFloat}). */
  public double identityDouble() {
    switch (this) {
      case SUM: return -0.0;
      case PRODUCT: return 1.0;
      case MAX: return Double.NEGATIVE_INFINITY;
      default: return Double.POSITIVE_INFINITY;
    }
  }

  public int identityInt() {
    switch (this) {
      case SUM: return 0;
      case PRODUCT: return 1;
      case MAX: return Integer.MIN_VALUE;
      default: return Integer.MAX_VALUE;
    }
  }

  public long identityLong() {
    switch (this) {
      case SUM: return 0L;
      case PRODUCT: return 1L;
      case MAX: return Long.MIN_VALUE;
      default: return Long.MAX_VALUE;
    }
  }

  public long combine(long a, long b) {
    switch (this) {
      case SUM: return a + b;
      case PRODUCT: return a * b;
      case MAX: return Math.max(a, b);
      default: return Math.min(a, b);
    }
  }

  public float combine(float a, float b) {
    switch (this) {
      case SUM: return a + b;
      case PRODUCT: return a * b;
      case MAX: return Math.max(a, b);
      default: return Math.min(a, b);
    }
  }

  public double combine(double a, double b) {
    switch (this) {
      case SUM: return a + b;
      case PRODUCT: return a * b;
      case MAX: return Math.max(a, b);
      default: return Math.min(a, b);
    }
  }

  public int combine(int a, int b) {
    switch (this) {
      case SUM: return a + b;
      case PRODUCT: return a * b;
      case MAX: return Math.max(a, b);
      default: return Math.min(a, b);
    }
  }
}
