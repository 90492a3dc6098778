/**
 * Kiln's CUDA backend: what generated kernels call to run on a GPU, through JCuda's driver API.
 *
 * <p>{@link dev.kiln.runtime.cuda.CudaRuntime} says whether CUDA is usable (loading JCuda only when
 * asked) and opens {@link dev.kiln.runtime.cuda.CudaDevice device 0}. The device allocates {@link
 * dev.kiln.runtime.cuda.DeviceArray device arrays}, makes {@link dev.kiln.runtime.cuda.CudaStream
 * streams}, loads a generated class's kernels ({@code META-INF/kiln/<class>.ptx}, or its {@code
 * .cu} through NVRTC) as {@link dev.kiln.runtime.cuda.CudaKernel}s, and counts and times launches
 * ({@link dev.kiln.runtime.cuda.LaunchStats}). {@link dev.kiln.runtime.cuda.LaunchConfig} holds the
 * grid rules. CUDA errors become {@link dev.kiln.runtime.KilnException}s naming the operation, the
 * device and the CUDA error.
 */
package dev.kiln.runtime.cuda;
