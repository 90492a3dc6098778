package dev.kiln.processor.codegen.cpu;

import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.FLOAT_VECTOR;
import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.SPECIES;

import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.codegen.BodyEmitter;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.analysis.LaneNest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Writes a {@link LaneNest} (a sum the source splits into {@code L} strided partial sums) with
 * vectors, in the source's order: lane {@code j} of the block starting at {@code kb} takes the term
 * at {@code kb + j}, so each block is {@code L / SPECIES.length()} unit-stride vectors, one
 * accumulator each, and every lane folds its terms in the source's order. The last terms (fewer
 * than a block) are folded one by one into the lanes' partials, spilled to an array; then each
 * total takes the partials in lane order, as the outer loop does. The same operations on the same
 * floats in the same order: the source's bits, with no chain of dependent adds a term.
 */
final class LaneSums {
  private LaneSums() {}

  /** Lanes a nest may have here: 16 to 128 in steps of 16, so that every vector length (4, 8, 16) divides it. */
  static final int MAX_LANES = 128;

  /** The inner loop of {@code n} from 0 with step 1: its vector step's view (the lanes of a block). */
  static Stmt.Loop unitView(LaneNest n) {
    Stmt.Loop in = n.inner();
    return new Stmt.Loop(in.id(), in.index(), n.outer().lo(), in.hi(), 1, in.guard(), in.carried(), in.body(), in.origin());
  }

  /** Null when {@link #lower} writes {@code n} as vectors; else why not. */
  static String refusal(LaneNest n) {
    if (n.lanes() % 16 != 0 || n.lanes() > MAX_LANES) {
      return "a lane sum has " + n.lanes() + " lanes, not a multiple of 16 up to " + MAX_LANES;
    }
    Stmt.Loop unit = unitView(n);
    String why = SimdPlan.loopRefusal(unit);
    if (why != null) {
      return why;
    }
    for (SimdPlan.Fold f : SimdPlan.folds(unit)) {
      if (f.kind() != SimdPlan.FoldKind.IN_ORDER && f.kind() != SimdPlan.FoldKind.MAX
          && f.kind() != SimdPlan.FoldKind.MIN) {
        return "a lane sum carries " + f.carried().phi().name() + " by other than one arithmetic operation, max or min";
      }
      if (!(f.carried().init() instanceof Expr.Const) || f.carried().init().type() != ScalarType.FLOAT) {
        return "a lane sum's partial " + f.carried().phi().name() + " does not start from a float literal";
      }
    }
    return null;
  }

  /** Writes {@code n}, accepted by {@link #refusal}, through {@code emitter}, binding the outer loop's results. */
  static void lower(SimdLoops loops, LaneNest n, BodyEmitter emitter) {
    loops.startLoop();
    Stmt.Loop outerLoop = n.outer();
    Stmt.Loop unit = unitView(n);
    List<SimdPlan.Fold> partials = SimdPlan.folds(unit);
    List<Stmt.Carried> totals = outerLoop.carried();
    List<String> totalNames = new ArrayList<>();
    for (Stmt.Carried c : totals) {
      String name = loops.names().fresh(c.phi().name());
      emitter.add(CodeBlock.builder().addStatement("$T $N = $L", float.class, name, emitter.expr(c.init())).build());
      totalNames.add(name);
    }
    boolean outline = loops.outlines(unit);
    Map<Expr.Var, String> captured = new LinkedHashMap<>();
    Function<Expr.Var, CodeBlock> outer = outline
        ? v -> CodeBlock.of("$N", captured.computeIfAbsent(v, x -> loops.names().fresh(x.name())))
        : emitter::expr;
    String loName = outline ? loops.names().fresh("from") : null;
    String hiName = outline ? loops.names().fresh("to") : null;
    CodeBlock hi = outline ? CodeBlock.of("$N", hiName) : emitter.expr(unit.hi());

    List<String> rows = new ArrayList<>();
    for (SimdPlan.Fold f : partials) {
      rows.add(loops.scratchArray(f.carried().phi().name() + "Lanes", CodeBlock.of("$L", n.lanes())));
    }
    // One branch per vector length, each with its own accumulators, none declared or assigned under
    // a condition: C2 boxes a vector merged from two branches (a block's vectors written under
    // if (L > v * SPECIES.length()) ran 1.6 times slower). SPECIES is a constant: one branch runs.
    // Outlined, each branch is a method of its own, so that the JIT compiles only the one called
    // (softmax's three branches of inlined exp made a kernel of 6.4 KB of bytecode).
    CodeBlock.Builder site = CodeBlock.builder();
    CodeBlock.Builder inPlace = CodeBlock.builder();
    for (int l = 0; l < VECTOR_LENGTHS.length; l++) {
      int length = VECTOR_LENGTHS[l];
      CodeBlock.Builder branch = CodeBlock.builder();
      if (l == 0) {
        branch.beginControlFlow("if ($N.length() == $L)", SPECIES, length);
      } else if (l < VECTOR_LENGTHS.length - 1) {
        branch.nextControlFlow("else if ($N.length() == $L)", SPECIES, length);
      } else {
        branch.nextControlFlow("else"); // the last length: Simd runs with no other
      }
      CodeBlock body = branch(loops, n, unit, partials, totals, totalNames, rows, length, hi, outer);
      if (outline) {
        CodeBlock call = loops.outline(unit, emitter, body.toBuilder(), SimdPlan.folds(outerLoop), totalNames, captured,
            loName, hiName);
        site.add(branch.build()).add(call);
      } else {
        inPlace.add(branch.build()).add(body);
      }
    }
    CodeBlock block = outline ? site.endControlFlow().build() : inPlace.endControlFlow().build();
    emitter.add(CodeBlock.of("{\n$>$L$<}\n", block));
    for (int t = 0; t < totals.size(); t++) {
      emitter.bind(totals.get(t).result(), totalNames.get(t), emitter.depth());
    }
  }

