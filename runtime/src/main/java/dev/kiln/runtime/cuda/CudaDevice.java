package dev.kiln.runtime.cuda;

import static jcuda.driver.JCudaDriver.cuCtxSetCurrent;
import static jcuda.driver.JCudaDriver.cuCtxSynchronize;
import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDeviceGetAttribute;
import static jcuda.driver.JCudaDriver.cuDeviceGetName;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRetain;
import static jcuda.driver.JCudaDriver.cuDeviceTotalMem;
import static jcuda.driver.JCudaDriver.cuDriverGetVersion;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemsetD8;

import dev.kiln.runtime.KilnException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import jcuda.CudaException;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.JCudaDriver;

/**
 * A GPU, through its primary context: device memory, streams, kernels and launch statistics. Get it
 * from {@link CudaRuntime#device()}.
 *
 * <p>Every method makes the primary context current on the calling thread first, so the device may
 * be used from any thread. Every CUDA error becomes a {@link KilnException} that names the
 * operation, the device and the CUDA error, such as {@code could not allocate 4096 MiB on device 0
 * (NVIDIA H100 80GB HBM3): CUDA_ERROR_OUT_OF_MEMORY}.
 *
 * <p>Kernel modules are loaded once per resource base and kept for the life of the device.
 * {@code -Dkiln.cuda.timing=true} (or {@link #setTiming(boolean)}) times every launch with CUDA
 * events, for {@link #stats()}.
 */
public final class CudaDevice {
  /** The system property that turns launch timing on from the start. */
  public static final String TIMING_PROPERTY = "kiln.cuda.timing";

  private final int ordinal;
  private final String name;
  private final int driverVersion;
  private final int computeCapability;
  private final int multiprocessors;
  private final long totalMemory;
  private final LaunchConfig.Limits limits;
  private final CUcontext context;
  private final DeviceMemory memory = new DeviceMemory(this);
  private final CudaStream defaultStream = CudaStream.defaultOf(this);
  private final ConcurrentHashMap<String, KernelModule> modules = new ConcurrentHashMap<>();
  private final LaunchCounter counter = new LaunchCounter();
  private final KernelTimer timer = new KernelTimer(counter);
  private volatile boolean timing = Boolean.getBoolean(TIMING_PROPERTY);
  private volatile String lastKernel;
  private final Object indexLock = new Object();
  private volatile DeviceIntArray indexErrors;
  private boolean indexCheckPending; // guarded by indexLock

  private CudaDevice(int ordinal, String name, int driverVersion, int computeCapability,
      int multiprocessors, long totalMemory, LaunchConfig.Limits limits, CUcontext context) {
    this.ordinal = ordinal;
    this.name = name;
    this.driverVersion = driverVersion;
    this.computeCapability = computeCapability;
    this.multiprocessors = multiprocessors;
    this.totalMemory = totalMemory;
    this.limits = limits;
    this.context = context;
  }

