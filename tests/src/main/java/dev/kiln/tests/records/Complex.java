package dev.kiln.tests.records;

/** A complex number of floats: arithmetic a worker does on pairs, differentiable like any arithmetic. */
public record Complex(float re, float im) {
  public static Complex of(float re, float im) {
    return new Complex(re, im);
  }

  public Complex times(Complex o) {
    return new Complex(re * o.re - im * o.im, re * o.im + im * o.re);
  }

  public Complex plus(Complex o) {
    return new Complex(re + o.re, im + o.im);
  }

  public Complex scale(float s) {
    return new Complex(re * s, im * s);
  }

  public float abs2() {
    return re * re + im * im;
  }
}
