package dev.kiln.processor.codegen;

import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ScalarType;

/**
 * Which elementwise operators are mapped over arrays: a CPU map launcher in the Kernels class and a
 * CUDA map kernel with its device launcher. Both backends ask here, so they never disagree.
 */
public final class MapKernels {
  private MapKernels() {}

  /** Whether {@code op} is mapped: it has parameters, and each and its result is float, double or int. */
  public static boolean exist(OperatorIr.Elementwise op) {
    if (!arrayType(op.resultType())) {
      return false;
    }
    for (Param p : op.params()) {
      if (!arrayType(((Param.Scalar) p).type())) {
        return false;
      }
    }
    return !op.params().isEmpty();
  }

  private static boolean arrayType(ScalarType t) {
    return t == ScalarType.FLOAT || t == ScalarType.DOUBLE || t == ScalarType.INT;
  }
}
