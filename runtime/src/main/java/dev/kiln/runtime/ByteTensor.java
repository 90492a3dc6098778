package dev.kiln.runtime;

import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.DeviceByteArray;
import java.util.Arrays;

/**
 * A {@code byte[]} that lives where the kernels run ({@link Tensor}): generated launchers take it in
 * place of {@code byte[]} and run on {@link Kiln#device()}.
 */
public final class ByteTensor extends Tensor<byte[], DeviceByteArray> {
  private ByteTensor(byte[] host) {
    super(host, host.length);
  }

  /** A tensor holding a copy of {@code values}. */
  public static ByteTensor of(byte... values) {
    return new ByteTensor(checkedValues("ByteTensor", values).clone());
  }

  /** A tensor of {@code length} zeros. */
  public static ByteTensor zeros(int length) {
    return new ByteTensor(new byte[checkedLength("ByteTensor", length)]);
  }

  /** A copy of the values, brought from the device first if its copy is the current one. */
  public byte[] toArray() {
    return hostArray().clone();
  }

  /** Element {@code i} (brings the whole tensor to the host when the device's copy is current). */
  public byte get(int i) {
    return hostArray()[i];
  }


  @Override
  DeviceByteArray allocate(CudaDevice gpu, int length) {
    return gpu.allocBytes(length);
  }

  @Override
  void upload(DeviceByteArray device, byte[] host) {
    device.upload(host);
  }

  @Override
  void download(DeviceByteArray device, byte[] host) {
    device.download(host);
  }

  @Override
  String kind() {
    return "ByteTensor";
  }

  @Override
  String preview() {
    return Arrays.toString(host);
  }
}