  /**
   * The whole nest for vectors of {@code length} floats: the blocks, the last terms one by one, then
   * each total taking the partials in lane order, as the source's outer loop adds them.
   */
  private static CodeBlock branch(SimdLoops loops, LaneNest n, Stmt.Loop unit, List<SimdPlan.Fold> partials,
      List<Stmt.Carried> totals, List<String> totalNames, List<String> rows, int length, CodeBlock hi,
      Function<Expr.Var, CodeBlock> outer) {
    int lanes = n.lanes();
    String end = loops.names().fresh("end");
    String kb = loops.names().fresh("block");
    CodeBlock.Builder code = CodeBlock.builder();
    code.addStatement("final int $N = $L", end, hi);
    code.addStatement("int $N = 0", kb);
    blocks(loops, unit, partials, lanes / length, length, end, kb, rows, outer, code);
    String k = loops.names().fresh(unit.index().name());
    code.beginControlFlow("for (int $N = $N; $N < $N; $N++)", k, kb, k, end, k);
    fold(loops, unit, partials, rows, CodeBlock.of("$N", k), CodeBlock.of("$N - $N", k, kb), outer, code);
    code.endControlFlow();
    String j = loops.names().fresh(n.outer().index().name());
    code.beginControlFlow("for (int $N = 0; $N < $L; $N++)", j, j, lanes, j);
    List<SimdPlan.Fold> totalFolds = SimdPlan.folds(n.outer());
    for (int t = 0; t < totals.size(); t++) {
      Stmt.Carried partial = n.partials().get(totals.get(t));
      int i = 0;
      while (partials.get(i).carried() != partial) {
        i++;
      }
      code.add(SimdLoops.scalarFold(totalFolds.get(t), CodeBlock.of("$N", totalNames.get(t)),
          CodeBlock.of("$N[$N]", rows.get(i), j)));
    }
    code.endControlFlow();
    return code.build();
  }

  /** The vector lengths a kernel may run with ({@code Simd}): each gets a branch of its own. */
  private static final int[] VECTOR_LENGTHS = {16, 8, 4};

  /**
   * The most vectors a pass over a row may take (their accumulators live in registers). 64 lanes
   * as eight vectors of 8 in one pass ran layer norm's forward pass twice as long as 32 lanes as
   * four (AVX2).
   */
  static final int MAX_VECTORS = 4;

