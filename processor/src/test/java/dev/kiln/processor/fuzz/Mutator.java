package dev.kiln.processor.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes a well-formed generated class malformed with one mutation of one operator that keeps it
 * valid Java but puts it outside the operator language: statements Kiln does not accept ({@code
 * while}, {@code do}, {@code switch}, {@code try}, {@code synchronized}, {@code throw}, {@code
 * return} in a grid, loops in an elementwise operator, {@code @Parallel} loops inside a worker or
 * not perfectly nested, sequential loops of the wrong form, statements before or after the grid),
 * expressions it does not accept ({@code x.length}, {@code k++} inside an expression, char and
 * string values, mutable fields, calls of non-operator methods and of {@code System}, recursion),
 * allocation, writes to inputs and parameters, reads of outputs, races (every worker writing
 * {@code out[0]}, a non-affine index), constant out-of-bounds indices, wrong {@code @Reduce}
 * updates (a wider term, {@code -=}, {@code =}), a worker assigning a local declared before the
 * grid, an overloaded operator name, and broken signatures ({@code @Shape} missing, naming a non-{@code @Dim}, malformed;
 * {@code @Dim float}; {@code @Out} on a scalar; object and char-array parameters, {@code @Reduce} on a short array; an output never
 * written; a non-static operator; a {@code @Parallel} loop from 1 or to {@code N - 1}).
 */
final class Mutator {
  /** The mutated class, the mutation's name, the operator it changed and the id it should get. */
  record Mutant(String mutation, String operator, String expectedId, String source) {}

  /** One operator of the class and where its text lies. */
  private record Target(GeneratedClass generated, OperatorSpec op, int start, int end, List<String> gridVars, List<String> gridDims) {
    String source() {
      return generated.source();
    }

    boolean grid() {
      return op instanceof OperatorSpec.Grid;
    }

    List<OperatorSpec.Array> arrays(OperatorSpec.Role role) {
      List<OperatorSpec.Array> out = new ArrayList<>();
      if (op instanceof OperatorSpec.Grid g) {
        for (OperatorSpec.Param p : g.params()) {
          if (p instanceof OperatorSpec.Array a && a.role() == role) {
            out.add(a);
          }
        }
      }
      return out;
    }

    String dim() {
      for (OperatorSpec.Param p : ((OperatorSpec.Grid) op).params()) {
        if (p instanceof OperatorSpec.Dim d) {
          return d.name();
        }
      }
      throw new IllegalStateException("a grid operator without @Dim");
    }

    /** The source with {@code statement} inserted after the marker {@code /*@kind:name*}{@code /}. */
    String insert(char kind, String statement) {
      return insert(source(), kind, statement);
    }

    /** Two insertions, at two markers. */
    String insert(char kind, String statement, char kind2, String statement2) {
      String once = insert(kind, statement);
      return once == null ? null : insert(once, kind2, statement2);
    }

    private String insert(String source, char kind, String statement) {
      String marker = "/*@" + kind + ":" + op.name() + "*/";
      int at = source.indexOf(marker);
      return at < 0 ? null : source.substring(0, at + marker.length()) + " " + statement + source.substring(at + marker.length());
    }

    /** The source with the first {@code from} in this operator's text replaced by {@code to}. */
    String replace(String from, String to) {
      int at = source().indexOf(from, start);
      return at < 0 || at >= end ? null : source().substring(0, at) + to + source().substring(at + from.length());
    }

    /** The source with {@code parameter} added first to the operator's parameters. */
    String addParameter(String parameter) {
      boolean none = source().startsWith("()", source().indexOf(" " + op.name() + "(", start) + op.name().length() + 1);
      return replace(" " + op.name() + "(", " " + op.name() + "(" + parameter + (none ? "" : ", "));
    }

    /** The source with a member added at the end of the class. */
    String addMember(String member, String source) {
      if (source == null) {
        return null;
      }
      int last = source.lastIndexOf('}');
      return source.substring(0, last) + "\n  " + member + "\n}\n";
    }
  }

  private record Mutation(String name, String expectedId, Function<Target, String> apply) {}

  /** A new input over the innermost grid dimension, read at its grid variable {@code offset} with no guard. */
  private static String edgeRead(Target t, String offset) {
    int last = t.gridVars.size() - 1;
    String added = t.addParameter("@Shape(\"" + t.gridDims.get(last) + "\") float[] kilnFuzzEdge");
    if (added == null) {
      return null;
    }
    String marker = "/*@W:" + t.op.name() + "*/";
    int at = added.indexOf(marker);
    return at < 0 ? null : added.substring(0, at + marker.length()) + " float kilnFuzzE = kilnFuzzEdge["
        + t.gridVars.get(last) + " " + offset + "];" + added.substring(at + marker.length());
  }

