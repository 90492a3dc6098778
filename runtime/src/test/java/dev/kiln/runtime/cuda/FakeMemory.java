package dev.kiln.runtime.cuda;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.IdentityHashMap;
import java.util.Map;
import jcuda.driver.CUdeviceptr;

/** {@link MemoryOps} on the heap, so device arrays' own logic is tested without a GPU. */
class FakeMemory implements MemoryOps {
  final Map<CUdeviceptr, byte[]> live = new IdentityHashMap<>();
  int allocations;
  int frees;
  long failAbove = Long.MAX_VALUE;
  /** The bytes that may be live at once; an allocation past it fails as out of memory. */
  long capacity = Long.MAX_VALUE;

  @Override
  public synchronized CUdeviceptr allocate(long bytes, String what) {
    if (bytes > failAbove) {
      throw new dev.kiln.runtime.KilnException("fake: no room for " + bytes + " bytes for " + what);
    }
    long inUse = live.values().stream().mapToLong(b -> b.length).sum();
    if (inUse + bytes > capacity) {
      throw new dev.kiln.runtime.KilnException("fake: out of memory for " + bytes + " bytes for " + what);
    }
    CUdeviceptr p = new CUdeviceptr();
    live.put(p, new byte[Math.toIntExact(bytes)]);
    allocations++;
    return p;
  }

  @Override
  public synchronized void free(CUdeviceptr pointer, long bytes, String what) {
    if (live.remove(pointer) == null) {
      throw new AssertionError("double free of " + what);
    }
    frees++;
  }

  @Override
  public synchronized void copyToDevice(CUdeviceptr destination, Object hostSource, long bytes, String what) {
    byte[] d = memory(destination, bytes);
    ByteBuffer b = ByteBuffer.wrap(d).order(ByteOrder.nativeOrder());
    if (hostSource instanceof float[] f) {
      b.asFloatBuffer().put(f);
    } else if (hostSource instanceof double[] x) {
      b.asDoubleBuffer().put(x);
    } else {
      b.asIntBuffer().put((int[]) hostSource);
    }
  }

  @Override
  public synchronized void copyToHost(Object hostDestination, CUdeviceptr source, long bytes, String what) {
    ByteBuffer b = ByteBuffer.wrap(memory(source, bytes)).order(ByteOrder.nativeOrder());
    if (hostDestination instanceof float[] f) {
      b.asFloatBuffer().get(f);
    } else if (hostDestination instanceof double[] x) {
      b.asDoubleBuffer().get(x);
    } else {
      b.asIntBuffer().get((int[]) hostDestination);
    }
  }

  @Override
  public synchronized void zero(CUdeviceptr destination, long bytes, String what) {
    java.util.Arrays.fill(memory(destination, bytes), (byte) 0);
  }

  private byte[] memory(CUdeviceptr p, long bytes) {
    byte[] m = live.get(p);
    if (m == null) {
      throw new AssertionError("use of freed or foreign memory");
    }
    if (m.length != bytes) {
      throw new AssertionError("copy of " + bytes + " bytes into " + m.length);
    }
    return m;
  }
}