  /**
   * The full blocks of {@code vectors} vectors of {@code length} floats each: one accumulator a
   * vector and partial, the terms at {@code kb + v * length} added to vector {@code v}'s, then the
   * accumulators into the lanes' rows. At most {@link #MAX_VECTORS} vectors a pass: longer blocks
   * run in several passes over the row, each taking its group of lanes (a lane's terms still in
   * order); {@code kb} ends at the first index past the full blocks.
   */
  private static void blocks(SimdLoops loops, Stmt.Loop unit, List<SimdPlan.Fold> partials, int vectors, int length,
      String end, String kb, List<String> rows, Function<Expr.Var, CodeBlock> outer, CodeBlock.Builder code) {
    int lanes = vectors * length;
    for (int g = 0; g < vectors; g += MAX_VECTORS) {
      int group = Math.min(MAX_VECTORS, vectors - g);
      code.addStatement("$N = 0", kb);
      List<List<String>> acc = new ArrayList<>();
      for (SimdPlan.Fold f : partials) {
        List<String> vs = new ArrayList<>();
        for (int v = 0; v < group; v++) {
          String name = loops.names().fresh(f.carried().phi().name() + "V");
          code.addStatement("$T $N = $T.broadcast($N, $L)", FLOAT_VECTOR, name, FLOAT_VECTOR, SPECIES,
              JavaLiterals.of((Expr.Const) f.carried().init()));
          vs.add(name);
        }
        acc.add(vs);
      }
      // (kb < end first: end - kb then cannot overflow)
      code.beginControlFlow("for (; $N < $N && $N - $N >= $L; $N += $L)", kb, end, end, kb, lanes, kb, lanes);
      for (int v = 0; v < group; v++) {
        code.add("{\n$>");
        String k = loops.names().fresh(unit.index().name());
        code.addStatement("final int $N = $N + $L", k, kb, (g + v) * length);
        VectorBody body = new VectorBody(SimdPlan.forLoop(unit), loops.names(), loops.sourceNames(),
            x -> x == unit.index() ? CodeBlock.of("$N", k) : outer.apply(x), code);
        // (each index once in the whole nest, into arrays the nest does not read: any order of the stores)
        for (Stmt st : unit.body()) {
          body.store((Stmt.Store) st);
        }
        for (int i = 0; i < partials.size(); i++) {
          SimdPlan.Fold f = partials.get(i);
          String a = acc.get(i).get(v);
          CodeBlock term = body.vector(f.term());
          if (f.kind() == SimdPlan.FoldKind.MAX || f.kind() == SimdPlan.FoldKind.MIN) {
            code.addStatement("$N = $N.$L($L)", a, a, f.kind() == SimdPlan.FoldKind.MAX ? "max" : "min", term);
          } else if (f.phiLeft()) {
            code.addStatement("$N = $N.$L($L)", a, a, vectorMethod(f), term);
          } else {
            code.addStatement("$N = $L.$L($N)", a, term, vectorMethod(f), a);
          }
        }
        code.add("$<}\n");
      }
      code.endControlFlow();
      for (int i = 0; i < partials.size(); i++) {
        for (int v = 0; v < group; v++) {
          code.addStatement("$N.intoArray($N, $L)", acc.get(i).get(v), rows.get(i), (g + v) * length);
        }
      }
    }
  }

  /** Scalar code for the iteration at index {@code k}: its stores, then its terms folded into the partials' rows at {@code lane}. */
  private static void fold(SimdLoops loops, Stmt.Loop unit, List<SimdPlan.Fold> partials, List<String> rows, CodeBlock k,
      CodeBlock lane, Function<Expr.Var, CodeBlock> outer, CodeBlock.Builder code) {
    String index = loops.names().fresh(unit.index().name());
    code.addStatement("final int $N = $L", index, k);
    VectorBody body = new VectorBody(SimdPlan.forLane(unit.index()), loops.names(), loops.sourceNames(),
        x -> x == unit.index() ? CodeBlock.of("$N", index) : outer.apply(x), code);
    SimdLoops.scalarStores(unit.body(), body, code);
    for (int i = 0; i < partials.size(); i++) {
      SimdPlan.Fold f = partials.get(i);
      code.add(SimdLoops.scalarFold(f, CodeBlock.of("$N[$L]", rows.get(i), lane), body.scalar(f.term())));
    }
  }

  /** The FloatVector method of an arithmetic fold. */
  private static String vectorMethod(SimdPlan.Fold f) {
    return switch (f.op()) {
      case ADD -> "add";
      case SUB -> "sub";
      case MUL -> "mul";
      case DIV -> "div";
      default -> throw new IllegalStateException("not an arithmetic fold: " + f.op());
    };
  }
}
