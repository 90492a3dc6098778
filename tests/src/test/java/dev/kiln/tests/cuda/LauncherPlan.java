package dev.kiln.tests.cuda;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a generated CPU composite launcher ({@code fGrad(...)} of {@code <Class>Kernels.java} in
 * this module's generated sources) does after checking its arguments, read from its source: derived
 * sizes ({@code final int extent0 = Checks.size(..., expr)}), temporaries ({@code final float[] t =
 * new float[Checks.size(..., expr)]}, zero-filled) and the kernel calls {@code fGrad_k<n>(names...)},
 * in order. The host emulation replays it with the CUDA kernels of the same names.
 */
final class LauncherPlan {
  /** A statement: a derived int size, a temporary array, or a kernel call. */
  sealed interface Step permits Size, Temporary, Call {}

  record Size(String name, String expression) implements Step {}

  record Temporary(String name, String elementType, String length) implements Step {}

  record Call(String kernel, List<String> arguments) implements Step {}

  private static final String STRING = "\"(?:[^\"\\\\]|\\\\.)*\"";
  private static final Pattern SIZE = Pattern.compile(
      "final int ([\\w$]+) = Checks\\.size\\(" + STRING + ", " + STRING + ", (.*?)\\);");
  private static final Pattern TEMPORARY = Pattern.compile(
      "final (float|double|int)\\[\\] ([\\w$]+) = new (?:float|double|int)\\[Checks\\.size\\(" + STRING + ", " + STRING + ", (.*?)\\)\\];");

  final List<Step> steps;

  private LauncherPlan(List<Step> steps) {
    this.steps = steps;
  }

  /** The generated source of {@code owner}'s Kernels class, or null where this is not the tests module's build. */
  static Path source(Class<?> owner) {
    String base = System.getProperty("basedir", System.getProperty("user.dir"));
    Path p = Paths.get(base, "target", "generated-sources", "annotations",
        owner.getName().replace('.', '/') + "Kernels.java");
    return Files.isRegularFile(p) ? p : null;
  }

  /**
   * The plan of CPU launcher {@code name} with parameter names {@code params}, found in {@code
   * source} as the body of {@code public static void name(params...)} whose first parameter is not
   * a stream; kernel calls are calls of {@code name_k<n>}.
   */
  static LauncherPlan parse(Path source, String name, List<String> params) throws IOException {
    String text = Files.readString(source, StandardCharsets.UTF_8);
    Pattern header = Pattern.compile("public static void " + Pattern.quote(name) + "\\(([^)]*)\\) \\{\\n");
    Matcher h = header.matcher(text);
    String body = null;
    while (h.find()) {
      List<String> names = new ArrayList<>();
      for (String decl : h.group(1).split(",")) {
        String[] words = decl.trim().split("\\s+");
        names.add(words[words.length - 1]);
      }
      if (names.equals(params) && !h.group(1).contains("CudaStream")) {
        int end = text.indexOf("\n  }\n", h.end());
        body = text.substring(h.end(), end);
        break;
      }
    }
    if (body == null) {
      throw new IllegalStateException("no CPU launcher " + name + params + " in " + source);
    }
    String flat = body.replaceAll("\\s*\\n\\s*", " ");
    List<Step> steps = new ArrayList<>();
    Pattern any = Pattern.compile(SIZE.pattern() + "|" + TEMPORARY.pattern() + "|(?<![\\w$.])(" + Pattern.quote(name)
        + "_k\\d+)\\(([^()]*)\\);");
    Matcher m = any.matcher(flat);
    while (m.find()) {
      if (m.group(1) != null) {
        steps.add(new Size(m.group(1), m.group(2)));
      } else if (m.group(3) != null) {
        steps.add(new Temporary(m.group(4), m.group(3), m.group(5)));
      } else {
        List<String> args = m.group(7).isBlank() ? List.of()
            : Arrays.stream(m.group(7).split(",")).map(String::trim).toList();
        steps.add(new Call(m.group(6), args));
      }
    }
    return new LauncherPlan(steps);
  }

  /** The kernels called, in order. */
  List<String> kernels() {
    return steps.stream().filter(s -> s instanceof Call).map(s -> ((Call) s).kernel()).toList();
  }

  /**
   * Evaluates a size expression of the generated code: {@code Checks.mul(a, b)}, {@code
   * Checks.add(a, b)}, {@code Checks.sub(a, b)}, {@code (long) a}, {@code (int) a}, long or int
   * literals (possibly negative) and names bound in {@code env}.
   */
  static long eval(String expression, Map<String, Object> env) {
    return new Evaluator(expression.trim(), env).expression();
  }

  private static final class Evaluator {
    private final String text;
    private final Map<String, Object> env;
    private int pos;

    Evaluator(String text, Map<String, Object> env) {
      this.text = text;
      this.env = env;
    }

    long expression() {
      long v = term();
      skip();
      if (pos != text.length()) {
        throw new IllegalArgumentException("unexpected '" + text.substring(pos) + "' in size expression " + text);
      }
      return v;
    }

    private long term() {
      skip();
      for (String cast : List.of("(long)", "(int)")) {
        if (text.startsWith(cast, pos)) {
          pos += cast.length();
          return term();
        }
      }
      if (text.startsWith("(", pos)) {
        pos++;
        long v = term();
        expect(")");
        return v;
      }
      Matcher call = Pattern.compile("Checks\\.(mul|add|sub)\\(").matcher(text).region(pos, text.length());
      if (call.lookingAt()) {
        pos = call.end();
        long a = term();
        expect(",");
        long b = term();
        expect(")");
        return switch (call.group(1)) {
          case "mul" -> Math.multiplyExact(a, b);
          case "add" -> Math.addExact(a, b);
          default -> Math.subtractExact(a, b);
        };
      }
      Matcher literal = Pattern.compile("-?\\d+[lL]?").matcher(text).region(pos, text.length());
      if (literal.lookingAt()) {
        pos = literal.end();
        return Long.parseLong(literal.group().replaceAll("[lL]$", ""));
      }
      Matcher name = Pattern.compile("[A-Za-z_$][\\w$]*").matcher(text).region(pos, text.length());
      if (name.lookingAt() && env.get(name.group()) instanceof Number n) {
        pos = name.end();
        return n.longValue();
      }
      throw new IllegalArgumentException("cannot evaluate '" + text.substring(pos) + "' in size expression " + text);
    }

    private void expect(String s) {
      skip();
      if (!text.startsWith(s, pos)) {
        throw new IllegalArgumentException("expected '" + s + "' at '" + text.substring(pos) + "' in " + text);
      }
      pos += s.length();
    }

    private void skip() {
      while (pos < text.length() && text.charAt(pos) == ' ') {
        pos++;
      }
    }
  }
}
