package dev.kiln.tests.records;

/** The largest value seen and where (the first index on ties). */
public record ArgMax(float value, int index) {
  public ArgMax offer(float v, int i) {
    return v > value || index < 0 ? new ArgMax(v, i) : this;
  }
}
