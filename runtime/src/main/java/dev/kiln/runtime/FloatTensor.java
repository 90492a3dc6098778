package dev.kiln.runtime;

import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.DeviceFloatArray;
import java.util.Arrays;

/**
 * A {@code float[]} that lives where the kernels run ({@link Tensor}): generated launchers take it in
 * place of {@code float[]} and run on {@link Kiln#device()}.
 */
public final class FloatTensor extends Tensor<float[], DeviceFloatArray> {
  private FloatTensor(float[] host) {
    super(host, host.length);
  }

  /** A tensor holding a copy of {@code values}. */
  public static FloatTensor of(float... values) {
    return new FloatTensor(checkedValues("FloatTensor", values).clone());
  }

  /** A tensor of {@code length} zeros. */
  public static FloatTensor zeros(int length) {
    return new FloatTensor(new float[checkedLength("FloatTensor", length)]);
  }

  /** A copy of the values, brought from the device first if its copy is the current one. */
  public float[] toArray() {
    return hostArray().clone();
  }

  /** Element {@code i} (brings the whole tensor to the host when the device's copy is current). */
  public float get(int i) {
    return hostArray()[i];
  }


  @Override
  DeviceFloatArray allocate(CudaDevice gpu, int length) {
    return gpu.allocFloats(length);
  }

  @Override
  void upload(DeviceFloatArray device, float[] host) {
    device.upload(host);
  }

  @Override
  void download(DeviceFloatArray device, float[] host) {
    device.download(host);
  }

  @Override
  String kind() {
    return "FloatTensor";
  }

  @Override
  String preview() {
    return Arrays.toString(host);
  }
}
