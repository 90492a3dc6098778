package dev.kiln.runtime.cuda;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the headers a generated {@code .cu} includes, for NVRTC, which has no file system: every
 * {@code #include "..."}, followed transitively ({@code kiln/kiln.cuh} brings {@code kiln/math.cuh},
 * {@code kiln/index.cuh} and {@code kiln/reduce.cuh}). Pure: the caller says how to read a header.
 */
final class CudaSources {
  private static final Pattern INCLUDE = Pattern.compile("(?m)^\\s*#\\s*include\\s*\"([^\"]+)\"");

  private CudaSources() {}

  /**
   * The headers the source includes, directly or not, by include name, in discovery order.
   *
   * @param reader a header's text by include name, or null when there is none
   * @throws IllegalStateException naming the header that the reader cannot find
   */
  static Map<String, String> headers(String source, Function<String, String> reader) {
    Map<String, String> headers = new LinkedHashMap<>();
    Deque<String> todo = new ArrayDeque<>();
    includes(source, todo);
    while (!todo.isEmpty()) {
      String name = todo.poll();
      if (headers.containsKey(name)) {
        continue;
      }
      String text = reader.apply(name);
      if (text == null) {
        throw new IllegalStateException(name);
      }
      headers.put(name, text);
      includes(text, todo);
    }
    return headers;
  }

  private static void includes(String text, Deque<String> todo) {
    Matcher m = INCLUDE.matcher(text);
    while (m.find()) {
      todo.add(m.group(1));
    }
  }
}
