package dev.kiln.processor.codegen.cpu;

import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.SPECIES;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.check.InPlace;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The head of a vector loop: the iterations before the one where the loop's main array access
 * starts a vector on a vector's boundary ({@code dev.kiln.runtime.simd.Alignment}), so that its
 * vectors do not straddle cache lines. The access aligned is the loop's first unit-stride store,
 * or without one its first unit-stride load: a straddling store costs most. The head runs those
 * iterations one by one as the loop's last ones (fewer than a vector) run, in index order and
 * before the vectors ({@link #head}), or where running an iteration twice is the same as once as
 * one vector from the loop's start that the next vector overlaps ({@link #overlappingHead}); so
 * every value computed, every sum kept in order and every store is the scalar loop's, and only
 * where the vectors start moves.
 */
final class AlignedStart {
  static final ClassName ALIGNMENT = ClassName.get("dev.kiln.runtime.simd", "Alignment");

  private AlignedStart() {}

  /**
   * Whether {@code body} calls exp, tanh, sigmoid or erf anywhere (its loops included): such a
   * loop is bound by its math, not by where its vectors fall, and its scalar iterations cost
   * several times its vectors' (aligned, softmax's forward kernel ran 15% slower, and the LSTM
   * cell's in stages 45% with its first block cut short), so it starts at its first iteration.
   * {@code SimdFission}'s stages are not aligned for the same reason.
   */
  static boolean heavy(List<Stmt> body) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Accumulate || s instanceof Stmt.Combine) {
        return true; // (an accumulation across the workers: left at its start too)
      }
      for (Expr e : StmtWalk.nodes(StmtWalk.exprs(s))) {
        if (e instanceof Expr.Call c && SimdFission.HEAVY.contains(c.fn())) {
          return true;
        }
      }
    }
    return false;
  }

  /** The index of the access to align in {@code stores} and {@code terms} under {@code plan}, or null for none. */
  static Expr target(List<Stmt> stores, List<Expr> terms, SimdPlan plan) {
    List<Expr> values = new ArrayList<>();
    for (Stmt s : stores) {
      if (s instanceof Stmt.Store st) {
        if (plan.varying(st.index()) && plan.unitStride(st.index())) {
          return st.index();
        }
        values.add(st.value());
      }
    }
    values.addAll(terms);
    for (Expr.Load l : StmtWalk.loads(values)) {
      if (plan.varying(l.index()) && plan.unitStride(l.index())) {
        return l.index();
      }
    }
    return null;
  }

  /**
   * Whether a launcher lets {@code op} run with an output that is also an input ({@link InPlace}:
   * each worker reads that input only at the element it writes, before writing it). Then a vector
   * computed again reads what the first one stored, and the iterations before the boundary run one
   * by one.
   */
  static boolean mayRunInPlace(OperatorIr op) {
    for (Param.Array out : op.arrays()) {
      for (Param.Array in : op.arrays()) {
        if (out != in && InPlace.safe(op, out, in)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether {@code body} is stores only whose values, indices and guards read no array it stores
   * into: running an iteration again stores the same values into the same elements (unless an
   * output is an input too: {@link #mayRunInPlace}).
   */
  static boolean rewritable(List<Stmt> body) {
    Set<Param.Array> stored = new HashSet<>();
    List<Expr> read = new ArrayList<>();
    for (Stmt s : body) {
      if (!(s instanceof Stmt.Store st)) {
        return false;
      }
      stored.add(st.array());
      read.addAll(StmtWalk.exprs(st));
    }
    return StmtWalk.loads(read).stream().noneMatch(l -> stored.contains(l.array()));
  }

  /**
   * {@code final int head = Alignment.start(k, end, index, SPECIES.length())} and the loop {@code
   * for (; k < head; k++) { iteration }}, where {@code index} is the aligned access's index at
   * iteration {@code k} and {@code iteration} one scalar iteration at {@code k}.
   */
  static CodeBlock head(String head, String k, CodeBlock end, CodeBlock index, CodeBlock iteration) {
    return CodeBlock.builder()
        .add("// the first iterations one by one, up to where the vectors start on a boundary\n")
        .addStatement("final int $N = $T.start($N, $L, $L, $N.length())", head, ALIGNMENT, k, end, index, SPECIES)
        .beginControlFlow("for (; $N < $N; $N++)", k, head, k)
        .add(iteration)
        .endControlFlow()
        .build();
  }

  /**
   * As {@link #head}, but the iterations before {@code head} as one vector from {@code k} ({@code
   * step}), for a body that {@link #rewritable} allows: the vectors from {@code head} on compute
   * its last lanes again. {@link Alignment#start} moves only a loop of many vectors, so the vector
   * from {@code k} lies inside it.
   */
  static CodeBlock overlappingHead(String head, String k, CodeBlock end, CodeBlock index, CodeBlock step) {
    return CodeBlock.builder()
        .add("// one vector from the first iteration, then the vectors from where they start on a boundary\n")
        .addStatement("final int $N = $T.start($N, $L, $L, $N.length())", head, ALIGNMENT, k, end, index, SPECIES)
        .beginControlFlow("if ($N > $N)", head, k)
        .add(step)
        .addStatement("$N = $N", k, head)
        .endControlFlow()
        .build();
  }
}
