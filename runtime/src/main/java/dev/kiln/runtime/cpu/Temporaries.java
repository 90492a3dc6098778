package dev.kiln.runtime.cpu;

import java.lang.ref.SoftReference;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The arrays a fused composite's CPU launcher needs between its kernels (a backward pass's {@code B
 * x N} adjoints), taken from a pool shared by all threads and given back when the kernels have
 * returned, instead of a {@code new} array each call. A training step that calls the same
 * composites with the same sizes then allocates nothing after its first call: no large arrays for
 * the garbage collector (a 16 MB temporary is a "humongous" object that G1 allocates and reclaims
 * apart), no zeroing by the allocator.
 *
 * <p>Use: {@code try (Temporaries t = Temporaries.open()) { float[] a = t.floats(n); ...;
 * t.finished(); }}. Each array taken is this frame's alone. {@link #finished} says the work that
 * used the arrays is over; {@link #close} then gives them back. A frame closed without it (a kernel
 * threw: its other chunks may still be writing) drops its arrays instead. Arrays come zero-filled,
 * as {@code new} makes them, unless the caller says it writes every element before reading any
 * ({@code floats(n, false)}). The pool keeps arrays of each exact length (launchers check lengths)
 * through soft references, so the collector may still take them when memory runs short, and at
 * most {@code -Dkiln.cpu.temporaryPoolBytes} (default 512 MB; 0 turns the pool off): an array that
 * would go past the bound empties the pool first, so lengths no longer asked for do not hold it.
 */
public final class Temporaries implements AutoCloseable {
  /** The property that bounds the bytes the pool keeps. */
  public static final String POOL_BYTES_PROPERTY = "kiln.cpu.temporaryPoolBytes";

  private static final Pool SHARED = new Pool(poolBytes(), true);

  private record Key(Class<?> type, int length) {
    long bytes() {
      return (long) length * elementBytes(type);
    }
  }

  /** Free arrays by type and length, at most {@code bound} bytes of them. */
  static final class Pool {
    private final long bound;
    private final boolean soft;
    /** Per key, soft references to free arrays (or the arrays themselves, in a pool that is not soft). */
    private final Map<Key, ArrayDeque<Object>> free = new HashMap<>();
    private long pooled;

    /** {@code soft}: kept through soft references, else strong ones (tests). */
    Pool(long bound, boolean soft) {
      this.bound = bound;
      this.soft = soft;
    }

    synchronized Object take(Key key) {
      ArrayDeque<Object> refs = free.get(key);
      while (refs != null && !refs.isEmpty()) {
        pooled -= key.bytes();
        Object held = refs.pop();
        Object a = held instanceof SoftReference<?> r ? r.get() : held; // null when the collector took it
        if (a != null) {
          return a;
        }
      }
      return null;
    }

    synchronized void put(Key key, Object a) {
      long bytes = key.bytes();
      if (bytes == 0 || bytes > bound) {
        return;
      }
      if (pooled + bytes > bound) {
        free.clear(); // lengths no longer asked for, and references the collector cleared, go
        pooled = 0;
      }
      free.computeIfAbsent(key, k -> new ArrayDeque<>()).push(soft ? new SoftReference<>(a) : a);
      pooled += bytes;
    }

    /** The bytes kept now (soft references the collector cleared included until taken). */
    synchronized long pooledBytes() {
      return pooled;
    }
  }

  private final Pool pool;
  private final List<Object> taken = new ArrayList<>();
  private boolean finished;
  private boolean closed;

  private Temporaries(Pool pool) {
    this.pool = pool;
  }

  /** A frame whose arrays go back to the shared pool when it is closed after {@link #finished}. */
  public static Temporaries open() {
    return new Temporaries(SHARED);
  }

  /** A frame on {@code pool}: for tests. */
  static Temporaries open(Pool pool) {
    return new Temporaries(pool);
  }

  public float[] floats(int length) {
    return (float[]) take(float[].class, length, true);
  }

  /** As {@link #floats(int)}, zero-filled only when {@code zeroFill}: else with any content. */
  public float[] floats(int length, boolean zeroFill) {
    return (float[]) take(float[].class, length, zeroFill);
  }

