package dev.kiln.bench;

import static jcuda.driver.JCudaDriver.cuMemcpyDtoDAsync;

import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.CudaRuntime;
import dev.kiln.runtime.cuda.CudaStream;
import dev.kiln.runtime.cuda.DeviceFloatArray;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Pattern;

/**
 * The side-by-side cases on a GPU, through the CUDA launchers Kiln generated for {@link BenchOps}:
 * the same math and sizes as {@link Cases} (plus larger memory-bound sizes), timed on the device
 * beside a device-to-device copy of the same bytes. PyTorch's side on the same GPU is
 * {@code scripts/gpu_torch_bench.py}, run in the same session (it prints the same case names).
 *
 * <p>Each case first runs once and is compared with Kiln's CPU kernel on the same inputs; a case
 * that disagrees gets no timing. A timing is the median of five rounds, each round enough calls to
 * fill about 100 ms, divided by the calls, with the stream synchronised at the round's end: launch
 * overheads count, as they do for an eager framework timed the same way. Then twenty calls with CUDA
 * event timing on give the per-kernel breakdown and the launches per call.
 *
 * <pre>java --add-modules jdk.incubator.vector -cp ... dev.kiln.bench.GpuSideBySide [regex]</pre>
 */
public final class GpuSideBySide {
  private final CudaDevice gpu = CudaRuntime.device();
  private final CudaStream stream = gpu.defaultStream();
  private final List<DeviceFloatArray> arrays = new ArrayList<>();

  private GpuSideBySide() {}

  /** One case: device arrays made in the constructor, one call of Kiln's launchers, the check. */
  private abstract class GpuCase {
    final String name;
    final double flops;
    final double bytes;

    GpuCase(String name, double flops, double bytes) {
      this.name = name;
      this.flops = flops;
      this.bytes = bytes;
    }

    abstract void run();

    /** Kiln's CPU kernel on the same inputs, the results in the order of {@link #deviceResults}. */
    abstract float[][] cpuResults();

    abstract DeviceFloatArray[] deviceResults();

    /** The tolerance against the CPU kernel, relative to max(1, |cpu|). */
    double tolerance() {
      return 1e-4;
    }
  }

  private DeviceFloatArray up(float[] host) {
    DeviceFloatArray a = gpu.upload(host);
    arrays.add(a);
    return a;
  }

  private DeviceFloatArray alloc(long n) {
    DeviceFloatArray a = gpu.allocFloats(n);
    arrays.add(a);
    return a;
  }

  static float[] random(long seed, int n, float scale) {
    Random r = new Random(seed);
    float[] x = new float[n];
    for (int i = 0; i < n; i++) {
      x[i] = (r.nextFloat() * 2 - 1) * scale;
    }
    return x;
  }

  private GpuCase dense(String name, int b, int k, int n) {
    float[] x = random(1, b * k, 1f);
    float[] w = random(2, k * n, 0.05f);
    float[] bias = random(3, n, 0.1f);
    DeviceFloatArray dx = up(x);
    DeviceFloatArray dw = up(w);
    DeviceFloatArray db = up(bias);
    DeviceFloatArray dy = alloc((long) b * n);
    return new GpuCase(name, 2.0 * b * k * n, 4.0 * ((long) b * k + (long) k * n + n + (long) b * n)) {
      @Override
      void run() {
        BenchOpsKernels.denseRelu(stream, b, k, n, dx, dw, db, dy);
      }

      @Override
      float[][] cpuResults() {
        float[] y = new float[b * n];
        BenchOpsKernels.denseRelu(b, k, n, x, w, bias, y);
        return new float[][] {y};
      }

      @Override
      DeviceFloatArray[] deviceResults() {
        return new DeviceFloatArray[] {dy};
      }

      @Override
      double tolerance() {
        return 1e-3;
      }
    };
  }

