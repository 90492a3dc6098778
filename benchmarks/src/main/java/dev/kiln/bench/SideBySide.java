package dev.kiln.bench;

import ai.djl.engine.Engine;
import dev.kiln.runtime.cpu.Gemm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs the side-by-side benchmark: first checks every case's Kiln result against PyTorch's (a case
 * that disagrees gets no timing), then times Kiln, PyTorch and a streaming copy with JMH, then each
 * case that moves bytes against the copy in pairs ({@link PairedCopy}), all in one run, and prints
 * one table. {@code java -jar benchmarks/target/kiln-benchmarks.jar [regex]}
 * runs the cases whose names match.
 */
public final class SideBySide {
  /** Largest |kiln - torch| over the largest |torch| of a result, to count as the same. */
  static final double TOLERANCE = 1e-3;

  private static final List<Class<? extends Case>> CASES = List.of(
      Cases.Dense.class, Cases.DenseLarge.class, Cases.MatmulGrad.class, Cases.LstmStep.class,
      Cases.LstmStepTrain.class, Cases.LstmCell.class, Cases.LstmCellTrain.class, Cases.Softmax.class,
      Cases.SoftmaxTrain.class, Cases.LayerNormFwd.class, Cases.LayerNormTrain.class, Cases.Gelu.class,
      Cases.GeluTrain.class, Cases.AddRelu.class, Cases.Ovl.class, Cases.Attention.class, Cases.AttentionTrain.class);

  private SideBySide() {}

  public static void main(String[] args) throws Exception {
    System.setProperty("ai.djl.offline", "true");
    Pattern wanted = Pattern.compile(args.length > 0 ? args[0] : ".*");
    System.out.println("Kiln beside PyTorch (DJL " + Engine.getDjlVersion() + ", " + Engine.getInstance().getEngineName()
        + " " + Engine.getInstance().getVersion() + ", CPU, eager)");
    System.out.println("machine: " + cpu() + ", " + Runtime.getRuntime().availableProcessors() + " cores, Java "
        + System.getProperty("java.version") + "; Kiln GEMM: " + Gemm.backend() + "; Kiln SIMD: "
        + dev.kiln.runtime.simd.Simd.describe() + "; aligned copies of row-invariant inputs: "
        + dev.kiln.runtime.simd.AlignedCopies.describe() + "; OPENBLAS_CORETYPE="
        + System.getenv().getOrDefault("OPENBLAS_CORETYPE", "unset"));
    Map<String, String> verdicts = new LinkedHashMap<>();
    Map<String, double[]> work = new LinkedHashMap<>();
    Map<String, Class<? extends Case>> classes = new LinkedHashMap<>();
    for (Class<? extends Case> c : CASES) {
      String name = c.getSimpleName();
      if (!wanted.matcher(name).find()) {
        continue;
      }
      try (Case k = c.getDeclaredConstructor().newInstance()) {
        ((Cases.Base) k).setUp();
        verdicts.put(name, compare(k.kilnResult(), k.torchResult()));
        work.put(name, new double[] {k.flops(), k.bytes()});
        classes.put(name, c);
      }
    }
    List<String> agreeing = new ArrayList<>();
    verdicts.forEach((n, v) -> {
      if (v.startsWith("ok")) {
        agreeing.add(n);
      }
    });
    List<String> patterns = new ArrayList<>(List.of("Copy\\.copy(AllThreads)?"));
    agreeing.forEach(n -> patterns.add(n + "\\.(kiln|torch)"));
    Map<String, Double> ms = run(patterns);
    double copyMs = ms.getOrDefault("Copy.copy", Double.NaN);
    double copyAllMs = ms.getOrDefault("Copy.copyAllThreads", Double.NaN);
    double oneGbs = gbs(copyMs);
    double allGbs = gbs(copyAllMs);
    // the reference: the better of the two copies (as the sample's table does)
    double copyGbs = Double.isNaN(allGbs) ? oneGbs : Math.max(oneGbs, allGbs);
    // each case that moves bytes (not a product) against the pool's copy, timed in pairs in this
    // process (PairedCopy): the machine's memory moves between phases within seconds to minutes
    Map<String, PairedCopy.Result> paired = new LinkedHashMap<>();
    for (String n : agreeing) {
      if (work.get(n)[0] > 0) {
        continue;
      }
      try (Case k = classes.get(n).getDeclaredConstructor().newInstance()) {
        ((Cases.Base) k).setUp();
        paired.put(n, PairedCopy.measure(k, k.getClass().getMethod("kiln"), work.get(n)[1]));
      }
    }
    System.out.println();
    System.out.printf("%-16s %10s %10s %9s %11s %7s %13s %8s  %s%n", "case", "Kiln ms", "PyTorch ms", "PT/Kiln",
        "Kiln rate", "% copy", "paired ms", "paired %", "results");
    for (Map.Entry<String, String> v : verdicts.entrySet()) {
      String n = v.getKey();
      Double k = ms.get(n + ".kiln");
      Double t = ms.get(n + ".torch");
      if (k == null || t == null) {
        System.out.printf("%-16s %10s %10s %9s %11s %7s %13s %8s  %s%n", n, "-", "-", "-", "-", "-", "-", "-", v.getValue());
        continue;
      }
      double[] w = work.get(n);
      String rate = w[0] > 0 ? String.format("%.0f GF/s", w[0] / (k * 1e6)) : String.format("%.1f GB/s", w[1] / (k * 1e6));
      String ofCopy = w[0] > 0 ? "-" : String.format("%.0f%%", 100 * (w[1] / (k * 1e6)) / copyGbs);
      PairedCopy.Result p = paired.get(n);
      String pairedCopy = p == null ? "-" : String.format("%.3f/%.3f", p.kilnMs(), p.copyMs());
      String pairedShare = p == null ? "-" : String.format("%.0f%%", p.percent());
      System.out.printf("%-16s %10.3f %10.3f %8.2fx %11s %7s %13s %8s  %s%n", n, k, t, t / k, rate, ofCopy, pairedCopy,
          pairedShare, v.getValue());
    }
    System.out.printf("%-16s %10.3f %10s %9s %8.1f GB/s %7s %13s %8s  %s%n", "copy, 1 thread", copyMs, "-", "-", oneGbs,
        String.format("%.0f%%", 100 * oneGbs / copyGbs), "-", "-", "16 MB into 16 MB, System.arraycopy");
    System.out.printf("%-16s %10.3f %10s %9s %8.1f GB/s %7s %13s %8s  %s%n", "copy, " + dev.kiln.runtime.cpu.CpuExecutor.threads()
        + " threads", copyAllMs, "-", "-", allGbs, String.format("%.0f%%", 100 * allGbs / copyGbs), "-", "-",
        "the same, cut over Kiln's pool");
    System.out.println();
    System.out.println("PT/Kiln > 1: Kiln is faster. Rates: GFLOP/s for products, else bytes each array must move once"
        + " over Kiln's time; % copy: that rate over the faster of the two streaming copies JMH timed; paired ms (Kiln's"
        + " and the pool's copy's) and paired %: Kiln's rate over the copy's, timed in alternation in this process ("
        + PairedCopy.ROUNDS + " rounds of about " + (int) PairedCopy.SIDE_MS + " ms a side, medians).");
  }

