package dev.kiln.processor.codegen.cuda;

/**
 * What one of the CUDA kernel shapes makes of an operator: that shape's plan ({@link
 * ReducingKernelWriter.Plan}, {@link PartialsKernelWriter.Plan}, {@link SharedLoopPlan.Plan}, {@link VectorKernelWriter.Plan}), or
 * {@link Refused} with the reason it does not fit, which {@link CudaWriter} writes into the
 * {@code .cu} beside the kernel that runs instead (or beside the operator, when none does).
 */
sealed interface CudaPlan
    permits ReducingKernelWriter.Plan, PartialsKernelWriter.Plan, SharedLoopPlan.Plan, VectorKernelWriter.Plan,
        CudaPlan.Refused {

  /** The shape does not fit the operator, for {@code reason} (a clause: "a loop stores"). */
  record Refused(String reason) implements CudaPlan {}
}