  private GpuCase matmulGrad() {
    int b = 512;
    int k = 1024;
    int n = 1024;
    float[] x = random(4, b * k, 1f);
    float[] w = random(5, k * n, 0.05f);
    float[] dy = random(6, b * n, 1f);
    float[] y = new float[b * n];
    BenchOpsKernels.matmul(b, k, n, x, w, y);
    DeviceFloatArray gx = up(x);
    DeviceFloatArray gw = up(w);
    DeviceFloatArray gy = up(y);
    DeviceFloatArray gdy = up(dy);
    DeviceFloatArray gdx = alloc((long) b * k);
    DeviceFloatArray gdw = alloc((long) k * n);
    return new GpuCase("MatmulGrad", 4.0 * b * k * n, 4.0 * (2L * b * k + 2L * k * n + 2L * b * n)) {
      @Override
      void run() {
        BenchOpsKernels.matmulGrad(stream, b, k, n, gx, gw, gy, gdy, gdx, gdw);
      }

      @Override
      float[][] cpuResults() {
        float[] dx = new float[b * k];
        float[] dw = new float[k * n];
        BenchOpsKernels.matmulGrad(b, k, n, x, w, y, dy, dx, dw);
        return new float[][] {dx, dw};
      }

      @Override
      DeviceFloatArray[] deviceResults() {
        return new DeviceFloatArray[] {gdx, gdw};
      }

      @Override
      double tolerance() {
        return 1e-3;
      }
    };
  }

  private List<GpuCase> lstmStep() {
    int b = 256;
    int in = 256;
    int h = 512;
    float[] x = random(7, b * in, 1f);
    float[] hs = random(8, b * h, 1f);
    float[] c = random(9, b * h, 1f);
    float[] wx = random(10, in * 4 * h, 0.05f);
    float[] wh = random(11, h * 4 * h, 0.05f);
    float[] bias = random(12, 4 * h, 0.1f);
    float[] dcn = random(13, b * h, 1f);
    float[] dhn = random(14, b * h, 1f);
    DeviceFloatArray gx = up(x);
    DeviceFloatArray gh = up(hs);
    DeviceFloatArray gc = up(c);
    DeviceFloatArray gwx = up(wx);
    DeviceFloatArray gwh = up(wh);
    DeviceFloatArray gbias = up(bias);
    DeviceFloatArray gdcn = up(dcn);
    DeviceFloatArray gdhn = up(dhn);
    DeviceFloatArray gcn = alloc((long) b * h);
    DeviceFloatArray ghn = alloc((long) b * h);
    DeviceFloatArray ggates = alloc((long) b * 4 * h);
    DeviceFloatArray gdx = alloc((long) b * in);
    DeviceFloatArray gdh = alloc((long) b * h);
    DeviceFloatArray gdc = alloc((long) b * h);
    DeviceFloatArray gdwx = alloc((long) in * 4 * h);
    DeviceFloatArray gdwh = alloc((long) h * 4 * h);
    DeviceFloatArray gdbias = alloc(4L * h);
    double forwardFlops = 2.0 * b * (in + h) * 4 * h;
    double weights = 4.0 * (in + h) * 4 * h;
    GpuCase step = new GpuCase("LstmStep", forwardFlops, weights + 4.0 * b * (in + 4 * h)) {
      @Override
      void run() {
        BenchOpsKernels.lstmStep(stream, b, in, h, gx, gh, gc, gwx, gwh, gbias, gcn, ghn);
      }

      @Override
      float[][] cpuResults() {
        float[] cn = new float[b * h];
        float[] hn = new float[b * h];
        BenchOpsKernels.lstmStep(b, in, h, x, hs, c, wx, wh, bias, cn, hn);
        return new float[][] {cn, hn};
      }

      @Override
      DeviceFloatArray[] deviceResults() {
        return new DeviceFloatArray[] {gcn, ghn};
      }

      @Override
      double tolerance() {
        return 1e-3;
      }
    };
    GpuCase train = new GpuCase("LstmStepTrain", 3 * forwardFlops, 3 * weights) {
      @Override
      void run() {
        BenchOpsKernels.lstmStepSaving(stream, b, in, h, gx, gh, gc, gwx, gwh, gbias, gcn, ghn, ggates);
        BenchOpsKernels.lstmStepGradSaved(stream, b, in, h, gx, gh, gc, gwx, gwh, gbias, gcn, ghn, ggates, gdcn,
            gdhn, gdx, gdh, gdc, gdwx, gdwh, gdbias);
      }

      @Override
      float[][] cpuResults() {
        float[] cn = new float[b * h];
        float[] hn = new float[b * h];
        float[] gates = new float[b * 4 * h];
        float[] dx = new float[b * in];
        float[] dh = new float[b * h];
        float[] dc = new float[b * h];
        float[] dwx = new float[in * 4 * h];
        float[] dwh = new float[h * 4 * h];
        float[] dbias = new float[4 * h];
        BenchOpsKernels.lstmStepSaving(b, in, h, x, hs, c, wx, wh, bias, cn, hn, gates);
        BenchOpsKernels.lstmStepGradSaved(b, in, h, x, hs, c, wx, wh, bias, cn, hn, gates, dcn, dhn, dx, dh, dc,
            dwx, dwh, dbias);
        return new float[][] {dx, dh, dc, dwx, dwh, dbias};
      }

      @Override
      DeviceFloatArray[] deviceResults() {
        return new DeviceFloatArray[] {gdx, gdh, gdc, gdwx, gdwh, gdbias};
      }

      @Override
      double tolerance() {
        return 1e-3;
      }
    };
    return List.of(step, train);
  }

