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
  default void map(Method op, Object[] inputs, Object out) throws Exception {
    map(op.getDeclaringClass(), op.getName(), inputs, out);
  }

  /**
   * Runs the map kernel {@code name} of {@code owner}'s class (an elementwise operator's, or an
   * elementwise gradient's such as {@code reluGrad} or {@code clampGrad_lo}) on host arrays.
   */
  void map(Class<?> owner, String name, Object[] inputs, Object out) throws Exception;

  /**
   * Runs on CUDA what the CPU gradient launcher {@code launcher} ({@code fGrad} of {@code owner}'s
   * {@code Kernels} class, a composite of kernels {@code fGrad_k<n>}) computes, on its arguments
   * {@code args}; arrays are updated in place with what the kernels wrote.
   */
  void gradient(Class<?> owner, Method launcher, Object[] args) throws Exception;
}
