package dev.kiln.sample;

import dev.kiln.runtime.Device;
import dev.kiln.runtime.Kiln;
import dev.kiln.runtime.KilnException;
import dev.kiln.runtime.cpu.CpuExecutor;
import dev.kiln.runtime.cuda.CudaRuntime;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Kiln's sample: a small LSTM forward pass run as plain Java and as the kernels Kiln generated from
 * the same source ({@link LstmOps}), checked against each other and timed; then a few steps of
 * training through the gradients Kiln generated ({@link TrainingRun}), checked against finite
 * differences of the plain-Java forward pass.
 */
public final class Main {
  /** Largest absolute difference allowed between a kernel and its plain-Java source. */
  static final double TOLERANCE = 1e-5;

  /** The same for the GPU, whose exp and tanh differ from the JVM's by a few ulp. */
  static final double CUDA_TOLERANCE = 1e-4;

  private final Options options;
  private final PrintStream out;
  private final Map<Long, double[]> copyMillis = new HashMap<>();

  private Main(Options options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  public static void main(String[] args) {
    if (Options.wantsHelp(args)) {
      System.out.println(Options.usage());
      return;
    }
    Options options;
    try {
      options = Options.parse(args);
    } catch (Options.UsageException e) {
      System.err.println("error: " + e.getMessage());
      System.err.println();
      System.err.println(Options.usage());
      System.exit(2);
      return;
    }
    Device device;
    try {
      device = Kiln.device();
    } catch (KilnException e) {
      System.err.println("error: " + e.getMessage());
      System.exit(1);
      return;
    }
    if (!new Main(options, System.out).run(device)) {
      System.exit(1);
    }
  }

  /** Prints the header and the table; false when some kernel disagrees with its source. */
  private boolean run(Device device) {
    Options o = options;
    out.println("Kiln sample: LSTM forward pass, plain Java vs generated kernels; then training with Kiln's gradients");
    out.printf(Locale.ROOT, "device       %s%n", device);
    out.printf(Locale.ROOT, "cpu simd     %s%n", dev.kiln.runtime.simd.Simd.describe());
    out.printf(Locale.ROOT, "cpu threads  %d (-D%s; %d processors)%n", CpuExecutor.threads(),
        CpuExecutor.THREADS_PROPERTY, Runtime.getRuntime().availableProcessors());
    out.printf(Locale.ROOT, "java         %s (%s)%n", System.getProperty("java.version"),
        System.getProperty("java.vm.name"));
    out.printf(Locale.ROOT, "sizes        batch %d, input %d, hidden %d, classes %d, steps %d; seed %d%n",
        o.batch(), o.input(), o.hidden(), o.classes(), o.steps(), o.seed());
    out.printf(Locale.ROOT, "timing       median of %d samples after JIT warm-up; each sample >= 5 ms%n%n", o.reps());

    List<Case> cases = Cases.of(new LstmModel(o), o.seed());
    Table table = new Table(out);
    table.header();
    StringBuilder failures = new StringBuilder();
    for (Case c : cases) {
      double diff = c.maxAbsDiff();
      if (!(diff <= TOLERANCE)) {
        failures.append(String.format(Locale.ROOT, "  %s: max |diff| %.3e > %.0e%n", c.operator(), diff, TOLERANCE));
      }
      double plainMs = Bench.medianMillis(c.plain(), o.reps());
      double kernelMs = Bench.medianMillis(c.kernel(), o.reps());
      double[] copy = copyMillis(c.bytes());
      double copyGbps = c.bytes() / (Math.min(copy[0], copy[1]) * 1e6);
      table.operator(c, plainMs, kernelMs, copyGbps, diff);
    }
    long referenceBytes = Traffic.lstmCell(o.batch(), o.hidden());
    double[] copy = copyMillis(referenceBytes);
    table.copy(referenceBytes, copy[0], copy[1]);

    out.println();
    out.println("GB/s: bytes the operator must read and write (each array once) over the kernel's time.");
    out.println("% copy: that rate over the best streaming copy (1 or all threads) of the same byte count;");
    out.println("the copy row shows it at lstmCell's byte count. affine is bound by arithmetic (GFLOP/s),");
    out.println("not bandwidth, and small sizes run from cache, not memory.");
    if (device == Device.CUDA) {
      try {
        cuda(failures);
      } catch (KilnException e) {
        out.println();
        out.println("CUDA: failed: " + e.getMessage());
        failures.append("  LSTM forward on CUDA: ").append(e.getMessage()).append('\n');
      }
    } else {
      out.println();
      String why = System.getProperty(Kiln.DEVICE_PROPERTY) != null ? "-D" + Kiln.DEVICE_PROPERTY + "=cpu" : CudaRuntime.unavailableReason();
      out.println("CUDA: not used (" + why + ")");
    }
    if (failures.length() > 0) {
      out.println();
      out.print("FAIL: kernels disagree with their plain-Java source:\n" + failures);
      return false;
    }
    out.printf(Locale.ROOT, "%nOK: every kernel agrees with its plain-Java source within %.0e.%n", TOLERANCE);
    if (o.train() == 0) {
      return true;
    }
    new TrainingRun(o, out).run(device == Device.CUDA, failures);
    if (dev.kiln.runtime.simd.Simd.ENABLED && !dev.kiln.runtime.simd.Simd.ALWAYS) {
      java.util.Map<String, String> choices = CpuExecutor.simdChoices();
      long onSimd = choices.values().stream().filter(v -> v.startsWith("simd")).count();
      out.printf(Locale.ROOT, "%ncpu simd     %d of %d kernels run their SIMD forms now; the others still run scalar"
          + " (measured slower so far: the JIT compiles a SIMD form only after enough calls; CpuExecutor.simdChoices())%n",
          onSimd, choices.size());
    }
    if (failures.length() > 0) {
      out.println();
      out.print("FAIL: training:\n" + failures);
      return false;
    }
    out.printf(Locale.ROOT, "%nOK: Kiln's gradients agree with finite differences, and the loss decreased.%n");
    return true;
  }

  /** The forward pass on the GPU: time, launches, and agreement with the plain-Java pass. */
  private void cuda(StringBuilder failures) {
    LstmModel model = new LstmModel(options);
    LstmModel.State reference = model.newState();
    model.forward(Impl.PLAIN, reference);
    try (CudaForward gpu = new CudaForward(model)) {
      gpu.forward(); // loads the module, compiles nothing at run time when the build's PTX fits
      gpu.resetStats();
      gpu.forward();
      long launches = gpu.launches();
      double diff = maxAbsDiff(reference.probs, gpu.probabilities());
      double plainMs = Bench.medianMillis(() -> model.forward(Impl.PLAIN, reference), options.reps());
      double cudaMs = Bench.medianMillis(gpu::forward, options.reps());
      out.println();
      out.printf(Locale.ROOT, "CUDA on %s: LSTM forward %.3f ms (plain Java %.3f ms, %.1fx), %d kernel launches"
          + " per pass, max |diff| of the probabilities %.2e%n", gpu.deviceName(), cudaMs, plainMs, plainMs / cudaMs,
          launches, diff);
      if (!(diff <= CUDA_TOLERANCE)) {
        failures.append(String.format(Locale.ROOT, "  LSTM forward on CUDA: max |diff| %.3e > %.0e%n", diff, CUDA_TOLERANCE));
      }
    }
  }

  private static double maxAbsDiff(float[] expected, float[] actual) {
    double max = 0;
    for (int i = 0; i < expected.length; i++) {
      double d = Math.abs((double) expected[i] - actual[i]);
      max = Double.isNaN(d) ? Double.POSITIVE_INFINITY : Math.max(max, d);
    }
    return max;
  }

  /** Milliseconds of a streaming copy of {@code bytes}: {one thread, all threads}, measured once per size. */
  private double[] copyMillis(long bytes) {
    return copyMillis.computeIfAbsent(bytes, n -> {
      StreamingCopy copy = new StreamingCopy(n);
      return new double[] {
          Bench.medianMillis(copy::oneThread, options.reps()),
          Bench.medianMillis(copy::allThreads, options.reps())};
    });
  }
}