  private List<GpuCase> lstmCell() {
    int b = 1024;
    int h = 1024;
    float[] gates = random(15, b * 4 * h, 3f);
    float[] c = random(16, b * h, 1f);
    float[] dcn = random(17, b * h, 1f);
    float[] dhn = random(18, b * h, 1f);
    DeviceFloatArray gg = up(gates);
    DeviceFloatArray gc = up(c);
    DeviceFloatArray gdcn = up(dcn);
    DeviceFloatArray gdhn = up(dhn);
    DeviceFloatArray gcn = alloc((long) b * h);
    DeviceFloatArray ghn = alloc((long) b * h);
    DeviceFloatArray gdg = alloc((long) b * 4 * h);
    DeviceFloatArray gdc = alloc((long) b * h);
    GpuCase forward = new GpuCase("LstmCell", 0, 4.0 * (7L * b * h)) {
      @Override
      void run() {
        BenchOpsKernels.lstmCell(stream, b, h, gg, gc, gcn, ghn);
      }

      @Override
      float[][] cpuResults() {
        float[] cn = new float[b * h];
        float[] hn = new float[b * h];
        BenchOpsKernels.lstmCell(b, h, gates, c, cn, hn);
        return new float[][] {cn, hn};
      }

      @Override
      DeviceFloatArray[] deviceResults() {
        return new DeviceFloatArray[] {gcn, ghn};
      }
    };
    GpuCase train = new GpuCase("LstmCellTrain", 0, 4.0 * (7L * b * h + 12L * b * h)) {
      @Override
      void run() {
        BenchOpsKernels.lstmCell(stream, b, h, gg, gc, gcn, ghn);
        BenchOpsKernels.lstmCellGrad(stream, b, h, gg, gc, gcn, ghn, gdcn, gdhn, gdg, gdc);
      }

      @Override
      float[][] cpuResults() {
        float[] cn = new float[b * h];
        float[] hn = new float[b * h];
        float[] dg = new float[b * 4 * h];
        float[] dc = new float[b * h];
        BenchOpsKernels.lstmCell(b, h, gates, c, cn, hn);
        BenchOpsKernels.lstmCellGrad(b, h, gates, c, cn, hn, dcn, dhn, dg, dc);
        return new float[][] {dg, dc};
      }

      @Override
      DeviceFloatArray[] deviceResults() {
        return new DeviceFloatArray[] {gdg, gdc};
      }
    };
    return List.of(forward, train);
  }

