package dev.kiln.runtime.cuda;

/** A {@link DeviceArray} of {@code int}: {@link CudaDevice#allocInts} or {@link CudaDevice#upload(int[])}. */
public final class DeviceIntArray extends DeviceArray {
  /** Bytes an element. */
  public static final int ELEMENT_BYTES = 4;

  DeviceIntArray(MemoryOps memory, long length) {
    super(memory, length, "int", ELEMENT_BYTES);
  }

  @Override
  public int elementBytes() {
    return ELEMENT_BYTES;
  }

  /**
   * Copies a host array in. Synchronous: when it returns, {@code src} may be reused.
   *
   * @throws IllegalArgumentException when {@code src}'s length is not this array's
   */
  public void upload(int[] src) {
    if (src == null) {
      throw new IllegalArgumentException("upload to " + this + ": the host array is null");
    }
    copyIn(src, src.length);
  }

  /**
   * Copies this array into a host array, after the kernels launched before it have finished.
   *
   * @throws IllegalArgumentException when {@code dst}'s length is not this array's
   */
  public void download(int[] dst) {
    if (dst == null) {
      throw new IllegalArgumentException("download from " + this + ": the host array is null");
    }
    copyOut(dst, dst.length);
  }

  /** Copies this array into a new host array. */
  public int[] download() {
    int[] dst = new int[hostLength()];
    copyOut(dst, dst.length);
    return dst;
  }
}
