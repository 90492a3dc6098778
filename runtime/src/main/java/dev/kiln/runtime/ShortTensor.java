package dev.kiln.runtime;

import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.DeviceShortArray;
import java.util.Arrays;

/**
 * A {@code short[]} that lives where the kernels run ({@link Tensor}): generated launchers take it in
 * place of {@code short[]} and run on {@link Kiln#device()}.
 */
public final class ShortTensor extends Tensor<short[], DeviceShortArray> {
  private ShortTensor(short[] host) {
    super(host, host.length);
  }

  /** A tensor holding a copy of {@code values}. */
  public static ShortTensor of(short... values) {
    return new ShortTensor(checkedValues("ShortTensor", values).clone());
  }

  /** A tensor of {@code length} zeros. */
  public static ShortTensor zeros(int length) {
    return new ShortTensor(new short[checkedLength("ShortTensor", length)]);
  }

  /** A copy of the values, brought from the device first if its copy is the current one. */
  public short[] toArray() {
    return hostArray().clone();
  }

  /** Element {@code i} (brings the whole tensor to the host when the device's copy is current). */
  public short get(int i) {
    return hostArray()[i];
  }


  @Override
  DeviceShortArray allocate(CudaDevice gpu, int length) {
    return gpu.allocShorts(length);
  }

  @Override
  void upload(DeviceShortArray device, short[] host) {
    device.upload(host);
  }

  @Override
  void download(DeviceShortArray device, short[] host) {
    device.download(host);
  }

  @Override
  String kind() {
    return "ShortTensor";
  }

  @Override
  String preview() {
    return Arrays.toString(host);
  }
}
