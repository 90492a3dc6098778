package dev.kiln.processor.fuzz;

import java.util.stream.LongStream;

/**
 * How many seeds the fuzz tests run: {@code -Dkiln.fuzz.iterations=N} runs N seeds per test
 * (default {@value #DEFAULT_ITERATIONS}), starting at {@code -Dkiln.fuzz.firstSeed} (default 1);
 * {@code -Dkiln.fuzz.seed=S} runs only seed S, to reproduce a failure. {@code
 * -Dkiln.fuzz.nvccEvery=K} lets the processor run nvcc (where it finds one) on every K-th seed of
 * the differential test (default 10; 0 never, 1 always; nvcc takes about half a second a class).
 */
final class FuzzSettings {
  static final int DEFAULT_ITERATIONS = 60;

  /** Run nvcc on the generated CUDA C of one seed in this many (0: never), where nvcc exists. */
  static final int NVCC_EVERY = Integer.getInteger("kiln.fuzz.nvccEvery", 10);

  private FuzzSettings() {}

  static LongStream seeds() {
    return seeds(DEFAULT_ITERATIONS);
  }

  /** As {@link #seeds()}, with a test's own default for the number of seeds. */
  static LongStream seeds(int defaultIterations) {
    String only = System.getProperty("kiln.fuzz.seed");
    if (only != null && !only.isBlank()) {
      return LongStream.of(Long.parseLong(only.trim()));
    }
    long first = Long.getLong("kiln.fuzz.firstSeed", 1L);
    int n = Integer.getInteger("kiln.fuzz.iterations", defaultIterations);
    return LongStream.range(first, first + n);
  }
}
