package dev.kiln.runtime.cuda;

import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventElapsedTime;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;

import java.util.ArrayDeque;
import java.util.Deque;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUstream;

/**
 * Times launches with a pair of CUDA events around each. Reading an event pair waits for it, so
 * pairs are only read when the stats are asked for ({@link #drain}), or when too many are pending;
 * timing therefore does not serialise the launches. Events are reused. The caller makes the device's
 * context current before each call.
 */
final class KernelTimer {
  /** Pending pairs past which {@link #end} drains them, to bound the memory they hold. */
  private static final int MAX_PENDING = 4096;

  private record Pending(String kernel, CUevent start, CUevent end) {}

  private final LaunchCounter counter;
  private final Deque<Pending> pending = new ArrayDeque<>();
  private final Deque<CUevent> pool = new ArrayDeque<>();

  KernelTimer(LaunchCounter counter) {
    this.counter = counter;
  }

  /** Records a start event on the stream, before a launch. */
  synchronized CUevent begin(CUstream stream) {
    CUevent start = event();
    cuEventRecord(start, stream);
    return start;
  }

  /** Records the end event after a launch; the pair is read later. */
  synchronized void end(String kernel, CUevent start, CUstream stream) {
    CUevent end = event();
    cuEventRecord(end, stream);
    pending.add(new Pending(kernel, start, end));
    if (pending.size() > MAX_PENDING) {
      drain();
    }
  }

  /** Gives back a start event whose launch failed. */
  synchronized void abandon(CUevent start) {
    pool.add(start);
  }

  /** Waits for every pending pair and adds its time to the counter. */
  synchronized void drain() {
    float[] ms = {0f};
    while (!pending.isEmpty()) {
      Pending p = pending.peek();
      cuEventSynchronize(p.end());
      cuEventElapsedTime(ms, p.start(), p.end());
      pending.poll();
      counter.timed(p.kernel(), ms[0]);
      pool.add(p.start());
      pool.add(p.end());
    }
  }

  /** Waits for the pending pairs and forgets them. */
  synchronized void discard() {
    while (!pending.isEmpty()) {
      Pending p = pending.poll();
      cuEventSynchronize(p.end());
      pool.add(p.start());
      pool.add(p.end());
    }
  }

  private CUevent event() {
    CUevent e = pool.poll();
    if (e == null) {
      e = new CUevent();
      cuEventCreate(e, CUevent_flags.CU_EVENT_DEFAULT);
    }
    return e;
  }
}
