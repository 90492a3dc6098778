package dev.kiln.runtime;

import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.DeviceDoubleArray;
import java.util.Arrays;

/**
 * A {@code double[]} that lives where the kernels run ({@link Tensor}): generated launchers take it in
 * place of {@code double[]} and run on {@link Kiln#device()}.
 */
public final class DoubleTensor extends Tensor<double[], DeviceDoubleArray> {
  private DoubleTensor(double[] host) {
    super(host, host.length);
  }

  /** A tensor holding a copy of {@code values}. */
  public static DoubleTensor of(double... values) {
    return new DoubleTensor(checkedValues("DoubleTensor", values).clone());
  }

  /** A tensor of {@code length} zeros. */
  public static DoubleTensor zeros(int length) {
    return new DoubleTensor(new double[checkedLength("DoubleTensor", length)]);
  }

  /** A copy of the values, brought from the device first if its copy is the current one. */
  public double[] toArray() {
    return hostArray().clone();
  }

  /** Element {@code i} (brings the whole tensor to the host when the device's copy is current). */
  public double get(int i) {
    return hostArray()[i];
  }


  @Override
  DeviceDoubleArray allocate(CudaDevice gpu, int length) {
    return gpu.allocDoubles(length);
  }

  @Override
  void upload(DeviceDoubleArray device, double[] host) {
    device.upload(host);
  }

  @Override
  void download(DeviceDoubleArray device, double[] host) {
    device.download(host);
  }

  @Override
  String kind() {
    return "DoubleTensor";
  }

  @Override
  String preview() {
    return Arrays.toString(host);
  }
}