  private List<GpuCase> rows(String suffix, int b, int n) {
    float[] x = random(19, b * n, 4f);
    float[] dy = random(20, b * n, 1f);
    float[] gamma = random(21, n, 1f);
    float[] beta = random(22, n, 1f);
    DeviceFloatArray gx = up(x);
    DeviceFloatArray gdy = up(dy);
    DeviceFloatArray ggamma = up(gamma);
    DeviceFloatArray gbeta = up(beta);
    DeviceFloatArray gy = alloc((long) b * n);
    DeviceFloatArray gdx = alloc((long) b * n);
    DeviceFloatArray gdgamma = alloc(n);
    DeviceFloatArray gdbeta = alloc(n);
    double bytes = 8.0 * b * n;
    List<GpuCase> cases = new ArrayList<>();
    cases.add(new GpuCase("Softmax" + suffix, 0, bytes) {
      @Override
      void run() {
        BenchOpsKernels.softmax(stream, b, n, gx, gy);
      }

      @Override
      float[][] cpuResults() {
        float[] y = new float[b * n];
        BenchOpsKernels.softmax(b, n, x, y);
        return new float[][] {y};
      }

      @Override
      DeviceFloatArray[] deviceResults() {
        return new DeviceFloatArray[] {gy};
      }
    });
    cases.add(new GpuCase("SoftmaxTrain" + suffix, 0, 2.5 * bytes) {
      @Override
      void run() {
        BenchOpsKernels.softmax(stream, b, n, gx, gy);
        BenchOpsKernels.softmaxGrad(stream, b, n, gx, gy, gdy, gdx);
      }

      @Override
      float[][] cpuResults() {
        float[] y = new float[b * n];
        float[] dx = new float[b * n];
        BenchOpsKernels.softmax(b, n, x, y);
        BenchOpsKernels.softmaxGrad(b, n, x, y, dy, dx);
        return new float[][] {dx};
      }

      @Override
      DeviceFloatArray[] deviceResults() {
        return new DeviceFloatArray[] {gdx};
      }
    });
    cases.add(new GpuCase("LayerNormFwd" + suffix, 0, bytes) {
      @Override
      void run() {
        BenchOpsKernels.layerNorm(stream, b, n, gx, ggamma, gbeta, gy);
      }

      @Override
      float[][] cpuResults() {
        float[] y = new float[b * n];
        BenchOpsKernels.layerNorm(b, n, x, gamma, beta, y);
        return new float[][] {y};
      }

      @Override
      DeviceFloatArray[] deviceResults() {
        return new DeviceFloatArray[] {gy};
      }

      @Override
      double tolerance() {
        return 1e-3;
      }
    });
    cases.add(new GpuCase("LayerNormTrain" + suffix, 0, 2.5 * bytes) {
      @Override
      void run() {
        BenchOpsKernels.layerNorm(stream, b, n, gx, ggamma, gbeta, gy);
        BenchOpsKernels.layerNormGrad(stream, b, n, gx, ggamma, gbeta, gy, gdy, gdx, gdgamma, gdbeta);
      }

      @Override
      float[][] cpuResults() {
        float[] y = new float[b * n];
        float[] dx = new float[b * n];
        float[] dgamma = new float[n];
        float[] dbeta = new float[n];
        BenchOpsKernels.layerNorm(b, n, x, gamma, beta, y);
        BenchOpsKernels.layerNormGrad(b, n, x, gamma, beta, y, dy, dx, dgamma, dbeta);
        return new float[][] {dx, dgamma, dbeta};
      }

      @Override
      DeviceFloatArray[] deviceResults() {
        return new DeviceFloatArray[] {gdx, gdgamma, gdbeta};
      }

      @Override
      double tolerance() {
        return 1e-3;
      }
    });
    return cases;
  }

