package dev.kiln.processor.codegen.cuda;

import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.codegen.BodyEmitter;
import dev.kiln.processor.codegen.LoopLowering;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.ir.Affine;
import dev.kiln.processor.ir.AffineAnalysis;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.MathFn;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ReduceKind;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A row kernel: one thread block a worker, its threads sharing the worker's sequential loops. The
 * CUDA form of a worker that walks long rows (softmax, layer norm and their gradients: a worker a
 * row, three to six loops over its elements), which one thread a worker runs at a few GB/s: few
 * threads, each reading a row alone.
 *
 * <p>Every sequential loop at the worker's top level must be <em>shareable</em>: step 1; only
 * stores in its body, each at an index with stride ±1 in the loop index (so iterations write
 * distinct elements, and neighbouring threads neighbouring ones); reads that depend on the loop
 * index with stride ±1 too, and a read of an array the loop stores into only at the very index of
 * its stores (a thread reads back its own element); each carried value updated by a fold:
 *
 * <ul>
 *   <li>{@code phi + t}, {@code t + phi}, {@code phi - t}: each thread sums its iterations' terms in
 *       order, {@code kiln::block_reduce} adds the threads' sums in a fixed tree, the result is
 *       {@code init +} that; the loop's value of {@code phi} used nowhere else;
 *   <li>{@code max(phi, t)}, {@code min(phi, t)}: likewise (exact in any order);
 *   <li>{@code phi || t} ("seen so far", the first maximum of a row in softmax's gradient): a first
 *       pass finds the first iteration whose {@code t} holds (a block minimum of each thread's
 *       first), and iteration {@code k} sees {@code init || first < k}.
 * </ul>
 *
 * A loop over fewer than 64 iterations known at compile time is not shared (most threads would
 * idle). Threads take iterations {@code lo + threadIdx.x}, then every {@code blockDim.x}-th.
 * Barriers ({@code __syncthreads}) stand before and after every shared loop, so a later loop may
 * read what an earlier one wrote anywhere in the row; code between loops runs in every thread,
 * with the same values (stores there write the same value to the same element). Sums are added
 * in another order than the source's: results differ from the CPU's in rounding, and are the same
 * bits on every run for a given block size (256 threads, {@code LaunchConfig.reducing}).
 */
final class RowKernelWriter {
  /** Loops with fewer iterations than this, known at compile time, are not shared. */
  static final int MIN_TRIP = 64;

  /** {@link #plan}'s answer for a worker without sequential loops. */
  static final String NO_LOOP = "a worker has no sequential loop";

  /** How a shared loop's carried value is folded. */
  enum FoldKind {
    NONE,
    SUM,
    /** {@code phi - t}: each thread keeps {@code -0 - t1 - t2 ...}; the result is {@code init + tree sum}. */
    DIFFERENCE,
    MAX,
    MIN,
    ANY
  }

  record Fold(Stmt.Carried carried, FoldKind kind, Expr term) {}

  /** How a block's threads are laid out over workers and loop iterations. */
  enum Layout {
    /** One block a worker, its threads (x) sharing each loop: loops that walk a row. */
    ROWS,
    /**
     * Blocks of 32 workers (x) by 32 threads (y), the 32 sharing each loop of their worker: loops that
     * walk down a column (the bias gradient's sum over a batch), where neighbouring workers read
     * neighbouring elements. Only loops that store nothing (folds alone) take this form.
     */
    COLUMNS
  }

  /** The shared loops, each with its carried values' folds, and the layout. */
  record Plan(Map<Stmt.Loop, List<Fold>> loops, Layout layout) {}

  private RowKernelWriter() {}

  /** The plan for a grid kernel without {@code @Reduce} outputs ({@code op} widened), or why it is not a row kernel. */
  static Object plan(OperatorIr op) {
    if (!op.scratch().isEmpty()) {
      return "each worker keeps " + op.scratch().get(0).name() + " for itself";
    }
    Object rows = plan(op, Layout.ROWS);
    if (rows instanceof Plan || op.grid().isEmpty()) {
      return rows;
    }
    return plan(op, Layout.COLUMNS) instanceof Plan columns ? columns : rows;
  }

  private static Object plan(OperatorIr op, Layout layout) {
    Map<Stmt.Loop, List<Fold>> loops = new IdentityHashMap<>();
    for (Stmt s : op.body()) {
      if (s instanceof Stmt.Accumulate) {
        return "a worker accumulates into a @Reduce output";
      }
      if (s instanceof Stmt.Loop l) {
        Object folds = layout == Layout.ROWS ? shareable(l) : foldsOnly(l);
        if (folds instanceof String why) {
          return why;
        }
        @SuppressWarnings("unchecked")
        List<Fold> f = (List<Fold>) folds;
        loops.put(l, f);
      }
    }
    if (loops.isEmpty()) {
      return NO_LOOP;
    }
    return new Plan(loops, layout);
  }

  /** For {@link Layout#COLUMNS}: the folds of a loop that stores nothing and only folds, else why not. */
  private static Object foldsOnly(Stmt.Loop l) {
    if (l.step() != 1 || l.index().type() != ScalarType.INT) {
      return "a loop's step is not 1";
    }
    if (l.lo() instanceof Expr.Const lo && l.hi() instanceof Expr.Const hi
        && hi.integralValue() - lo.integralValue() < MIN_TRIP) {
      return "a loop makes fewer than " + MIN_TRIP + " iterations";
    }
    if (!l.body().isEmpty()) {
      return "a loop stores";
    }
    List<Fold> folds = new ArrayList<>();
    List<Expr> reduced = new ArrayList<>();
    for (Stmt.Carried c : l.carried()) {
      Fold f = fold(c);
      if (f == null || f.kind() == FoldKind.ANY) {
        return "a loop updates " + c.phi().name() + " by other than +, -, max or min";
      }
      folds.add(f);
      if (f.kind() != FoldKind.NONE) {
        reduced.add(c.phi());
      }
    }
    for (Fold f : folds) {
      for (Expr phi : reduced) {
        if (f.term() != null && dependsOn(f.term(), phi, new HashSet<>())) {
          return "a loop uses " + ((Expr.Var) phi).name() + " before the loop ends";
        }
      }
    }
    return folds;
  }

  /** The folds of {@code l}'s carried values when its iterations can be shared, else why not. */
  private static Object shareable(Stmt.Loop l) {
    if (l.step() != 1 || l.index().type() != ScalarType.INT) {
      return "a loop's step is not 1";
    }
    if (l.lo() instanceof Expr.Const lo && l.hi() instanceof Expr.Const hi
        && hi.integralValue() - lo.integralValue() < MIN_TRIP) {
      return "a loop makes fewer than " + MIN_TRIP + " iterations";
    }
    Map<Param.Array, Set<Expr>> storedAt = new LinkedHashMap<>();
    for (Stmt s : l.body()) {
      if (!(s instanceof Stmt.Store store)) {
        return s instanceof Stmt.Loop ? "a loop holds another loop" : "a loop accumulates into a @Reduce output";
      }
      if (stride(store.index(), l.index()) == 0) {
        return "a loop's store into " + store.array().name() + " does not move with " + l.index().name();
      }
      storedAt.computeIfAbsent(store.array(), a -> new HashSet<>()).add(store.index());
    }
    for (Map.Entry<Param.Array, Set<Expr>> e : storedAt.entrySet()) {
      if (e.getValue().size() > 1) {
        return "a loop stores into " + e.getKey().name() + " at two indices";
      }
    }
    List<Fold> folds = new ArrayList<>();
    List<Expr> reduced = new ArrayList<>();
    List<Expr> uses = new ArrayList<>();
    for (Stmt s : l.body()) {
      Stmt.Store store = (Stmt.Store) s;
      uses.addAll(List.of(store.index(), store.value(), store.guard()));
    }
    for (Stmt.Carried c : l.carried()) {
      Fold f = fold(c);
      if (f == null) {
        return "a loop updates " + c.phi().name() + " by other than +, -, max, min or ||";
      }
      folds.add(f);
      if (f.term() != null) {
        uses.add(f.term());
      }
      if (f.kind() != FoldKind.NONE && f.kind() != FoldKind.ANY) {
        reduced.add(c.phi());
      }
      if (f.kind() == FoldKind.ANY && readsStored(f.term(), storedAt.keySet(), new HashSet<>())) {
        return "a loop's || term reads an array the loop writes";
      }
    }
    for (Expr u : uses) {
      for (Expr phi : reduced) {
        if (dependsOn(u, phi, new HashSet<>())) {
          return "a loop uses " + ((Expr.Var) phi).name() + " before the loop ends";
        }
      }
      String why = checkReads(u, l.index(), storedAt, new HashSet<>());
      if (why != null) {
        return why;
      }
    }
    return folds;
  }

  private static Fold fold(Stmt.Carried c) {
    Expr next = c.next();
    Expr phi = c.phi();
    if (next == phi) {
      return new Fold(c, FoldKind.NONE, null);
    }
    Expr term = null;
    FoldKind kind = null;
    if (next instanceof Expr.Call call && (call.fn() == MathFn.MAX || call.fn() == MathFn.MIN)
        && call.type() != ScalarType.BOOL) {
      Expr a = call.args().get(0);
      Expr b = call.args().get(1);
      term = a == phi ? b : b == phi ? a : null;
      kind = call.fn() == MathFn.MAX ? FoldKind.MAX : FoldKind.MIN;
    } else if (next instanceof Expr.Binary b && b.op() == BinaryOp.LOR && phi.type() == ScalarType.BOOL) {
      term = b.left() == phi ? b.right() : b.right() == phi ? b.left() : null;
      kind = FoldKind.ANY;
    } else if (next instanceof Expr.Binary b && b.op() == BinaryOp.ADD && b.type().isNumeric()) {
      term = b.left() == phi ? b.right() : b.right() == phi ? b.left() : null;
      kind = FoldKind.SUM;
    } else if (next instanceof Expr.Binary b && b.op() == BinaryOp.SUB && b.type().isNumeric() && b.left() == phi) {
      term = b.right();
      kind = FoldKind.DIFFERENCE;
    }
    if (term == null || dependsOn(term, phi, new HashSet<>())) {
      return null;
    }
    return new Fold(c, kind, term);
  }

  /**
   * The stride of {@code index} in {@code k}: ±1, or 0 when it does not depend on {@code k}; any
   * other number (not affine, another stride) is reported as 2.
   */
  private static int stride(Expr index, Expr.Var k) {
    if (!dependsOn(index, k, new HashSet<>())) {
      return 0;
    }
    Affine a = AffineAnalysis.affine(index);
    if (a == null) {
      return 2;
    }
    Poly c = a.coefficient(k.name());
    return c.equals(Poly.ONE) ? 1 : c.equals(Poly.ONE.negate()) ? -1 : 2;
  }

  /** Why a read in {@code e} keeps the loop from being shared, or null. */
  private static String checkReads(Expr e, Expr.Var k, Map<Param.Array, Set<Expr>> storedAt, Set<Expr> seen) {
    if (!seen.add(e)) {
      return null;
    }
    if (e instanceof Expr.Load load) {
      int stride = stride(load.index(), k);
      if (stride == 2) {
        return "a read of " + load.array().name() + " is not unit-stride in " + k.name();
      }
      Set<Expr> at = storedAt.get(load.array());
      if (at != null && !at.contains(load.index())) {
        return "a loop reads " + load.array().name() + " away from the element it writes";
      }
    }
    for (Expr o : e.operands()) {
      String why = checkReads(o, k, storedAt, seen);
      if (why != null) {
        return why;
      }
    }
    return null;
  }

  private static boolean readsStored(Expr e, Set<Param.Array> stored, Set<Expr> seen) {
    if (!seen.add(e)) {
      return false;
    }
    if (e instanceof Expr.Load load && stored.contains(load.array())) {
      return true;
    }
    for (Expr o : e.operands()) {
      if (readsStored(o, stored, seen)) {
        return true;
      }
    }
    return false;
  }

  private static boolean dependsOn(Expr e, Expr target, Set<Expr> seen) {
    if (e == target) {
      return true;
    }
    if (!seen.add(e)) {
      return false;
    }
    for (Expr o : e.operands()) {
      if (dependsOn(o, target, seen)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The kernel; {@code op} has 64-bit indices already ({@link IndexWidening}). Launched as a
   * reducing kernel is ({@code CudaKernel.launchReducing}): 1-D blocks, one a worker, any grid size.
   */
  static CodeBlock write(OperatorIr op, Plan plan, Names names, List<CodeBlock> params) {
    BodyEmitter emitter = new BodyEmitter(CudaSyntax.INSTANCE, names, op.names());
    List<CodeBlock> all = new ArrayList<>(params);
    all.addAll(CheckedReads.declare(op, emitter, names));
    emitter.countUses(op.body(), List.of());
    SharedLoops loops = new SharedLoops(plan, names);
    emitter.lowering(loops);
    emitter.openScope(); // prologue
    emitter.openScope(); // one worker
    List<String> vars = ReducingKernelWriter.bind(emitter, names, op.grid(), 1);
    emitter.setWorkerDepth(1);
    emitter.statements(op.body());
    CodeBlock worker = emitter.closeScope();
    String w = names.fresh("w_");
    CodeBlock total = ReducingKernelWriter.total(op.grid());
    if (plan.layout() == Layout.ROWS) {
      emitter.add(CodeBlock.builder()
          .beginControlFlow("for (long long $N = blockIdx.x; $N < $L; $N += gridDim.x)", w, w, total, w)
          .add(ReducingKernelWriter.decompose(w, op.grid(), vars))
          .add(worker)
          .endControlFlow()
          .build());
    } else {
      // every thread of the block takes part in each barrier: a thread past the last worker redoes
      // the last worker (the same values into the same elements) rather than skip
      String group = names.fresh("g_");
      String last = names.fresh("last");
      emitter.add(CodeBlock.builder()
          .addStatement("const long long $N = $L - 1", last, total)
          .beginControlFlow("for (long long $N = (long long) blockIdx.x * blockDim.x; $N <= $N; $N += (long long) gridDim.x * blockDim.x)",
              group, group, last, group)
          .addStatement("const long long $N = $N + threadIdx.x < $N ? $N + threadIdx.x : $N", w, group, last, group, last)
          .add(ReducingKernelWriter.decompose(w, op.grid(), vars))
          .add(worker)
          .endControlFlow()
          .build());
    }
    CodeBlock body = emitter.closeScope();
    CodeBlock.Builder shared = CodeBlock.builder();
    for (Map.Entry<ScalarType, String> s : loops.shared.entrySet()) {
      shared.addStatement("__shared__ $L $N[KILN_MAX_BLOCK]", CudaSyntax.typeName(s.getKey()), s.getValue());
    }
    String loopCount = plan.loops().size() == 1 ? "loop" : plan.loops().size() + " loops";
    CodeBlock.Builder comment = CodeBlock.builder();
    if (plan.layout() == Layout.ROWS) {
      comment.add("// Row kernel: one 1-D block of at most KILN_MAX_BLOCK threads a worker, any grid size; its\n")
          .add("// threads share the worker's $L (sums added in a fixed tree).\n", loopCount);
    } else {
      comment.add("// Column kernel: blocks of 32 workers (x) by 32 threads (y), any grid size; a worker's 32\n")
          .add("// threads share its $L (sums added in a fixed tree).\n", loopCount);
    }
    return CodeBlock.builder()
        .add(comment.build())
        .add("extern \"C\" __global__ void $N($L) {\n$>", CudaNames.identifier(op.name()), CodeBlock.join(all, ", "))
        .add(shared.build())
        .add(body)
        .add("$<}\n")
        .build();
  }

  /** Writes the plan's loops shared among the block's threads. */
  private static final class SharedLoops implements LoopLowering {
    private final Plan plan;
    private final Names names;
    private final ExprFactory constants = new ExprFactory();
    /** The shared-memory array block_reduce uses, per element type. */
    final Map<ScalarType, String> shared = new LinkedHashMap<>();

    SharedLoops(Plan plan, Names names) {
      this.plan = plan;
      this.names = names;
    }

    /** The thread index that shares a loop's iterations, and the count. */
    private String thread() {
      return plan.layout() == Layout.ROWS ? "threadIdx.x" : "threadIdx.y";
    }

    private String threads() {
      return plan.layout() == Layout.ROWS ? "blockDim.x" : "blockDim.y";
    }

    private String reduce() {
      return plan.layout() == Layout.ROWS ? "kiln::block_reduce" : "kiln::column_reduce";
    }

    private String shared(ScalarType t) {
      return shared.computeIfAbsent(t, x -> names.fresh("shared_" + CudaSyntax.typeName(x).replace(' ', '_')));
    }

    @Override
    public boolean lower(Stmt.Loop l, BodyEmitter e) {
      List<Fold> folds = plan.loops().get(l);
      if (folds == null) {
        return false;
      }
      int outer = e.depth();
      CodeBlock lo = e.expr(l.lo());
      CodeBlock hi = e.expr(l.hi());
      boolean guarded = !(l.guard() instanceof Expr.Const g && g.isTrue());
      CodeBlock guard = guarded ? e.expr(l.guard()) : null;
      // the loop's results, declared at the worker's level: init until the loop has run
      List<String> results = new ArrayList<>();
      CodeBlock.Builder declarations = CodeBlock.builder();
      for (Fold f : folds) {
        Stmt.Carried c = f.carried();
        String r = names.fresh(c.phi().name());
        declarations.addStatement("$L $N = $L", CudaSyntax.typeName(c.phi().type()), r, e.expr(c.init()));
        results.add(r);
      }
      e.add(declarations.build());
      String type = CudaSyntax.typeName(l.index().type());
      CodeBlock.Builder code = CodeBlock.builder();
      code.addStatement("__syncthreads()");
      // "seen so far": the first iteration whose term holds, over the whole block
      Map<Fold, String> firsts = new IdentityHashMap<>();
      for (Fold f : folds) {
        if (f.kind() != FoldKind.ANY) {
          continue;
        }
        String first = names.fresh("first");
        String k = names.fresh(l.index().name());
        e.openScope();
        e.bind(l.index(), k, e.depth());
        e.loopScope(l.id(), e.depth());
        CodeBlock term = e.expr(f.term());
        e.add(CodeBlock.builder().beginControlFlow("if ($L)", term).addStatement("$N = $N", first, k)
            .addStatement("break").endControlFlow().build());
        CodeBlock pass = e.closeScope();
        code.addStatement("$L $N = $L", type, first, hi)
            .add("for ($L $N = $L + ($L) $L; $N < $L; $N += ($L) $L) {\n$>$L$<}\n", type, k, lo, type, thread(),
                k, hi, k, type, threads(), pass)
            .addStatement("$N = $L($N, $N, kiln::MinOp<$L>())", first, reduce(), first,
                shared(l.index().type()), type);
        firsts.put(f, first);
      }
      List<String> partials = new ArrayList<>();
      for (int i = 0; i < folds.size(); i++) {
        Fold f = folds.get(i);
        ScalarType t = f.carried().phi().type();
        String p = null;
        if (f.kind() != FoldKind.NONE && f.kind() != FoldKind.ANY) {
          p = names.fresh(f.carried().phi().name() + "Part");
          ReduceKind op = reduceKind(f.kind());
          code.addStatement("$L $N = $L", CudaSyntax.typeName(t), p,
              CudaSyntax.INSTANCE.literal(ReducingKernelWriter.identity(constants, op, t)));
        }
        partials.add(p);
      }
      // the shared loop
      String k = names.fresh(l.index().name());
      e.openScope();
      int depth = e.depth();
      e.bind(l.index(), k, depth);
      e.loopScope(l.id(), depth);
      for (int i = 0; i < folds.size(); i++) {
        Fold f = folds.get(i);
        Expr.Var phi = f.carried().phi();
        if (f.kind() == FoldKind.NONE) {
          e.bind(phi, results.get(i), outer);
        } else if (f.kind() == FoldKind.ANY) {
          String seen = names.fresh(phi.name());
          e.add(CodeBlock.builder().addStatement("const bool $N = $N || $N < $N", seen, results.get(i),
              firsts.get(f), k).build());
          e.bind(phi, seen, depth);
        }
      }
      e.statements(l.body());
      for (int i = 0; i < folds.size(); i++) {
        Fold f = folds.get(i);
        String p = partials.get(i);
        if (p == null) {
          continue;
        }
        CodeBlock term = e.expr(f.term());
        CodeBlock update = switch (f.kind()) {
          case SUM -> CodeBlock.of("$N + $L", p, term);
          case DIFFERENCE -> CodeBlock.of("$N - $L", p, term);
          case MAX -> CodeBlock.of("kiln::max($N, $L)", p, term);
          default -> CodeBlock.of("kiln::min($N, $L)", p, term);
        };
        e.add(CodeBlock.builder().addStatement("$N = $L", p, update).build());
      }
      CodeBlock body = e.closeScope();
      code.add("for ($L $N = $L + ($L) $L; $N < $L; $N += ($L) $L) {\n$>$L$<}\n", type, k, lo, type, thread(), k,
          hi, k, type, threads(), body);
      for (int i = 0; i < folds.size(); i++) {
        Fold f = folds.get(i);
        String r = results.get(i);
        ScalarType t = f.carried().phi().type();
        if (f.kind() == FoldKind.ANY) {
          code.addStatement("$N = $N || $N < $L", r, r, firsts.get(f), hi);
        } else if (partials.get(i) != null) {
          ReduceKind op = reduceKind(f.kind());
          String p = partials.get(i);
          code.addStatement("$N = $L($N, $N, $L)", p, reduce(), p, shared(t), CudaSyntax.functor(op, t));
          code.addStatement("$N = $L", r, CudaSyntax.INSTANCE.combine(op, t, CodeBlock.of("$N", r), CodeBlock.of("$N", p)));
        }
      }
      code.addStatement("__syncthreads()");
      if (guarded) {
        e.add(CodeBlock.builder().beginControlFlow("if ($L)", guard).add(code.build()).endControlFlow().build());
      } else {
        e.add(code.build());
      }
      for (int i = 0; i < folds.size(); i++) {
        e.bind(folds.get(i).carried().result(), results.get(i), outer);
      }
      return true;
    }

    private static ReduceKind reduceKind(FoldKind kind) {
      return switch (kind) {
        case MAX -> ReduceKind.MAX;
        case MIN -> ReduceKind.MIN;
        default -> ReduceKind.SUM;
      };
    }
  }
}
