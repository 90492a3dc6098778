package dev.kiln.tests.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.processor.fuzz.FuzzCorpus;
import dev.kiln.tests.CudaSourcesTest;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential fuzzing of the CUDA kernels: the processor's differential fuzzer's random operator
 * classes ({@code FuzzCorpus}: elementwise, grid and composite operators; the same seeds as the
 * CPU fuzzer's) compiled with nvcc, built for the emulated CUDA driver, and run in a child JVM
 * ({@link CudaFuzzRun}) through their generated device launchers, each operator at its size sets
 * (those {@link #small} enough for the emulation) and each map launcher, against its plain-Java source: floats within 2e-4 relative (the CUDA
 * kernels keep the source's operations, but a reduction may add in another order and {@code log},
 * {@code pow}, {@code sin}, {@code cos} are CUDA's), ints exact, NaN where the source has NaN.
 *
 * <p>{@code -Dkiln.cudafuzz.iterations=N} runs N seeds (default {@value #DEFAULT_ITERATIONS}) from
 * {@code -Dkiln.cudafuzz.firstSeed} (default 1); {@code -Dkiln.cudafuzz.seed=S} runs seed S alone.
 * Needs gcc and g++ (the emulated driver) and nvcc (the PTX the runtime loads); skipped, saying which
 * is missing, without them.
 */
class CudaFuzzTest {
  static final int DEFAULT_ITERATIONS = 6;

  @TempDir Path work;

  @Test
  void fuzzedOperatorsAgreeWithTheirSourceOnTheEmulatedDriver() throws Exception {
    Path cc = CudaSourcesTest.tool("gcc");
    Path cxx = CudaSourcesTest.tool("g++");
    assumeTrue(cc != null && cxx != null, "the emulated driver is built with gcc and g++, and this machine lacks them");
    assumeTrue(CudaSourcesTest.tool("nvcc") != null,
        "the runtime loads modules from PTX, which the processor makes with nvcc, and this machine lacks it");
    List<FuzzCorpus.Compiled> compiled = new ArrayList<>();
    try {
      List<String> problems = new ArrayList<>();
      Map<String, EmulatedDriver.Module> modules = new LinkedHashMap<>();
      List<String> corpus = new ArrayList<>();
      for (long seed : seeds()) {
        FuzzCorpus.Compiled c = FuzzCorpus.compile(seed);
        compiled.add(c);
        if (c.problem() != null) {
          problems.add("seed " + seed + ": " + c.problem() + "\n" + FuzzCorpus.numbered(c.source()));
          continue;
        }
        Map<String, EmulatedDriver.Module> own = EmulatedDriver.modulesUnder(c.classes());
        if (own.values().stream().anyMatch(m -> m.ptx() == null)) {
          problems.add("seed " + seed + ": the processor made no PTX although nvcc is here");
          continue;
        }
        modules.putAll(own);
        corpus.add("class\t" + c.className() + "\t" + seed);
        c.gridSizes().forEach((op, sizeSets) -> sizeSets.stream().filter(CudaFuzzTest::small).forEach(sizes ->
            corpus.add("grid\t" + op + "\t"
                + sizes.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(",")))));
        c.maps().forEach(op -> corpus.add("map\t" + op));
      }
      EmulatedDriver driver = EmulatedDriver.build(Files.createDirectories(work.resolve("driver")), cc, cxx, modules);
      List<Path> batches = batches(corpus);
      String classPath = System.getProperty("java.class.path") + File.pathSeparator
          + compiled.stream().filter(c -> c.problem() == null).map(c -> c.classes().toString())
              .collect(Collectors.joining(File.pathSeparator));
      long passed = 0;
      for (Map.Entry<String, Map<String, String>> config : CONFIGS) {
        List<String> lines = new ArrayList<>();
        for (int b = 0; b < batches.size(); b++) {
          List<String> batch = runChild(config.getKey(), b, config.getValue(), driver, classPath, batches.get(b));
          lines.addAll(lines.isEmpty() ? batch : batch.subList(1, batch.size()));
        }
        Map<String, Long> counts = lines.stream().map(l -> l.split("\t", -1)[0])
            .collect(Collectors.groupingBy(k -> k, LinkedHashMap::new, Collectors.counting()));
        passed += counts.getOrDefault("PASS", 0L);
        System.out.println("[CUDA fuzz, " + config.getKey() + "] " + compiled.size() + " seeds, " + modules.size()
            + " classes on the emulated driver: " + counts.getOrDefault("PASS", 0L) + " runs agree, "
            + counts.getOrDefault("FAIL", 0L) + " disagree, " + counts.getOrDefault("SKIP", 0L)
            + " skipped (the plain method threw)");
        for (String line : lines) {
          if (line.startsWith("FAIL\t")) {
            String[] f = line.split("\t", -1);
            String source = compiled.stream().filter(c -> Long.toString(c.seed()).equals(f[1])).findFirst()
                .map(c -> FuzzCorpus.numbered(c.source())).orElse("");
            problems.add("[" + config.getKey() + "] seed " + f[1] + " (rerun with -Dkiln.cudafuzz.seed=" + f[1] + "): "
                + f[2] + ": " + f[3] + "\n" + source);
          }
        }
      }
      assertTrue(passed > 0, "no fuzzed operator ran on the emulated driver");
      if (!problems.isEmpty()) {
        fail(problems.size() + " problems:\n" + String.join("\n", problems));
      }
    } finally {
      for (FuzzCorpus.Compiled c : compiled) {
        c.close();
      }
    }
  }

  /**
   * The emulation's settings each child runs under: the device's real grid limits, and grids of at
   * most 2 blocks along each axis with reductions in segments of 16 points (so that the small sizes
   * the fuzzer picks still take every grid-stride loop and the segmented reductions).
   */
  private static final List<Map.Entry<String, Map<String, String>>> CONFIGS = List.of(
      Map.entry("real grid limits", Map.of()),
      Map.entry("grids of 2 blocks", Map.of("KILN_CUDA_EMULATION_MAX_GRID", "2,2,2")));

  /** Classes a child JVM runs at most: one process for hundreds of modules ran out of mappings. */
  private static final int CLASSES_PER_CHILD = 40;

  /** The corpus cut into files of at most {@link #CLASSES_PER_CHILD} classes each. */
  private List<Path> batches(List<String> corpus) throws IOException {
    List<Path> files = new ArrayList<>();
    List<String> current = new ArrayList<>();
    int classes = 0;
    for (String line : corpus) {
      if (line.startsWith("class\t") && classes++ == CLASSES_PER_CHILD) {
        files.add(Files.write(work.resolve("corpus-" + files.size() + ".tsv"), current, StandardCharsets.UTF_8));
        current = new ArrayList<>();
        classes = 1;
      }
      current.add(line);
    }
    if (!current.isEmpty()) {
      files.add(Files.write(work.resolve("corpus-" + files.size() + ".tsv"), current, StandardCharsets.UTF_8));
    }
    return files;
  }

  private List<String> runChild(String config, int batch, Map<String, String> settings, EmulatedDriver driver,
      String classPath, Path corpusFile) throws Exception {
    Path dir = Files.createDirectories(work.resolve("run-" + config.replaceAll("\\W+", "-") + "-" + batch));
    Path results = dir.resolve("results.tsv");
    Path output = dir.resolve("output.txt");
    List<String> jvmArgs = new ArrayList<>(List.of("-Dkiln.device=cuda"));
    if (!settings.isEmpty()) {
      jvmArgs.add("-D" + dev.kiln.runtime.cuda.PartialResults.SEGMENT_WORK_PROPERTY + "=16");
    }
    EmulatedDriver.Child child = driver.runJava(classPath, jvmArgs, CudaFuzzRun.class.getName(),
        List.of(corpusFile.toString(), results.toString()), "11", settings, output, 30);
    String log = child.output();
    assertTrue(child.finished(), "[" + config + "] the child JVM did not finish in 30 minutes:\n" + log);
    assertEquals(0, child.exitValue(), "[" + config + "] the child JVM failed:\n" + log);
    List<String> lines = Files.readAllLines(results, StandardCharsets.UTF_8);
    assertTrue(EmulatedDriver.emulates(lines.get(0)), "the child did not run on the emulated device: " + lines.get(0));
    return lines;
  }

  /**
   * Whether a size set is small enough for the emulation, whose every thread runs on the host: the
   * product of its sizes at most {@code -Dkiln.cudafuzz.maxPoints} (default 4,096). The CPU fuzzer's
   * large size sets (tens of thousands, to pass its executor's grain) are left out here; the
   * two-block configuration makes the small ones take every grid-stride loop instead.
   */
  private static boolean small(Map<String, Integer> sizes) {
    long points = 1;
    for (int v : sizes.values()) {
      points *= Math.max(1, v);
    }
    return points <= Long.getLong("kiln.cudafuzz.maxPoints", 4096L);
  }

  private static List<Long> seeds() {
    String only = System.getProperty("kiln.cudafuzz.seed");
    if (only != null && !only.isBlank()) {
      return List.of(Long.parseLong(only.trim()));
    }
    long first = Long.getLong("kiln.cudafuzz.firstSeed", 1L);
    int n = Integer.getInteger("kiln.cudafuzz.iterations", DEFAULT_ITERATIONS);
    List<Long> seeds = new ArrayList<>();
    for (long s = first; s < first + n; s++) {
      seeds.add(s);
    }
    return seeds;
  }
}