  private List<GpuCase> maps(String suffix, int n) {
    float[] x = random(23, n, 3f);
    float[] dy = random(24, n, 1f);
    float[] b2 = random(25, n, 3f);
    DeviceFloatArray gx = up(x);
    DeviceFloatArray gdy = up(dy);
    DeviceFloatArray gb = up(b2);
    DeviceFloatArray gy = alloc(n);
    DeviceFloatArray gdx = alloc(n);
    List<GpuCase> cases = new ArrayList<>();
    cases.add(new GpuCase("Gelu" + suffix, 0, 8.0 * n) {
      @Override
      void run() {
        BenchOpsKernels.gelu(stream, n, gx, gy);
      }

      @Override
      float[][] cpuResults() {
        float[] y = new float[n];
        BenchOpsKernels.gelu(n, x, y);
        return new float[][] {y};
      }

      @Override
      DeviceFloatArray[] deviceResults() {
        return new DeviceFloatArray[] {gy};
      }
    });
    cases.add(new GpuCase("GeluTrain" + suffix, 0, 20.0 * n) {
      @Override
      void run() {
        BenchOpsKernels.gelu(stream, n, gx, gy);
        BenchOpsKernels.geluGrad(stream, n, gx, gy, gdy, gdx);
      }

      @Override
      float[][] cpuResults() {
        float[] y = new float[n];
        float[] dx = new float[n];
        BenchOpsKernels.gelu(n, x, y);
        BenchOpsKernels.geluGrad(n, x, y, dy, dx);
        return new float[][] {dx};
      }

      @Override
      DeviceFloatArray[] deviceResults() {
        return new DeviceFloatArray[] {gdx};
      }
    });
    cases.add(new GpuCase("AddRelu" + suffix, 0, 12.0 * n) {
      @Override
      void run() {
        BenchOpsKernels.addRelu(stream, n, gx, gb, gy);
      }

      @Override
      float[][] cpuResults() {
        float[] y = new float[n];
        BenchOpsKernels.addRelu(n, x, b2, y);
        return new float[][] {y};
      }

      @Override
      DeviceFloatArray[] deviceResults() {
        return new DeviceFloatArray[] {gy};
      }
    });
    return cases;
  }

  /** The largest difference from the CPU kernel beyond the tolerance, or null when all agree. */
  private static String disagreement(GpuCase c, float[][] cpu, DeviceFloatArray[] device) {
    double worst = 0;
    String where = null;
    for (int r = 0; r < cpu.length; r++) {
      float[] got = device[r].download();
      for (int i = 0; i < got.length; i++) {
        double diff = Math.abs((double) got[i] - cpu[r][i]);
        double allowed = c.tolerance() * Math.max(1, Math.abs(cpu[r][i]));
        if (!(diff <= allowed) && (Float.isNaN(got[i]) || diff / allowed > worst)) {
          worst = Float.isNaN(got[i]) ? Double.POSITIVE_INFINITY : diff / allowed;
          where = String.format(Locale.ROOT, "result %d [%d]: GPU %s, CPU %s", r, i, got[i], cpu[r][i]);
        }
      }
    }
    return where;
  }

  /** Median seconds a call of {@code body}, rounds of about 100 ms each. */
  private double time(Runnable body) {
    for (int i = 0; i < 3; i++) {
      body.run();
    }
    stream.synchronize();
    long t0 = System.nanoTime();
    body.run();
    stream.synchronize();
    double once = Math.max(1e-6, (System.nanoTime() - t0) * 1e-9);
    int reps = (int) Math.max(1, Math.min(10_000, 0.1 / once));
    double[] rounds = new double[5];
    for (int round = 0; round < rounds.length; round++) {
      long start = System.nanoTime();
      for (int i = 0; i < reps; i++) {
        body.run();
      }
      stream.synchronize();
      rounds[round] = (System.nanoTime() - start) * 1e-9 / reps;
    }
    Arrays.sort(rounds);
    return rounds[rounds.length / 2];
  }

