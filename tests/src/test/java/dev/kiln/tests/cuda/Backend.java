package dev.kiln.tests.cuda;

import java.lang.reflect.Method;

/** A way to run an operator's CUDA kernel on host arrays: a real GPU, or the host emulation. */
interface Backend {
  /**
   * Runs the CUDA kernel of grid operator {@code op} on {@code args} (the operator's own arguments;
   * arrays are updated in place with what the kernel wrote).
   */
  void grid(Method op, Object[] args) throws Exception;

  /** Runs the map kernel of elementwise operator {@code op}: {@code out[i] = op(inputs[j][i or 0]...)}. */
  void map(Method op, Object[] inputs, Object out) throws Exception;
}
