package dev.kiln.processor.codegen.cuda;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Compiles generated CUDA C to PTX with nvcc at build time. nvcc is found from the processor
 * option {@code -Akiln.nvcc=<path>} ({@code off} disables it), else {@code $CUDA_HOME/bin}, else
 * {@code PATH}, else {@code /usr/local/cuda/bin}. The PTX targets a virtual architecture
 * ({@code -Akiln.cuda.arch}, default {@code compute_80}), so the driver JIT-compiles it for the
 * GPU it runs on (Ampere, Hopper and later).
 */
public final class Nvcc {
  /** The headers of kiln-cuda-templates that generated sources include. */
  static final List<String> HEADERS = List.of("kiln/kiln.cuh", "kiln/math.cuh", "kiln/index.cuh", "kiln/reduce.cuh");
  private static final long TIMEOUT_SECONDS = 300;
  private static final Pattern ERROR_LINE = Pattern.compile("\\.cu\\((\\d+)\\): error");

  private final Path executable;
  private final String arch;
  private final boolean fastMath;

  private Nvcc(Path executable, String arch, boolean fastMath) {
    this.executable = executable;
    this.arch = arch;
    this.fastMath = fastMath;
  }

  /** Whether {@code -Akiln.nvcc=off} (or none, false) turned PTX generation off. */
  public static boolean disabled(Map<String, String> options) {
    String option = options.get("kiln.nvcc");
    return option != null && (option.equals("off") || option.equals("none") || option.equals("false"));
  }

  /** nvcc per the processor options and environment, or null when there is none (or it is off). */
  public static Nvcc find(Map<String, String> options, Map<String, String> env) {
    String option = options.get("kiln.nvcc");
    String arch = options.getOrDefault("kiln.cuda.arch", "compute_80");
    boolean fast = "fast".equals(options.get("kiln.cuda.math"));
    if (disabled(options)) {
      return null;
    }
    List<Path> candidates = new ArrayList<>();
    if (option != null && !option.isBlank()) {
      Path given = Paths.get(option); // an explicit path is the only candidate
      return Files.isRegularFile(given) && Files.isExecutable(given) ? new Nvcc(given, arch, fast) : null;
    }
    String cudaHome = env.get("CUDA_HOME");
    if (cudaHome != null) {
      candidates.add(Paths.get(cudaHome, "bin", "nvcc"));
    }
    String path = env.get("PATH");
    if (path != null) {
      for (String dir : path.split(java.io.File.pathSeparator)) {
        if (!dir.isEmpty()) {
          candidates.add(Paths.get(dir, "nvcc"));
        }
      }
    }
    candidates.add(Paths.get("/usr/local/cuda/bin/nvcc"));
    for (Path p : candidates) {
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return new Nvcc(p, arch, fast);
      }
    }
    return null;
  }

  public Path executable() {
    return executable;
  }

  /** The result of one compilation: PTX text, or nvcc's output and the operator it points at. */
  public record Outcome(String ptx, String diagnostics, String operator) {
    public boolean ok() {
      return ptx != null;
    }
  }

  /** Compiles {@code source} (the .cu text of {@code baseName}) to PTX. */
  public Outcome compile(String baseName, String source) throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("kiln-nvcc");
    try {
      for (String h : HEADERS) {
        Path target = dir.resolve(h);
        Files.createDirectories(target.getParent());
        try (InputStream in = Nvcc.class.getClassLoader().getResourceAsStream(h)) {
          if (in == null) {
            return new Outcome(null, "the CUDA header " + h + " is not on the processor path (kiln-cuda-templates is missing)", null);
          }
          Files.copy(in, target);
        }
      }
      Path cu = dir.resolve(baseName + ".cu");
      Path ptx = dir.resolve(baseName + ".ptx");
      Files.writeString(cu, source, StandardCharsets.UTF_8);
      List<String> command = new ArrayList<>(List.of(
          executable.toString(), "-ptx", "-arch=" + arch, "-std=c++17", "-lineinfo", "-I" + dir, "-o", ptx.toString()));
      if (fastMath) {
        command.addAll(List.of("--use_fast_math", "-DKILN_FAST_MATH=1"));
      } else {
        command.addAll(List.of("--fmad=false", "-prec-div=true", "-prec-sqrt=true"));
      }
      command.add(cu.toString());
      Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
      String output;
      try (InputStream in = process.getInputStream()) {
        output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return new Outcome(null, "nvcc did not finish within " + TIMEOUT_SECONDS + " s", null);
      }
      if (process.exitValue() != 0 || !Files.exists(ptx)) {
        return new Outcome(null, String.join(" ", command) + "\n" + output.strip(), operatorAt(source, output));
      }
      return new Outcome(Files.readString(ptx, StandardCharsets.UTF_8), output, null);
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** The kernel or device function around nvcc's first error line, if it names one. */
  static String operatorAt(String source, String output) {
    Matcher m = ERROR_LINE.matcher(output);
    if (!m.find()) {
      return null;
    }
    String[] lines = source.split("\n", -1);
    Pattern def = Pattern.compile("(?:__global__|__device__)[^(]*\\s(\\w+)\\(");
    for (int i = Math.min(Integer.parseInt(m.group(1)), lines.length) - 1; i >= 0; i--) {
      Matcher d = def.matcher(lines[i]);
      if (d.find()) {
        return d.group(1);
      }
    }
    return null;
  }
}
