package dev.kiln.runtime;

import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.DeviceLongArray;
import java.util.Arrays;

/**
 * A {@code long[]} that lives where the kernels run ({@link Tensor}): generated launchers take it in
 * place of {@code long[]} and run on {@link Kiln#device()}.
 */
public final class LongTensor extends Tensor<long[], DeviceLongArray> {
  private LongTensor(long[] host) {
    super(host, host.length);
  }

  /** A tensor holding a copy of {@code values}. */
  public static LongTensor of(long... values) {
    return new LongTensor(checkedValues("LongTensor", values).clone());
  }

  /** A tensor of {@code length} zeros. */
  public static LongTensor zeros(int length) {
    return new LongTensor(new long[checkedLength("LongTensor", length)]);
  }

  /** A copy of the values, brought from the device first if its copy is the current one. */
  public long[] toArray() {
    return hostArray().clone();
  }

  /** Element {@code i} (brings the whole tensor to the host when the device's copy is current). */
  public long get(int i) {
    return hostArray()[i];
  }


  @Override
  DeviceLongArray allocate(CudaDevice gpu, int length) {
    return gpu.allocLongs(length);
  }

  @Override
  void upload(DeviceLongArray device, long[] host) {
    device.upload(host);
  }

  @Override
  void download(DeviceLongArray device, long[] host) {
    device.download(host);
  }

  @Override
  String kind() {
    return "LongTensor";
  }

  @Override
  String preview() {
    return Arrays.toString(host);
  }
}