  private static final String HELPER = "static float kilnFuzzHelper(float v) { return v; }";
  private static final String FIELD = "static float kilnFuzzState = 1f;";

  private static final List<Mutation> GRID = List.of(
      new Mutation("while loop", "KILN001", t -> t.insert('W', "while (" + t.dim() + " < 0) { break; }")),
      new Mutation("do-while loop", "KILN001", t -> t.insert('W', "do { } while (false);")),
      new Mutation("switch", "KILN001", t -> t.insert('W', "switch (" + t.dim() + ") { default: break; }")),
      new Mutation("try-finally", "KILN001", t -> t.insert('W', "try { } finally { }")),
      new Mutation("synchronized", "KILN001", t -> t.insert('W', "synchronized (" + t.generated.simpleName() + ".class) { }")),
      new Mutation("throw", "KILN001", t -> t.insert('W', "if (" + t.dim() + " < 0) throw new IllegalStateException();")),
      new Mutation("return in a grid operator", "KILN001", t -> t.insert('W', "if (" + t.dim() + " < 0) { return; }")),
      new Mutation("continue", "KILN001", t -> t.insert('W', "for (int kilnFuzzQ = 0; kilnFuzzQ < " + t.dim() + "; kilnFuzzQ++) { continue; }")),
      new Mutation("write to an input", "KILN019", t -> first(t.arrays(OperatorSpec.Role.IN), a -> t.insert('W', a.name() + "[0] = 0;"))),
      new Mutation("read of an output", "KILN020", t -> first(t.arrays(OperatorSpec.Role.OUT), a -> t.insert('W', "double kilnFuzzRead = " + a.name() + "[0];"))),
      new Mutation("read of a reduced output", "KILN020", t -> first(t.arrays(OperatorSpec.Role.REDUCE), a -> t.insert('W', "double kilnFuzzRead = " + a.name() + "[0];"))),
      new Mutation("every worker writes out[0]", "KILN007", t -> t.gridVars.isEmpty() ? null : first(t.arrays(OperatorSpec.Role.OUT), a -> t.insert('W', a.name() + "[0] = 0;"))),
      new Mutation("non-affine write index", "KILN007", t -> t.gridVars.isEmpty() ? null : first(t.arrays(OperatorSpec.Role.OUT),
          a -> t.insert('W', a.name() + "[(" + t.gridVars.get(0) + " * " + t.gridVars.get(0) + ") % " + t.gridDims.get(0) + "] = 0;"))),
      new Mutation("allocation", "KILN005", t -> t.insert('W', "float[] kilnFuzzTmp = new float[1];")),
      new Mutation("call of a non-operator method", "KILN003", t -> t.addMember(HELPER, t.insert('W', "float kilnFuzzH = kilnFuzzHelper(1f);"))),
      new Mutation("call of System.nanoTime", "KILN003", t -> t.insert('W', "long kilnFuzzT = System.nanoTime();")),
      new Mutation("array length", "KILN002", t -> first(t.arrays(OperatorSpec.Role.IN), a -> t.insert('W', "int kilnFuzzLen = " + a.name() + ".length;"))),
      new Mutation("increment inside an expression", "KILN002", t -> t.insert('W', "int kilnFuzzC = 0; int kilnFuzzD = kilnFuzzC++;")),
      new Mutation("string local", "KILN024", t -> t.insert('W', "String kilnFuzzS = \"s\";")),
      new Mutation("char literal", "KILN006", t -> t.insert('W', "int kilnFuzzCh = 'a';")),
      new Mutation("mutable field", "KILN006", t -> t.addMember(FIELD, t.insert('W', "float kilnFuzzF = kilnFuzzState;"))),
      new Mutation("@Parallel loop inside the worker", "KILN017", t -> t.gridVars.isEmpty() ? null
          : t.insert('W', "for (@Parallel int kilnFuzzQ = 0; kilnFuzzQ < " + t.dim() + "; kilnFuzzQ++) { }")),
      new Mutation("statement between @Parallel loops", "KILN017", t -> t.insert('B', "float kilnFuzzZ = 0f;")),
      new Mutation("counting-down loop", "KILN025", t -> t.insert('W', "for (int kilnFuzzQ = " + t.dim() + "; kilnFuzzQ > 0; kilnFuzzQ--) { }")),
      new Mutation("assignment to a grid variable", "KILN011", t -> t.gridVars.isEmpty() ? null : t.insert('W', t.gridVars.get(t.gridVars.size() - 1) + " = 0;")),
      // edge reads: out of bounds for some worker at every size (KILN047, naming the worker)
      new Mutation("unguarded read past the end", "KILN047", t -> t.gridVars.isEmpty() ? null
          : edgeRead(t, "+ 1")),
      new Mutation("unguarded read before the start", "KILN047", t -> t.gridVars.isEmpty() ? null
          : edgeRead(t, "- 1")),
      new Mutation("negative constant index", "KILN008", t -> first(t.arrays(OperatorSpec.Role.IN), a -> t.insert('W', "double kilnFuzzO = " + a.name() + "[-1];"))),
      new Mutation("reduction with -=", "KILN021", t -> first(t.arrays(OperatorSpec.Role.REDUCE), a -> t.insert('W', a.name() + "[0] -= 1;"))),
      new Mutation("reduction with =", "KILN021", t -> first(t.arrays(OperatorSpec.Role.REDUCE), a -> t.insert('W', a.name() + "[0] = 1;"))),
      new Mutation("float term of an int reduction", "KILN021", t -> first(t.arrays(OperatorSpec.Role.REDUCE),
          a -> a.element() != FuzzType.INT ? null : t.insert('W', a.name() + "[0] += 0.5f * " + t.dim() + ";"))),
      new Mutation("worker assigns a local declared before the grid", "KILN036", t -> t.gridVars.isEmpty() ? null
          : t.insert('W', "kilnFuzzShared += 1f;", 'P', "float kilnFuzzShared = 0f;")),
      new Mutation("write to an output before the grid", "KILN026", t -> t.gridVars.isEmpty() ? null : first(t.arrays(OperatorSpec.Role.OUT), a -> t.insert('P', a.name() + "[0] = 0;"))),
      new Mutation("statement after the grid", "KILN026", t -> t.insert('A', "float kilnFuzzZ = 0f;")),
      new Mutation("array without @Shape", "KILN014", t -> first(t.arrays(OperatorSpec.Role.IN), a -> t.replace(declaration(a), a.element().javaName() + "[] " + a.name()))),
      new Mutation("@Shape naming a non-@Dim", "KILN009", t -> first(t.arrays(OperatorSpec.Role.IN),
          a -> t.replace(declaration(a), "@Shape(\"Q\") " + a.element().javaName() + "[] " + a.name()))),
      new Mutation("malformed @Shape", "KILN023", t -> first(t.arrays(OperatorSpec.Role.OUT),
          a -> t.replace(declaration(a), "@Shape(\"" + t.dim() + " +\") " + a.element().javaName() + "[] " + a.name()))),
      new Mutation("@Dim float", "KILN015", t -> t.addParameter("@Dim float kilnFuzzDim")),
      new Mutation("@Out on a scalar", "KILN018", t -> t.addParameter("@Out float kilnFuzzScalar")),
      new Mutation("object parameter", "KILN013", t -> t.addParameter("String kilnFuzzName")),
      new Mutation("char[] parameter", "KILN013", t -> t.addParameter("@Shape(\"" + t.dim() + "\") char[] kilnFuzzChars")),
      new Mutation("@Reduce on a short[]", "KILN013", t -> t.addParameter("@Out @Reduce @Shape(\"" + t.dim() + "\") short[] kilnFuzzShorts")),
      new Mutation("output never written", "KILN010", t -> t.addParameter("@Out @Shape(\"" + t.dim() + "\") float[] kilnFuzzUnused")),
      new Mutation("@Parallel loop from 1", "KILN011", t -> t.gridVars.isEmpty() ? null
          : t.replace("int " + t.gridVars.get(0) + " = 0;", "int " + t.gridVars.get(0) + " = 1;")),
      // N + 1 is a bound made of @Dims, which Kiln accepts; N - 1 could be negative, and is refused
      new Mutation("@Parallel loop to N - 1", "KILN011", t -> t.gridVars.isEmpty() ? null
          : t.replace(t.gridVars.get(0) + " < " + t.gridDims.get(0) + ";", t.gridVars.get(0) + " < " + t.gridDims.get(0) + " - 1;")),
      new Mutation("non-static operator", "KILN012", t -> t.replace("public static void " + t.op.name() + "(", "public void " + t.op.name() + "(")));

