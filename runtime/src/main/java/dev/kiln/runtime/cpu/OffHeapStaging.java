package dev.kiln.runtime.cpu;

import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;

/**
 * One thread's off-heap buffers for {@link OpenBlasGemm}: three slots (A, B, C) per precision,
 * each grown when a product needs more and never shrunk, so a training loop that repeats the same
 * products allocates nothing after its first step. Each slot is seen twice: as a JavaCPP pointer
 * for the BLAS call and as an NIO buffer over the same memory, whose bulk {@code put}/{@code get}
 * copy Java arrays in and out without a JNI call per copy.
 *
 * <p>The memory is freed when the thread's staging is garbage (JavaCPP's deallocator) or when a
 * slot grows. It is as large as the largest product the thread ran: 48 MB for three 2048x2048
 * float matrices.
 */
final class OffHeapStaging {
  private final FloatPointer[] floats = new FloatPointer[3];
  private final FloatBuffer[] floatBuffers = new FloatBuffer[3];
  private final DoublePointer[] doubles = new DoublePointer[3];
  private final DoubleBuffer[] doubleBuffers = new DoubleBuffer[3];

  /** Slot {@code slot}'s float memory, at least {@code elements} long. */
  FloatPointer floats(int slot, long elements) {
    FloatPointer p = floats[slot];
    if (p == null || p.capacity() < elements) {
      if (p != null) {
        p.close();
      }
      p = new FloatPointer(grown(p == null ? 0 : p.capacity(), elements));
      floats[slot] = p;
      floatBuffers[slot] = p.asBuffer();
    }
    return p;
  }

  /** The NIO view of the float slot last returned by {@link #floats}. */
  FloatBuffer floatBuffer(int slot) {
    return floatBuffers[slot];
  }

  /** Slot {@code slot}'s double memory, at least {@code elements} long. */
  DoublePointer doubles(int slot, long elements) {
    DoublePointer p = doubles[slot];
    if (p == null || p.capacity() < elements) {
      if (p != null) {
        p.close();
      }
      p = new DoublePointer(grown(p == null ? 0 : p.capacity(), elements));
      doubles[slot] = p;
      doubleBuffers[slot] = p.asBuffer();
    }
    return p;
  }

  /** The NIO view of the double slot last returned by {@link #doubles}. */
  DoubleBuffer doubleBuffer(int slot) {
    return doubleBuffers[slot];
  }

  /** A quarter more than asked when growing, so slowly growing sizes do not reallocate each time. */
  private static long grown(long current, long needed) {
    return Math.max(needed, current == 0 ? needed : Math.min(Integer.MAX_VALUE, needed + needed / 4));
  }
}
