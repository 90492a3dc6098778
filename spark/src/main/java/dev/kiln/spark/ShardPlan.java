package dev.kiln.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An operator's shard plan, as the Kiln processor wrote it in {@code
 * META-INF/kiln/<package>/<Class>.shards.json}: the size it can be split along and each
 * parameter's role, or why it cannot be split.
 *
 * @param refusals for each size the processor tried and refused, why
 */
public record ShardPlan(String owner, String operator, String dim, List<Param> params, Poly rowBytes, Poly rowWork,
    Poly wholeBytes, List<String> refusals) implements Serializable {
  /** The roles of {@code .shards.json}: see {@code ShardReport.Role} in the processor. */
  public enum Role { SHARD_SIZE, SIZE, SCALAR, OFFSET, ROWS, WHOLE, REDUCE, SUM }

  /**
   * A parameter: its role; for arrays whether the operator writes it, a reduction's operator ({@code
   * + * max min}), the element type ({@code float}) and the length (of one row for {@code rows}
   * arrays); null where they do not apply.
   */
  public record Param(String name, Role role, boolean written, String reduce, String type, Poly length) implements Serializable {
    Param(String name, Role role) {
      this(name, role, false, null, null, null);
    }

    /** The element class of an array parameter. */
    Class<?> elementClass() {
      return switch (type) {
        case "float" -> float.class;
        case "double" -> double.class;
        case "int" -> int.class;
        case "long" -> long.class;
        case "short" -> short.class;
        case "byte" -> byte.class;
        default -> throw new IllegalStateException("array of " + type);
      };
    }
  }

  /** The parameter named {@code name}. */
  public Param param(String name) {
    return params.stream().filter(p -> p.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("operator '" + operator + "' has no parameter '" + name + "'"));
  }

  /** Whether the operator can be split. */
  public boolean shardable() {
    return dim != null;
  }

  private static final int VERSION = 1;

  /** The plan of {@code operator} of the class {@code owner} (the class declaring the {@code @Operator} methods). */
  public static ShardPlan of(Class<?> owner, String operator) {
    String resource = "META-INF/kiln/" + baseName(owner).replace('.', '/') + ".shards.json";
    ClassLoader loader = owner.getClassLoader() != null ? owner.getClassLoader() : ClassLoader.getSystemClassLoader();
    try (InputStream in = loader.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no shard plans for " + owner.getName() + ": " + resource
            + " is not on the class path (compile the class with the Kiln processor of this version)");
      }
      JsonNode root = new ObjectMapper().readTree(in);
      if (root.path("version").asInt() != VERSION) {
        throw new IllegalArgumentException(resource + " is version " + root.path("version") + "; this kiln-spark reads version " + VERSION);
      }
      List<String> known = new ArrayList<>();
      for (JsonNode op : root.path("operators")) {
        known.add(op.path("name").asText());
        if (op.path("name").asText().equals(operator)) {
          return read(owner.getName(), op);
        }
      }
      throw new IllegalArgumentException(owner.getSimpleName() + " has no grid or composite operator '" + operator
          + "' (its operators: " + known + ")");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }

  /** {@code <package>.<Outer_Inner>}: the name Kiln gives a class's generated files ({@code <base>Kernels}, {@code <base>.shards.json}). */
  static String baseName(Class<?> owner) {
    String pkg = owner.getPackageName();
    String simple = pkg.isEmpty() ? owner.getName() : owner.getName().substring(pkg.length() + 1);
    return (pkg.isEmpty() ? "" : pkg + ".") + simple.replace('$', '_');
  }

  private static ShardPlan read(String owner, JsonNode op) {
    List<String> refusals = new ArrayList<>();
    op.path("refusals").forEach(r -> refusals.add(r.asText()));
    JsonNode shard = op.path("shard");
    if (shard.isMissingNode()) {
      return new ShardPlan(owner, op.path("name").asText(), null, List.of(), null, null, null, refusals);
    }
    List<Param> params = new ArrayList<>();
    for (JsonNode p : shard.path("params")) {
      Role role = Role.valueOf(p.path("role").asText().toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
      String io = p.path("io").asText("");
      params.add(new Param(p.path("name").asText(), role, io.equals("out") || io.equals("reduce"),
          p.has("reduce") ? p.path("reduce").asText() : null, p.has("type") ? p.path("type").asText() : null,
          p.has("length") ? Poly.parse(p.path("length").asText()) : null));
    }
    return new ShardPlan(owner, op.path("name").asText(), shard.path("dim").asText(), params,
        Poly.parse(shard.path("rowBytes").asText()), Poly.parse(shard.path("rowWork").asText()),
        Poly.parse(shard.path("wholeBytes").asText()), refusals);
  }

  /** A polynomial of sizes as the processor writes it ({@code 8*N + 3}, {@code 2*K*N - 1}), evaluated at given sizes. */
  public record Poly(String text, List<Term> terms) implements Serializable {
    record Term(long coefficient, List<String> symbols) implements Serializable {}

    static Poly parse(String text) {
      List<Term> terms = new ArrayList<>();
      String[] tokens = text.trim().split(" ");
      long sign = 1;
      for (String t : tokens) {
        if (t.equals("+")) {
          sign = 1;
        } else if (t.equals("-")) {
          sign = -1;
        } else {
          long c = sign;
          List<String> symbols = new ArrayList<>();
          String body = t;
          if (body.startsWith("-")) {
            c = -c;
            body = body.substring(1);
          }
          for (String f : body.split("\\*")) {
            if (f.chars().allMatch(Character::isDigit)) {
              c *= Long.parseLong(f);
            } else {
              symbols.add(f);
            }
          }
          terms.add(new Term(c, symbols));
        }
      }
      return new Poly(text, terms);
    }

    /** The value at {@code sizes} (every symbol must be there). */
    public double at(Map<String, Long> sizes) {
      double v = 0;
      for (Term t : terms) {
        double x = t.coefficient();
        for (String s : t.symbols()) {
          Long size = sizes.get(s);
          if (size == null) {
            throw new IllegalStateException("no size '" + s + "' for " + text);
          }
          x *= size;
        }
        v += x;
      }
      return v;
    }

    @Override
    public String toString() {
      return text;
    }
  }
}