  /** Opens a device: reads its properties, retains its primary context and makes it current. */
  static CudaDevice open(int ordinal) {
    try {
      JCudaDriver.setExceptionsEnabled(true);
      CUdevice device = new CUdevice();
      cuDeviceGet(device, ordinal);
      byte[] nameBytes = new byte[256];
      cuDeviceGetName(nameBytes, nameBytes.length, device);
      int[] version = {0};
      cuDriverGetVersion(version);
      long[] memory = {0};
      cuDeviceTotalMem(memory, device);
      int major = attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
      int minor = attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
      LaunchConfig.Limits limits = new LaunchConfig.Limits(
          attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X),
          attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y),
          attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z));
      int sms = attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
      CUcontext context = new CUcontext();
      cuDevicePrimaryCtxRetain(context, device);
      cuCtxSetCurrent(context);
      return new CudaDevice(ordinal, cString(nameBytes), version[0], major * 10 + minor, sms,
          memory[0], limits, context);
    } catch (CudaException e) {
      throw new KilnException(
          "could not open CUDA device " + ordinal + ": " + CudaErrors.errorName(e), e);
    }
  }

  /** The device's name, such as {@code "NVIDIA H100 80GB HBM3"}. */
  public String name() {
    return name;
  }

  /** The device's ordinal (0). */
  public int ordinal() {
    return ordinal;
  }

  /** The driver's CUDA version, such as {@code 13000} for 13.0. */
  public int driverVersion() {
    return driverVersion;
  }

  /** The compute capability as {@code 10 * major + minor}: {@code 90} for 9.0. */
  public int computeCapability() {
    return computeCapability;
  }

  /** The number of streaming multiprocessors. */
  public int multiprocessors() {
    return multiprocessors;
  }

  /** Total device memory in bytes. */
  public long totalMemory() {
    return totalMemory;
  }

  /** The device's grid size limits, which launches are capped at. */
  public LaunchConfig.Limits limits() {
    return limits;
  }

  /** The device's own memory operations, for a stream's {@link StreamMemoryPool}. */
  MemoryOps memory() {
    return memory;
  }

  /** A new uninitialised device array of floats; {@link DeviceArray#zero()} clears it. */
  public DeviceFloatArray allocFloats(long length) {
    return new DeviceFloatArray(memory, length);
  }

  /** A new uninitialised device array of doubles. */
  public DeviceDoubleArray allocDoubles(long length) {
    return new DeviceDoubleArray(memory, length);
  }

  /** A new uninitialised device array of ints. */
  public DeviceIntArray allocInts(long length) {
    return new DeviceIntArray(memory, length);
  }

  /** A new uninitialised device array of shorts. */
  public DeviceShortArray allocShorts(long length) {
    return new DeviceShortArray(memory, length);
  }

  /** A new device array holding a copy of {@code host}. */
  public DeviceShortArray upload(short[] host) {
    DeviceShortArray a = allocShorts(lengthOf(host));
    return filled(a, () -> a.upload(host));
  }

  /** A new uninitialised device array of bytes. */
  public DeviceByteArray allocBytes(long length) {
    return new DeviceByteArray(memory, length);
  }

  /** A new device array holding a copy of {@code host}. */
  public DeviceByteArray upload(byte[] host) {
    DeviceByteArray a = allocBytes(lengthOf(host));
    return filled(a, () -> a.upload(host));
  }

  /** A new uninitialised device array of longs. */
  public DeviceLongArray allocLongs(long length) {
    return new DeviceLongArray(memory, length);
  }

  /** A new device array holding a copy of {@code host}. */
  public DeviceLongArray upload(long[] host) {
    DeviceLongArray a = allocLongs(lengthOf(host));
    return filled(a, () -> a.upload(host));
  }

  /** A new device array holding a copy of {@code host}. */
  public DeviceFloatArray upload(float[] host) {
    DeviceFloatArray a = allocFloats(lengthOf(host));
    return filled(a, () -> a.upload(host));
  }

  /** A new device array holding a copy of {@code host}. */
  public DeviceDoubleArray upload(double[] host) {
    DeviceDoubleArray a = allocDoubles(lengthOf(host));
    return filled(a, () -> a.upload(host));
  }

  /** A new device array holding a copy of {@code host}. */
  public DeviceIntArray upload(int[] host) {
    DeviceIntArray a = allocInts(lengthOf(host));
    return filled(a, () -> a.upload(host));
  }

  /** The legacy default stream; closing it does nothing. */
  public CudaStream defaultStream() {
    return defaultStream;
  }

  /** A new stream, ordered with the default stream; close it when done. */
  public CudaStream newStream() {
    return CudaStream.create(this);
  }

  /** Waits until all work on the device has finished; reports errors of earlier launches. */
  public void synchronize() {
    makeCurrent();
    try {
      cuCtxSynchronize();
    } catch (CudaException e) {
      throw CudaErrors.failure(this, "could not synchronize", e);
    }
    checkIndexErrors();
  }

  /**
   * The flag that generated kernels set when they read an array at a data-dependent index outside it
   * (where plain Java would throw {@code ArrayIndexOutOfBoundsException}); for generated launchers,
   * which pass it to such kernels. A launch that takes it arms a check: the next synchronising call
   * ({@link #synchronize()}, {@link CudaStream#synchronize()}, a download) reads the flag, clears it,
   * and throws a {@link KilnException} if a kernel set it. The flag is the device's: with several
   * threads launching such kernels, the first of them to synchronise gets the exception.
   */
  public DeviceIntArray indexErrors() {
    synchronized (indexLock) {
      DeviceIntArray flag = indexErrors;
      if (flag == null || flag.isClosed()) {
        flag = allocInts(1);
        flag.zero();
        indexErrors = flag;
      }
      return flag;
    }
  }

  /** Called by a launch that passed {@link #indexErrors()} to its kernel, once it is enqueued. */
  void armIndexCheck(Object[] args) {
    DeviceIntArray flag = indexErrors;
    if (flag == null) {
      return;
    }
    for (Object a : args) {
      if (a == flag) {
        synchronized (indexLock) {
          indexCheckPending = true;
        }
        return;
      }
    }
  }

  /** Throws when a kernel launched since the last check read outside an array (see {@link #indexErrors()}). */
  void checkIndexErrors() {
    int[] value = {0};
    synchronized (indexLock) {
      if (!indexCheckPending) {
        return;
      }
      indexCheckPending = false;
      makeCurrent();
      try {
        cuMemcpyDtoH(jcuda.Pointer.to(value), indexErrors.pointer(), 4);
        if (value[0] != 0) {
          cuMemsetD8(indexErrors.pointer(), (byte) 0, 4);
        }
      } catch (CudaException e) {
        throw CudaErrors.failure(this, "could not read the kernels' index-error flag", e);
      }
    }
    if (value[0] != 0) {
      throw new KilnException("a kernel on " + description() + " read an array at an index outside it (an index"
          + " computed from data, such as table[index[i]], or past the array for these arguments, such as x[i + k]);"
          + " plain Java would throw ArrayIndexOutOfBoundsException"
          + " there, and the results of the kernels since the last synchronisation are not to be used (the last"
          + " kernel launched was " + lastKernel + ")");
    }
  }

  /**
   * Kernel {@code kernelName} of the generated class whose resources are {@code
   * META-INF/kiln/<resourceBase>.ptx} (or {@code .cu}, compiled with NVRTC when the PTX is missing
   * or the driver refuses it), read through {@code loader}'s class loader. Modules are loaded once
   * per resource base, kernels looked up once per name.
   *
   * @param loader a class whose class loader sees the resources: the generated class
   * @param resourceBase the class's binary name with slashes: {@code "dev/kiln/tests/ops/Reductions"}
   * @throws KilnException when the module cannot be loaded or has no such kernel
   */
  public CudaKernel kernel(Class<?> loader, String resourceBase, String kernelName) {
    if (loader == null || resourceBase == null || kernelName == null) {
      throw new IllegalArgumentException("kernel(" + loader + ", " + resourceBase + ", "
          + kernelName + "): no argument may be null");
    }
    KernelModule module = modules.get(resourceBase);
    if (module == null) {
      ClassLoader classLoader = loader.getClassLoader() != null
          ? loader.getClassLoader()
          : ClassLoader.getSystemClassLoader();
      module = modules.computeIfAbsent(
          resourceBase, base -> ModuleLoader.load(this, classLoader, base));
    }
    return module.kernel(kernelName);
  }

  /**
   * How a module's PTX was obtained, such as {@code "META-INF/kiln/p/Foo.ptx"} or {@code
   * "META-INF/kiln/p/Foo.cu compiled by NVRTC 12.6"}; null when it is not loaded.
   */
  public String moduleOrigin(String resourceBase) {
    KernelModule module = modules.get(resourceBase);
    return module == null ? null : module.origin();
  }

  /** Launch counts, and launch times when timing is on; waits for pending timed launches. */
  public LaunchStats stats() {
    makeCurrent();
    try {
      timer.drain();
    } catch (CudaException e) {
      throw CudaErrors.failure(this, "could not read the launch timings", e);
    }
    return counter.snapshot(timing);
  }

  /** Sets the launch counts and times back to zero. */
  public void resetStats() {
    makeCurrent();
    try {
      timer.discard();
    } catch (CudaException e) {
      throw CudaErrors.failure(this, "could not reset the launch timings", e);
    }
    counter.reset();
  }

  /** Turns timing every launch with CUDA events on or off. */
  public void setTiming(boolean on) {
    timing = on;
  }

  /** Whether launches are timed. */
  public boolean timing() {
    return timing;
  }

  /** {@code "device 0 (NVIDIA H100 80GB HBM3)"}, for messages. */
  public String description() {
    return "device " + ordinal + " (" + name + ")";
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "CUDA device %d (%s, compute capability %d.%d, %s, %d SMs,"
            + " driver %s)", ordinal, name, computeCapability / 10, computeCapability % 10,
        CudaErrors.bytes(totalMemory), multiprocessors, CudaErrors.driverVersion(driverVersion));
  }

  /** Makes the primary context current on this thread. */
  void makeCurrent() {
    try {
      cuCtxSetCurrent(context);
    } catch (CudaException e) {
      throw CudaErrors.failure(this, "could not make the CUDA context current", e);
    }
  }

  KernelTimer timer() {
    return timer;
  }

  /** Counts a launch and remembers it for error messages. */
  void launched(String kernel) {
    lastKernel = kernel;
    counter.launched(kernel);
  }

  /** The last kernel launched, or null. */
  String lastKernel() {
    return lastKernel;
  }

  private static int attribute(CUdevice device, int attribute) {
    int[] value = {0};
    cuDeviceGetAttribute(value, attribute, device);
    return value[0];
  }

  private static String cString(byte[] bytes) {
    int n = 0;
    while (n < bytes.length && bytes[n] != 0) {
      n++;
    }
    return new String(bytes, 0, n, StandardCharsets.UTF_8).strip();
  }

  private static int lengthOf(Object host) {
    if (host == null) {
      throw new IllegalArgumentException("upload: the host array is null");
    }
    return java.lang.reflect.Array.getLength(host);
  }

  /** Runs the upload; frees the new array when it fails. */
  private static <A extends DeviceArray> A filled(A array, Runnable upload) {
    try {
      upload.run();
      return array;
    } catch (RuntimeException e) {
      try {
        array.close();
      } catch (RuntimeException second) {
        e.addSuppressed(second);
      }
      throw e;
    }
  }
}