  /** Runs the benchmarks of {@code Cases} whose names (after {@code Cases.}) match one of {@code patterns}; their ms. */
  private static Map<String, Double> run(List<String> patterns) throws Exception {
    OptionsBuilder options = new OptionsBuilder();
    for (String p : patterns) {
      options.include("dev\\.kiln\\.bench\\.Cases\\." + p + "$");
    }
    Options built = options.shouldFailOnError(true).build();
    Map<String, Double> ms = new LinkedHashMap<>();
    for (RunResult r : new Runner(built).run()) {
      ms.put(r.getParams().getBenchmark().replace("dev.kiln.bench.Cases.", ""), r.getPrimaryResult().getScore());
    }
    return ms;
  }

  /** The rate of a copy of 16 MB into 16 MB that took {@code ms}. */
  private static double gbs(double ms) {
    return 2.0 * 4 * Cases.Copy.N / (ms * 1e6);
  }

  /** "ok (max rel diff ...)" or "WRONG: ..." for the case's results. */
  static String compare(float[][] kiln, float[][] torch) {
    double worst = 0;
    for (int r = 0; r < kiln.length; r++) {
      if (kiln[r].length != torch[r].length) {
        return "WRONG: result " + r + " has " + kiln[r].length + " elements, PyTorch's " + torch[r].length;
      }
      double scale = 1e-6;
      for (float v : torch[r]) {
        scale = Math.max(scale, Math.abs(v));
      }
      for (int i = 0; i < kiln[r].length; i++) {
        double d = Math.abs((double) kiln[r][i] - torch[r][i]) / scale;
        if (!(d <= TOLERANCE)) {
          return String.format("WRONG: result %d differs at [%d]: Kiln %s, PyTorch %s", r, i, kiln[r][i], torch[r][i]);
        }
        worst = Math.max(worst, d);
      }
    }
    return String.format("ok (agree to %.1e)", worst);
  }

  private static String cpu() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (Exception e) {
      // not Linux
    }
    return System.getProperty("os.arch");
  }
}
