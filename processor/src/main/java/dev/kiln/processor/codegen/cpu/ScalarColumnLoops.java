package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.codegen.BodyEmitter;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link ColumnLoops}' interchange in the scalar kernel: where each worker folds a sequential loop
 * down a column ({@code for b: s += x[b*N + n]}, a reduction down columns fused with its epilogue),
 * a block of up to {@link ColumnLoops#BLOCK} neighbouring workers keeps its running values in
 * arrays, and the rows go outermost. The plain form walks one column at a time, a cache line a row
 * and each addition waiting for the one before; here each row's block is read front to back and
 * the block's additions are independent of each other. Every worker still folds its own terms in
 * the loop's order, so the floats are the plain form's. The kernels that take it are those whose
 * lanes form is refused (a function with no bit-exact vector form in the epilogue, say) or that run
 * without the Vector API.
 *
 * <p>Applies where {@link ColumnLoops} does, when no array is both read and written except at one
 * index, the worker's own element (running the workers statement by statement, a block at a time,
 * then reads nothing another worker writes, and each element before it is written),
 * the loops' bounds do not depend on the worker, and every read's index is affine (a read the
 * argument checks cannot prove in bounds, a gather, keeps the plain order, so that an index out of
 * bounds is reported at the element the plain method reports).
 */
final class ScalarColumnLoops {
  private ScalarColumnLoops() {}

