package dev.kiln.sample;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kernel counts read from Kiln's fusion reports on the class path
 * ({@code META-INF/kiln/<package>/<Class>.fusion.json}), so the benchmark prints what the build
 * produced rather than a number written by hand.
 */
final class FusionReport {
  /** An operator entry's head: its name, its pass, maybe what it is the gradient of, its kernel count. */
  private static final Pattern ENTRY = Pattern.compile(
      "\"name\"\\s*:\\s*\"([^\"]+)\"\\s*,\\s*\"pass\"\\s*:\\s*\"(\\w+)\"\\s*,"
          + "(?:\\s*\"gradientOf\"\\s*:\\s*\"[^\"]*\"\\s*,)?\\s*\"kernelCount\"\\s*:\\s*(\\d+)");
  private static final Map<String, Map<String, Integer>> CACHE = new HashMap<>();

  private FusionReport() {}

  /**
   * The kernels the launcher {@code operator} of {@code owner} starts: its count in the fusion
   * report, or 1 for an operator the report does not list (a grid operator is one kernel).
   */
  static synchronized int kernels(Class<?> owner, String operator) {
    Map<String, Integer> counts = CACHE.computeIfAbsent(owner.getName(), n -> read(owner));
    return counts.getOrDefault(operator, 1);
  }

  /** Like {@link #kernels}, but fails when the report does not list {@code operator}. */
  static int reported(Class<?> owner, String operator) {
    kernels(owner, operator);
    Integer n = CACHE.get(owner.getName()).get(operator);
    if (n == null) {
      throw new IllegalStateException("the fusion report of " + owner.getName() + " does not list " + operator);
    }
    return n;
  }

  private static Map<String, Integer> read(Class<?> owner) {
    String path = "/META-INF/kiln/" + owner.getName().replace('.', '/') + ".fusion.json";
    Map<String, Integer> counts = new HashMap<>();
    try (InputStream in = owner.getResourceAsStream(path)) {
      if (in == null) {
        return counts;
      }
      Matcher m = ENTRY.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      while (m.find()) {
        counts.put(m.group(1), Integer.parseInt(m.group(3)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(path, e);
    }
    return counts;
  }
}