  /** A device-to-device copy of {@code bytes / 2} bytes: reads and writes {@code bytes} in all. */
  private double copySeconds(double bytes) {
    if (gpu.name().contains("emulation")) {
      return Double.NaN; // the emulated driver has no cuMemcpyDtoDAsync: it checks code, not speed
    }
    long half = (long) (bytes / 2) & ~3L;
    DeviceFloatArray from = alloc(half / 4);
    DeviceFloatArray to = alloc(half / 4);
    from.zero();
    double s = time(() -> cuMemcpyDtoDAsync(to.pointer(), from.pointer(), half, stream.handle()));
    from.close();
    to.close();
    return s;
  }

  private void run(Pattern select) {
    System.out.printf(Locale.ROOT, "GPU: %s, compute capability %d, %d multiprocessors, %.1f GiB; Java %s%n",
        gpu.name(), gpu.computeCapability(), gpu.multiprocessors(), gpu.totalMemory() / (double) (1L << 30),
        System.getProperty("java.version"));
    List<java.util.function.Supplier<List<GpuCase>>> groups = List.of(
        () -> List.of(dense("Dense", 512, 1024, 1024)),
        () -> List.of(dense("DenseLarge", 2048, 2048, 2048)),
        () -> List.of(matmulGrad()),
        this::lstmStep,
        this::lstmCell,
        () -> rows("", 2048, 2048),
        () -> rows("Big", 8192, 8192),
        () -> maps("", 1 << 22),
        () -> maps("Big", 1 << 26));
    System.out.printf(Locale.ROOT, "%-20s %10s %10s %9s %9s %10s %8s  %s%n", "case", "kiln ms", "copy ms",
        "GB/s", "GFLOP/s", "of copy", "launches", "check");
    for (var group : groups) {
      List<GpuCase> cases = group.get();
      for (GpuCase c : cases) {
        if (!select.matcher(c.name).find()) {
          continue;
        }
        measure(c);
      }
      arrays.forEach(DeviceFloatArray::close);
      arrays.clear();
    }
  }

  private void measure(GpuCase c) {
    String check;
    try {
      c.run();
      stream.synchronize();
      String bad = disagreement(c, c.cpuResults(), c.deviceResults());
      check = bad == null ? "agrees with the CPU kernel (tol " + c.tolerance() + ")" : "DISAGREES: " + bad;
      if (bad != null) {
        System.out.printf(Locale.ROOT, "%-20s %s%n", c.name, check);
        return;
      }
    } catch (RuntimeException e) {
      System.out.printf(Locale.ROOT, "%-20s FAILED: %s%n", c.name, e);
      return;
    }
    double s = time(c::run);
    double copy = copySeconds(c.bytes);
    gpu.resetStats();
    gpu.setTiming(true);
    for (int i = 0; i < TIMED_CALLS; i++) {
      c.run();
    }
    stream.synchronize();
    gpu.setTiming(false);
    var stats = gpu.stats();
    System.out.printf(Locale.ROOT, "%-20s %10.4f %10.4f %9.1f %9s %9.0f%% %8d  %s%n", c.name, s * 1e3, copy * 1e3,
        c.bytes / s * 1e-9, c.flops > 0 ? String.format(Locale.ROOT, "%.0f", c.flops / s * 1e-9) : "-",
        100 * copy / s, stats.launches() / TIMED_CALLS, check);
    BREAKDOWN.add(c.name + ":\n" + stats.format());
  }

  private static final List<String> BREAKDOWN = new ArrayList<>();

  /** Calls timed kernel by kernel (CUDA events around each launch) for the breakdown. */
  private static final int TIMED_CALLS = 20;

  public static void main(String[] args) {
    Pattern select = Pattern.compile(args.length > 0 ? args[0] : ".");
    GpuSideBySide bench = new GpuSideBySide();
    bench.run(select);
    System.out.println();
    System.out.println("Per-kernel times over " + TIMED_CALLS + " calls (CUDA events around each launch):");
    BREAKDOWN.forEach(System.out::println);
  }
}
