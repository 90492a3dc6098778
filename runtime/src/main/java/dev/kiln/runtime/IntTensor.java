package dev.kiln.runtime;

import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.DeviceIntArray;
import java.util.Arrays;

/**
 * A {@code int[]} that lives where the kernels run ({@link Tensor}): generated launchers take it in
 * place of {@code int[]} and run on {@link Kiln#device()}.
 */
public final class IntTensor extends Tensor<int[], DeviceIntArray> {
  private IntTensor(int[] host) {
    super(host, host.length);
  }

  /** A tensor holding a copy of {@code values}. */
  public static IntTensor of(int... values) {
    return new IntTensor(checkedValues("IntTensor", values).clone());
  }

  /** A tensor of {@code length} zeros. */
  public static IntTensor zeros(int length) {
    return new IntTensor(new int[checkedLength("IntTensor", length)]);
  }

  /** A copy of the values, brought from the device first if its copy is the current one. */
  public int[] toArray() {
    return hostArray().clone();
  }

  /** Element {@code i} (brings the whole tensor to the host when the device's copy is current). */
  public int get(int i) {
    return hostArray()[i];
  }


  @Override
  DeviceIntArray allocate(CudaDevice gpu, int length) {
    return gpu.allocInts(length);
  }

  @Override
  void upload(DeviceIntArray device, int[] host) {
    device.upload(host);
  }

  @Override
  void download(DeviceIntArray device, int[] host) {
    device.download(host);
  }

  @Override
  String kind() {
    return "IntTensor";
  }

  @Override
  String preview() {
    return Arrays.toString(host);
  }
}
