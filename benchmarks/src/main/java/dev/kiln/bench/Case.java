package dev.kiln.bench;

/**
 * One benchmarked computation, done by Kiln and by PyTorch on the same inputs. The runner compares
 * the two results before timing anything and prints no number for a case where they differ.
 */
interface Case extends AutoCloseable {
  /** The case's results from Kiln's generated launchers. */
  float[][] kilnResult();

  /** The same results from PyTorch. */
  float[][] torchResult();

  /** Floating-point operations of one run (0 for memory-bound cases). */
  double flops();

  /** Bytes one run must read and write at least (each array once). */
  double bytes();

  @Override
  void close();
}