  static boolean applies(OperatorIr.Grid op) {
    if (!op.scratch().isEmpty() || !walksColumns(op)) {
      return false;
    }
    Expr.Var lane = op.grid().get(op.grid().size() - 1).var();
    Map<Param.Array, Set<Expr>> stored = new HashMap<>();
    Map<Param.Array, Set<Expr>> loaded = new HashMap<>();
    for (Stmt s : op.body()) {
      if (s instanceof Stmt.Loop l) {
        if (l.lo().dependsOn(lane) || l.hi().dependsOn(lane)) {
          return false;
        }
        for (Stmt.Carried c : l.carried()) {
          loads(c.init(), loaded);
          loads(c.next(), loaded);
        }
      } else {
        Stmt.Store st = (Stmt.Store) s;
        stored.computeIfAbsent(st.array(), a -> new HashSet<>()).add(st.index());
        loads(st.value(), loaded);
        loads(st.index(), loaded);
        loads(st.guard(), loaded);
      }
    }
    if (loaded.containsKey(null)) {
      return false;
    }
    // an array both read and written only at one index, the worker's own element (a record carried
    // from what the array holds and stored back): each lane reads it before any lane writes it
    for (Map.Entry<Param.Array, Set<Expr>> w : stored.entrySet()) {
      Set<Expr> reads = loaded.get(w.getKey());
      if (reads != null && (w.getValue().size() != 1 || !w.getValue().equals(reads))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code op} has {@link ColumnLoops}' shape and its loops walk down columns: every read in
   * them that depends on the innermost grid index has stride 1 in it (neighbouring workers read
   * neighbouring elements), so that a row of a block of workers is read front to back. (A worker
   * that walks its own row, {@code x[b*K + k]} over {@code k}, keeps the plain order.)
   */
  static boolean walksColumns(OperatorIr.Grid op) {
    if (!ColumnLoops.applies(op)) {
      return false;
    }
    Expr.Var lane = op.grid().get(op.grid().size() - 1).var();
    SimdPlan stride = SimdPlan.forLane(lane);
    for (Stmt s : op.body()) {
      if (s instanceof Stmt.Loop l) {
        for (Stmt.Carried c : l.carried()) {
          if (!readsUnitStride(c.next(), lane, stride) || !readsUnitStride(c.init(), lane, stride)) {
            return false;
          }
        }
      }
    }
    return true;
  }

  /** Whether every read in {@code e} that depends on {@code lane} is unit-stride in it. */
  private static boolean readsUnitStride(Expr e, Expr.Var lane, SimdPlan stride) {
    if (e instanceof Expr.Load l && l.index().dependsOn(lane) && !stride.unitStride(l.index())) {
      return false;
    }
    for (Expr o : e.operands()) {
      if (!readsUnitStride(o, lane, stride)) {
        return false;
      }
    }
    return true;
  }

  /** The indices at which {@code e} reads each array; a null key where a read's index is not affine (data-chosen). */
  private static void loads(Expr e, Map<Param.Array, Set<Expr>> out) {
    if (e instanceof Expr.Load l) {
      out.computeIfAbsent(l.array(), a -> new HashSet<>()).add(l.index());
      if (AffineAnalysis.affine(l.index()) == null) {
        out.put(null, Set.of());
      }
    }
    for (Expr o : e.operands()) {
      loads(o, out);
    }
  }

  /** One chunk, outermost grid indices {@code [lo, hi)}: the grid's outer loops, the innermost dimension in blocks. */
  static CodeBlock chunk(OperatorIr.Grid op, Names names, String lo, String hi) {
    int last = op.grid().size() - 1;
    Map<Expr.Var, String> outer = new LinkedHashMap<>();
    List<String> vars = new ArrayList<>();
    for (int k = 0; k < last; k++) {
      String v = names.fresh(op.grid().get(k).var().name());
      vars.add(v);
      outer.put(op.grid().get(k).var(), v);
    }
    CodeBlock code = last == 0 ? write(op, names, outer, lo, hi)
        : write(op, names, outer, "0", op.grid().get(last).extentText());
    for (int k = last - 1; k >= 0; k--) {
      code = GridKernelWriter.gridLoop(op, k, vars.get(k), lo, hi, code);
    }
    return code;
  }

  /** The workers {@code [start, end)} of the innermost grid dimension, block by block. */
  private static CodeBlock write(OperatorIr.Grid op, Names names, Map<Expr.Var, String> outer, String start, String end) {
    Expr.Var laneVar = op.grid().get(op.grid().size() - 1).var();
    String lane = names.fresh(laneVar.name());
    CodeBlock.Builder code = CodeBlock.builder();
    Map<Expr.Var, String> arrays = new LinkedHashMap<>(); // carried phi and result -> its array
    for (Stmt s : op.body()) {
      if (s instanceof Stmt.Loop l) {
        for (Stmt.Carried c : l.carried()) {
          String a = names.fresh(c.phi().name() + "Columns");
          code.addStatement("final float[] $N = new float[$T.min($L, $N - $N)]", a, Math.class, ColumnLoops.BLOCK, end,
              start);
          arrays.put(c.phi(), a);
          arrays.put(c.result(), a);
        }
      }
    }
    String block = names.fresh("block");
    String width = names.fresh("width");
    String j = names.fresh("j");
    code.beginControlFlow("for (int $N = $N; $N < $N; $N += $L)", block, start, block, end, block, ColumnLoops.BLOCK);
    code.addStatement("final int $N = $T.min($L, $N - $N)", width, Math.class, ColumnLoops.BLOCK, end, block);
    Lanes lanes = new Lanes(op, names, outer, laneVar, lane, block, width, j, arrays);
    List<Expr.Var> done = new ArrayList<>(); // results of loops written so far
    for (Stmt s : op.body()) {
      if (s instanceof Stmt.Loop l) {
        // the initial values, lane by lane
        List<Expr> inits = new ArrayList<>();
        l.carried().forEach(c -> inits.add(c.init()));
        BodyEmitter init = lanes.open(null, null, used(done, inits), List.of());
        for (Stmt.Carried c : l.carried()) {
          init.add(CodeBlock.builder()
              .addStatement("$N[$N] = $L", arrays.get(c.phi()), j, init.expr(c.init())).build());
        }
        code.add(lanes.close(init));
        // rows outermost: every lane's next values computed before any is stored
        String row = names.fresh(l.index().name());
        List<Expr.Var> phis = new ArrayList<>();
        List<Expr> steps = new ArrayList<>();
        l.carried().forEach(c -> {
          phis.add(c.phi());
          steps.add(c.next());
        });
        BodyEmitter step = lanes.open(l, row, List.of(), used(phis, steps));
        List<CodeBlock> nexts = new ArrayList<>();
        for (Stmt.Carried c : l.carried()) {
          String next = names.fresh(c.phi().name() + "Next");
          step.add(CodeBlock.builder().addStatement("final float $N = $L", next, step.expr(c.next())).build());
          nexts.add(CodeBlock.of("$N", next));
        }
        for (int i = 0; i < nexts.size(); i++) {
          step.add(CodeBlock.builder()
              .addStatement("$N[$N] = $L", arrays.get(l.carried().get(i).phi()), j, nexts.get(i)).build());
        }
        BodyEmitter bounds = lanes.outerOnly();
        CodeBlock lo = bounds.expr(l.lo());
        CodeBlock hi = bounds.expr(l.hi());
        code.add(bounds.closeScope());
        code.beginControlFlow("for (int $N = $L; $N < $L; $N += $L)", row, lo, row, hi, row, l.step());
        code.add(lanes.close(step));
        code.endControlFlow();
        l.carried().forEach(c -> done.add(c.result()));
      } else {
        Stmt.Store st = (Stmt.Store) s;
        BodyEmitter store = lanes.open(null, null, used(done, List.of(st.value(), st.index(), st.guard())), List.of());
        store.statements(List.of(s));
        code.add(lanes.close(store));
      }
    }
    code.endControlFlow();
    return code.build();
  }

  /** The values of {@code vars} that some of {@code exprs} use. */
  private static List<Expr.Var> used(List<Expr.Var> vars, List<Expr> exprs) {
    List<Expr.Var> out = new ArrayList<>();
    for (Expr.Var v : vars) {
      if (exprs.stream().anyMatch(e -> e.dependsOn(v))) {
        out.add(v);
      }
    }
    return out;
  }

  /** Emitters for one pass over a block's lanes: scope 0 before the lane loop, scope 1 one lane. */
  private record Lanes(OperatorIr.Grid op, Names names, Map<Expr.Var, String> outer, Expr.Var laneVar, String lane,
      String block, String width, String j, Map<Expr.Var, String> arrays) {
    BodyEmitter outerOnly() {
      BodyEmitter e = new BodyEmitter(JavaSyntax.INSTANCE, names, op.names());
      e.countUses(op.body(), List.of());
      e.openScope();
      outer.forEach((v, n) -> e.bind(v, n, 0));
      e.setWorkerDepth(0);
      return e;
    }

    /**
     * @param loop the loop whose step this pass runs (its index bound to {@code row}), or null
     * @param done loop results the pass may read from their arrays
     * @param phis carried values the pass reads from their arrays
     */
    BodyEmitter open(Stmt.Loop loop, String row, List<Expr.Var> done, List<Expr.Var> phis) {
      BodyEmitter e = outerOnly();
      if (loop != null) {
        e.bind(loop.index(), row, 0);
      }
      e.openScope();
      e.bind(laneVar, lane, 1);
      e.setWorkerDepth(1);
      if (loop != null) {
        e.loopScope(loop.id(), 1);
      }
      List<Expr.Var> read = new ArrayList<>(done);
      read.addAll(phis);
      for (Expr.Var v : read) {
        String name = names.fresh(v.name());
        e.add(CodeBlock.builder().addStatement("final float $N = $N[$N]", name, arrays.get(v), j).build());
        e.bind(v, name, 1);
      }
      return e;
    }

    /**
     * The pass: what does not depend on the lane, then the loop over the block's lanes (counted from
     * 0, which C2 compiles to faster code: about a quarter faster than counting the worker's index in a microbenchmark).
     */
    CodeBlock close(BodyEmitter e) {
      CodeBlock body = e.closeScope();
      e.add(CodeBlock.of("for (int $N = 0; $N < $N; $N++) {\n$>final int $N = $N + $N;\n$L$<}\n", j, j, width, j, lane,
          block, j, body));
      return e.closeScope();
    }
  }
}