  private static final List<Mutation> ELEMENTWISE = List.of(
      new Mutation("loop in an elementwise operator", "KILN030", t -> t.insert('E', "for (int kilnFuzzK = 0; kilnFuzzK < 2; kilnFuzzK++) { }")),
      new Mutation("while loop", "KILN001", t -> t.insert('E', "while (" + param(t, 0) + " != " + param(t, 0) + ") { }")),
      new Mutation("throw", "KILN001", t -> t.insert('E', "if (" + param(t, 0) + " != " + param(t, 0) + ") throw new IllegalArgumentException();")),
      new Mutation("assignment to a parameter", "KILN022", t -> t.insert('E', param(t, 0) + " = " + ((OperatorSpec.Elementwise) t.op).paramTypes().get(0).literal(1) + ";")),
      new Mutation("recursion", "KILN004", t -> t.insert('E', "if (" + param(t, 0) + " != " + param(t, 0) + ") { return " + t.op.name() + "("
          + String.join(", ", ((OperatorSpec.Elementwise) t.op).paramNames()) + "); }")),
      new Mutation("call of System.nanoTime", "KILN003", t -> t.insert('E', "long kilnFuzzT = System.nanoTime();")),
      new Mutation("call of a non-operator method", "KILN003", t -> t.addMember(HELPER, t.insert('E', "float kilnFuzzH = kilnFuzzHelper(1f);"))),
      new Mutation("allocation", "KILN005", t -> t.insert('E', "float[] kilnFuzzA = new float[2];")),
      new Mutation("string local", "KILN024", t -> t.insert('E', "String kilnFuzzS = \"x\";")),
      new Mutation("char literal", "KILN006", t -> t.insert('E', "int kilnFuzzCh = 'c';")),
      new Mutation("mutable field", "KILN006", t -> t.addMember(FIELD, t.insert('E', "float kilnFuzzF = kilnFuzzState;"))),
      new Mutation("array parameter", "KILN014", t -> t.addParameter("float[] kilnFuzzArray")),
      new Mutation("non-static operator", "KILN012", t -> t.replace("public static " + ((OperatorSpec.Elementwise) t.op).result().javaName() + " ", "public "
          + ((OperatorSpec.Elementwise) t.op).result().javaName() + " ")),
      new Mutation("overloaded operator", "KILN032", t -> t.addMember("@Operator public static boolean " + t.op.name()
          + "(boolean a, boolean b, boolean c, boolean d, boolean e, boolean f) { return a; }", t.source())));

