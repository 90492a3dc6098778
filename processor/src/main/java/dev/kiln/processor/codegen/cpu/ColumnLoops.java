package dev.kiln.processor.codegen.cpu;

import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.FLOAT_VECTOR;
import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.SPECIES;

import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.codegen.PartialSums;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Loop interchange for a kernel whose workers, as vector lanes, each fold a sequential loop: a
 * column sum ({@code for b: s += x[b*N + j]}, the bias and scale gradients of a layer). Written
 * the plain way, a vector of columns walks every row before the next vector starts, reading one
 * cache line per row 8 KB apart; here a block of up to {@link #BLOCK} columns keeps its running
 * values in arrays of its own, and the rows go outermost: each row's block is read front to back,
 * as memory likes it. Consecutive loops over the same rows run in one pass ({@link #onePass}: layer
 * norm's scale and shift gradients read their two arrays' rows once, not once a loop). Every lane
 * still folds its terms in the loop's order, so the floats are the scalar kernel's.
 *
 * <p>Applies when the worker is stores and loops of its own (no loop inside a loop), each loop with
 * float carried values only, no store inside, a true guard and bounds the same in every lane, its
 * updates computed from its own index, carried values, the lane and the kernel's parameters (so
 * nothing else of the worker is needed inside the interchanged loop).
 */
final class ColumnLoops {
  /** Columns per block: four float arrays of this many stay in the first-level cache. */
  static final int BLOCK = 1024;

  private ColumnLoops() {}

  /** Whether {@code op}'s lanes form can run its loops rows-outermost. */
  static boolean applies(OperatorIr.Grid op) {
    if (op.grid().isEmpty()) {
      return false;
    }
    boolean anyLoop = false;
    Set<Expr> grid = new HashSet<>();
    op.grid().forEach(g -> grid.add(g.var()));
    for (Stmt s : op.body()) {
      if (s instanceof Stmt.Accumulate || s instanceof Stmt.Combine) {
        return false;
      }
      if (s instanceof Stmt.Loop l) {
        anyLoop = true;
        if (!SimdPlan.isTrue(l.guard()) || !l.body().isEmpty() || l.carried().isEmpty()) {
          return false;
        }
        Set<Expr> own = new HashSet<>(grid);
        own.add(l.index());
        for (Stmt.Carried c : l.carried()) {
          if (c.phi().type() != ScalarType.FLOAT || PartialSums.of(l, c) != null) {
            return false; // (a sum in partials: the lanes form keeps them, VectorBody)
          }
          own.add(c.phi());
        }
        if (usesOtherVars(l.lo(), grid) || usesOtherVars(l.hi(), grid)) {
          return false;
        }
        for (Stmt.Carried c : l.carried()) {
          if (usesOtherVars(c.next(), own)) {
            return false;
          }
        }
      }
    }
    return anyLoop;
  }

  /** Whether {@code e} uses a variable not in {@code allowed}. */
  private static boolean usesOtherVars(Expr e, Set<Expr> allowed) {
    if (e instanceof Expr.Var) {
      return !allowed.contains(e);
    }
    for (Expr o : e.operands()) {
      if (usesOtherVars(o, allowed)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The vector part {@code [start, vectorEnd)} of one row of lanes, block by block: each top-level
   * statement in order over the block, a loop as rows outermost with its carried values in arrays.
   *
   * @param bound the Java names of the outer grid variables
   */
  static CodeBlock write(OperatorIr.Grid op, Names names, Map<Expr, String> bound, String lane, String start,
      String vectorEnd) {
    return write(op, names, bound, lane, start, vectorEnd, BLOCK);
  }

  /** As {@link #write(OperatorIr.Grid, Names, Map, String, String, String)} in blocks of {@code columns} lanes (a multiple of 16). */
  static CodeBlock write(OperatorIr.Grid op, Names names, Map<Expr, String> bound, String lane, String start,
      String vectorEnd, int columns) {
    SimdPlan plan = SimdPlan.forLanes(op);
    Expr.Var laneVar = op.grid().get(op.grid().size() - 1).var();
    CodeBlock.Builder code = CodeBlock.builder();
    Map<Expr, String> arrays = new HashMap<>(); // carried result (and phi) -> its array
    for (Stmt s : op.body()) {
      if (s instanceof Stmt.Loop l) {
        for (Stmt.Carried c : l.carried()) {
          String a = names.fresh(c.phi().name() + "Columns");
          code.addStatement("final float[] $N = new float[$T.min($L, $N - $N)]", a, Math.class, columns, vectorEnd, start);
          arrays.put(c.result(), a);
          arrays.put(c.phi(), a);
        }
      }
    }
    String block = names.fresh("block");
    String blockEnd = names.fresh("blockEnd");
    code.beginControlFlow("for (int $N = $N; $N < $N; $N += $L)", block, start, block, vectorEnd, block, columns);
    code.addStatement("final int $N = $T.min($N + $L, $N)", blockEnd, Math.class, block, columns, vectorEnd);
    List<Expr> done = new ArrayList<>(); // results of loops written so far
    // a store over the block's lanes, reading the loops' results written so far from their arrays
    Consumer<Stmt.Store> storeLanes = st -> {
      CodeBlock.Builder store = CodeBlock.builder();
      body(op, plan, names, bound, laneVar, lane, null, null, store, done, arrays, block).store(st);
      code.add(laneLoop(lane, block, blockEnd, store.build()));
    };
    List<Stmt> body = op.body();
    for (int i = 0; i < body.size(); ) {
      if (body.get(i) instanceof Stmt.Loop first) {
        Pass fused = onePass(op, body, i);
        List<Stmt.Loop> pass = fused.loops();
        // the initial values, lane by lane
        for (Stmt.Loop l : pass) {
          CodeBlock.Builder init = CodeBlock.builder();
          VectorBody initBody = body(op, plan, names, bound, laneVar, lane, null, null, init, done, arrays, block);
          for (Stmt.Carried c : l.carried()) {
            init.addStatement("$L.intoArray($N, $N - $N)", initBody.vector(c.init()), arrays.get(c.phi()), lane, block);
          }
          code.add(laneLoop(lane, block, blockEnd, init.build()));
        }
        // rows outermost, every loop of the pass stepped in each row
        String row = names.fresh(first.index().name());
        CodeBlock.Builder step = CodeBlock.builder();
        for (Stmt.Loop l : pass) {
          VectorBody stepBody = body(op, plan, names, bound, laneVar, lane, l.index(), row, step, List.of(), arrays, block);
          for (Stmt.Carried c : l.carried()) {
            String phi = names.fresh(c.phi().name());
            step.addStatement("final $T $N = $T.fromArray($N, $N, $N - $N)", FLOAT_VECTOR, phi, FLOAT_VECTOR, SPECIES,
                arrays.get(c.phi()), lane, block);
            stepBody.bind(c.phi(), CodeBlock.of("$N", phi));
          }
          List<CodeBlock> nexts = new ArrayList<>();
          for (Stmt.Carried c : l.carried()) {
            nexts.add(stepBody.vector(c.next()));
          }
          for (int k = 0; k < nexts.size(); k++) {
            step.addStatement("$L.intoArray($N, $N - $N)", nexts.get(k), arrays.get(l.carried().get(k).phi()), lane, block);
          }
        }
        VectorBody bounds = body(op, plan, names, bound, laneVar, lane, null, null, code, List.of(), arrays, block);
        CodeBlock lo = bounds.scalar(first.lo());
        CodeBlock hi = bounds.scalar(first.hi());
        if (pass.size() > 1) {
          code.add("// $L loops over the same rows in one pass: each lane's terms still in row order\n", pass.size());
        }
        code.beginControlFlow("for (int $N = $L; $N < $L; $N += $L)", row, lo, row, hi, row, first.step());
        code.add(laneLoop(lane, block, blockEnd, step.build()));
        code.endControlFlow();
        pass.forEach(l -> l.carried().forEach(c -> done.add(c.result())));
        fused.after().forEach(storeLanes);
        i += fused.statements();
      } else {
        storeLanes.accept((Stmt.Store) body.get(i));
        i++;
      }
    }
    code.endControlFlow();
    return code.build();
  }

  /** Loops that run in one pass over the rows, the stores moved after them, and how many statements they were. */
  private record Pass(List<Stmt.Loop> loops, List<Stmt.Store> after, int statements) {}

  /**
   * The loops from {@code body[i]} on that run in one pass over the rows: loops over the same rows
   * (the same bounds and step) whose initial values read no result of another loop of the pass,
   * with the stores between them moved after the pass where no later loop of it reads or writes
   * what they store. Each loop's updates read only its own index and carried values ({@link
   * #applies}), so stepping them side by side row by row adds each lane's terms in the same order,
   * and each store stores the same value; the rows are read once instead of once a loop (layer
   * norm's gradients of its scale and shift, two column sums over 2048x2048 on two threads, in a
   * harness: 0.81-0.83 ms against 0.91-0.92). Not in a kernel that may run in place.
   */
  private static Pass onePass(OperatorIr.Grid op, List<Stmt> body, int i) {
    Stmt.Loop first = (Stmt.Loop) body.get(i);
    List<Stmt.Loop> loops = new ArrayList<>(List.of(first));
    List<Stmt.Store> after = new ArrayList<>();
    int statements = 1;
    if (AlignedStart.mayRunInPlace(op)) {
      return new Pass(loops, after, statements);
    }
    Set<Expr> results = new HashSet<>();
    first.carried().forEach(c -> results.add(c.result()));
    Set<String> stored = new HashSet<>();
    List<Stmt.Store> pending = new ArrayList<>();
    for (int j = i + 1; j < body.size(); j++) {
      if (body.get(j) instanceof Stmt.Store st) {
        pending.add(st);
        continue;
      }
      Stmt.Loop l = (Stmt.Loop) body.get(j); // (applies: stores and loops only)
      Set<String> pendingArrays = new HashSet<>(stored);
      pending.forEach(st -> pendingArrays.add(st.array().name()));
      if (l.lo() != first.lo() || l.hi() != first.hi() || l.step() != first.step()
          || l.carried().stream().anyMatch(c -> results.stream().anyMatch(c.init()::dependsOn))
          || readsArrays(l, pendingArrays)) {
        break;
      }
      loops.add(l);
      l.carried().forEach(c -> results.add(c.result()));
      after.addAll(pending);
      pending.forEach(st -> stored.add(st.array().name()));
      pending.clear();
      statements = j - i + 1;
    }
    return new Pass(loops, after, statements);
  }

  /** Whether {@code l}'s bounds, initial values or updates read one of {@code arrays}. */
  private static boolean readsArrays(Stmt.Loop l, Set<String> arrays) {
    List<Expr> read = new ArrayList<>(List.of(l.lo(), l.hi()));
    for (Stmt.Carried c : l.carried()) {
      read.add(c.init());
      read.add(c.next());
    }
    return StmtWalk.loads(read).stream().anyMatch(load -> arrays.contains(load.array().name()));
  }

  private static CodeBlock laneLoop(String lane, String block, String blockEnd, CodeBlock body) {
    return CodeBlock.of("for (int $N = $N; $N < $N; $N += $N.length()) {\n$>$L$<}\n", lane, block, lane, blockEnd, lane,
        SPECIES, body);
  }

  /** A vector step's body: the lane at {@code lane}, the loop index (if any) as {@code row}, finished loops' results from their arrays. */
  private static VectorBody body(OperatorIr.Grid op, SimdPlan plan, Names names, Map<Expr, String> bound, Expr.Var laneVar,
      String lane, Expr.Var loopIndex, String row, CodeBlock.Builder out, List<Expr> done, Map<Expr, String> arrays,
      String block) {
    VectorBody b = new VectorBody(plan, names, op.names(), v -> {
      if (v == laneVar) {
        return CodeBlock.of("$N", lane);
      }
      if (v == loopIndex) {
        return CodeBlock.of("$N", row);
      }
      return CodeBlock.of("$N", bound.get(v));
    }, out);
    for (Expr r : done) {
      b.bind(r, CodeBlock.of("$T.fromArray($N, $N, $N - $N)", FLOAT_VECTOR, SPECIES, arrays.get(r), lane, block));
    }
    return b;
  }
}