  public double[] doubles(int length) {
    return (double[]) take(double[].class, length, true);
  }

  /** As {@link #doubles(int)}, zero-filled only when {@code zeroFill}: else with any content. */
  public double[] doubles(int length, boolean zeroFill) {
    return (double[]) take(double[].class, length, zeroFill);
  }

  public int[] ints(int length) {
    return (int[]) take(int[].class, length, true);
  }

  /** As {@link #ints(int)}, zero-filled only when {@code zeroFill}: else with any content. */
  public int[] ints(int length, boolean zeroFill) {
    return (int[]) take(int[].class, length, zeroFill);
  }

  public long[] longs(int length) {
    return (long[]) take(long[].class, length, true);
  }

  /** As {@link #longs(int)}, zero-filled only when {@code zeroFill}: else with any content. */
  public long[] longs(int length, boolean zeroFill) {
    return (long[]) take(long[].class, length, zeroFill);
  }

  public short[] shorts(int length) {
    return (short[]) take(short[].class, length, true);
  }

  /** As {@link #shorts(int)}, zero-filled only when {@code zeroFill}: else with any content. */
  public short[] shorts(int length, boolean zeroFill) {
    return (short[]) take(short[].class, length, zeroFill);
  }

  public byte[] bytes(int length) {
    return (byte[]) take(byte[].class, length, true);
  }

  /** As {@link #bytes(int)}, zero-filled only when {@code zeroFill}: else with any content. */
  public byte[] bytes(int length, boolean zeroFill) {
    return (byte[]) take(byte[].class, length, zeroFill);
  }

  public boolean[] booleans(int length) {
    return (boolean[]) take(boolean[].class, length, true);
  }

  /** As {@link #booleans(int)}, zero-filled only when {@code zeroFill}: else with any content. */
  public boolean[] booleans(int length, boolean zeroFill) {
    return (boolean[]) take(boolean[].class, length, zeroFill);
  }

  /** Says that the work using this frame's arrays is over, so that {@link #close} may give them back. */
  public void finished() {
    finished = true;
  }

  /**
   * Gives every array this frame took back to the pool if {@link #finished} was called; else drops
   * them (a kernel that threw may have left chunks still writing them).
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (finished) {
      for (Object a : taken) {
        pool.put(new Key(a.getClass(), java.lang.reflect.Array.getLength(a)), a);
      }
    }
    taken.clear();
  }

  private Object take(Class<?> type, int length, boolean zeroFill) {
    if (closed) {
      throw new IllegalStateException("Kiln: a closed Temporaries frame was asked for an array");
    }
    Object a = length == 0 ? null : pool.take(new Key(type, length));
    if (a == null) {
      a = java.lang.reflect.Array.newInstance(type.getComponentType(), length);
    } else if (zeroFill) {
      zero(a);
    }
    taken.add(a);
    return a;
  }

  private static void zero(Object a) {
    if (a instanceof float[] f) {
      java.util.Arrays.fill(f, 0f);
    } else if (a instanceof double[] d) {
      java.util.Arrays.fill(d, 0d);
    } else if (a instanceof int[] i) {
      java.util.Arrays.fill(i, 0);
    } else if (a instanceof long[] l) {
      java.util.Arrays.fill(l, 0L);
    } else if (a instanceof short[] s) {
      java.util.Arrays.fill(s, (short) 0);
    } else if (a instanceof byte[] b) {
      java.util.Arrays.fill(b, (byte) 0);
    } else {
      java.util.Arrays.fill((boolean[]) a, false);
    }
  }

  private static int elementBytes(Class<?> type) {
    Class<?> c = type.getComponentType();
    if (c == double.class || c == long.class) {
      return 8;
    }
    if (c == float.class || c == int.class) {
      return 4;
    }
    return c == short.class ? 2 : 1;
  }

  private static long poolBytes() {
    String text = System.getProperty(POOL_BYTES_PROPERTY);
    if (text == null || text.isBlank()) {
      return 512L << 20;
    }
    try {
      long value = Long.parseLong(text.trim());
      if (value >= 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw new IllegalArgumentException("-D" + POOL_BYTES_PROPERTY + "=" + text + " must be a number of bytes, 0 or more");
  }
}