  private Mutator() {}

  /** One random applicable mutation of one random operator of {@code g}. */
  static Mutant mutate(GeneratedClass g, SplittableRandom r) {
    for (int attempt = 0; attempt < 100; attempt++) {
      List<OperatorSpec> grids = g.operators().stream().filter(o -> o instanceof OperatorSpec.Grid).toList();
      OperatorSpec op = !grids.isEmpty() && r.nextInt(5) < 3 ? Picks.one(r, grids) : Picks.one(r, g.operators());
      Target t = target(g, op);
      Mutation m = Picks.one(r, t.grid() ? GRID : ELEMENTWISE);
      String source = m.apply.apply(t);
      if (source != null) {
        return new Mutant(m.name, op.name(), m.expectedId, source);
      }
    }
    throw new IllegalStateException("no mutation applies to seed " + g.seed());
  }

  private static final Pattern PARALLEL = Pattern.compile("for \\(@Parallel int (\\w+) = 0; \\1 < (\\w+); \\1\\+\\+\\)");

  private static Target target(GeneratedClass g, OperatorSpec op) {
    String src = g.source();
    int name = src.indexOf(" " + op.name() + "(");
    int start = src.lastIndexOf("@Operator", name);
    int next = src.indexOf("  @Operator", name);
    int end = next < 0 ? src.length() : next;
    List<String> vars = new ArrayList<>();
    List<String> dims = new ArrayList<>();
    Matcher m = PARALLEL.matcher(src).region(start, end);
    while (m.find()) {
      vars.add(m.group(1));
      dims.add(m.group(2));
    }
    return new Target(g, op, start, end, vars, dims);
  }

  private static String param(Target t, int k) {
    return ((OperatorSpec.Elementwise) t.op).paramNames().get(k);
  }

  private static String declaration(OperatorSpec.Array a) {
    return "@Shape(\"" + a.shapeText() + "\") " + a.element().javaName() + "[] " + a.name();
  }

  private static <T> String first(List<T> options, Function<T, String> f) {
    return options.isEmpty() ? null : f.apply(options.get(0));
  }
}
