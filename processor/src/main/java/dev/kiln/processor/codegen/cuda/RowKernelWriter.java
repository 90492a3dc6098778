package dev.kiln.processor.codegen.cuda;

import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.codegen.BodyEmitter;
import dev.kiln.processor.codegen.LoopLowering;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.ReduceKind;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A row or column kernel: a {@link SharedLoopPlan}'s worker with its loops shared among threads. A
 * row kernel ({@link SharedLoopPlan.Layout#ROWS}) is one thread block a worker: the CUDA form of a
 * worker that walks long rows (softmax, layer norm and their gradients: a worker a row, three to six
 * loops over its elements), which one thread a worker runs at a few GB/s. A column kernel takes 32
 * neighbouring workers a block, 32 threads (y) a worker.
 *
 * <p>Threads take iterations {@code lo + t}, then every {@code blockDim}-th ({@code t} the thread's
 * index along x for rows, y for columns); folds combine in {@code kiln::block_reduce} or {@code
 * kiln::column_reduce}. Barriers ({@code __syncthreads}) stand before and after every shared loop,
 * so a later loop may read what an earlier one wrote anywhere in the row; code between loops runs
 * in every thread, with the same values (stores there write the same value to the same element).
 * Sums are added in another order than the source's: results differ from the CPU's in rounding,
 * and are the same bits on every run for a given block size.
 */
final class RowKernelWriter {
  private RowKernelWriter() {}

  /**
   * Threads a row in a row kernel's short-row form. A row kernel with a row cache gets a second
   * form, {@code <kernel>_short}, for rows that fit a {@link RowCache#SHORT_BYTES} cache (2048
   * floats): that cache instead of 32 KB and reduction arrays of 32 slots, launched with this many
   * threads a row (whole warps, a power of two of them: block_reduce's fast path), so that a
   * multiprocessor holds many more rows at once. On an H200, softmax over 2048x2048 ran 0.0240 ms as
   * one form and 0.0201 ms as the other, over 8192x1024 0.0569 and 0.0401 ms (docs/BENCHMARKS.md);
   * over 8192x8192 the long form is the faster. The launcher picks by the row's length.
   */
  static final int SHORT_THREADS = 64;

  /** The short-row form's name. */
  static String shortName(String kernel) {
    return kernel + "_short";
  }

  /**
   * The kernel; {@code op} has 64-bit indices already ({@link dev.kiln.processor.ir.transform.IndexWidening}). Launched as a
   * reducing kernel is ({@code CudaKernel.launchReducing}): 1-D blocks, one a worker, any grid size.
   */
  static CodeBlock write(OperatorIr.Grid op, SharedLoopPlan.Plan plan, Names names, List<CodeBlock> params) {
    return write(op, plan, names, params, false);
  }

  /**
   * The kernel, or with {@code shortRows} its short-row form ({@link #SHORT_THREADS}), which must be
   * launched with blocks of whole warps, a power of two of them.
   */
  static CodeBlock write(OperatorIr.Grid op, SharedLoopPlan.Plan plan, Names names, List<CodeBlock> params,
      boolean shortRows) {
    BodyEmitter emitter = new BodyEmitter(CudaSyntax.INSTANCE, names, op.names());
    List<CodeBlock> all = new ArrayList<>(params);
    all.addAll(CheckedReads.declare(op, emitter, names));
    emitter.countUses(op.body(), List.of());
    RowCache cache = RowCache.plan(op, plan);
    if (shortRows) {
      cache = cache.withBytes(RowCache.SHORT_BYTES);
    }
    SharedLoops loops = new SharedLoops(plan, names, cache);
    emitter.lowering(loops);
    emitter.openScope(); // prologue
    emitter.openScope(); // one worker
    List<String> vars = ReducingKernelWriter.bind(emitter, names, op.grid(), 1);
    emitter.setWorkerDepth(1);
    emitter.statements(op.body());
    CodeBlock worker = emitter.closeScope();
    String w = names.fresh("w_");
    CodeBlock total = ReducingKernelWriter.total(op.grid());
    if (plan.layout() == SharedLoopPlan.Layout.ROWS) {
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
      // block_reduce's fast path (whole warps, a power of two of them) uses a slot a warp
      shared.addStatement("__shared__ $L $N[$L]", CudaSyntax.typeName(s.getKey()), s.getValue(),
          shortRows ? "32" : "KILN_MAX_BLOCK");
    }
    if (cache != null) {
      shared.addStatement("__shared__ $L $N[$L]", CudaSyntax.typeName(cache.array().elementType()), loops.cacheName,
          cache.capacity());
    }
    String loopCount = plan.loops().size() == 1 ? "loop" : plan.loops().size() + " loops";
    CodeBlock.Builder comment = CodeBlock.builder();
    if (plan.layout() == SharedLoopPlan.Layout.ROWS) {
      comment.add("// Row kernel: one 1-D block of at most KILN_MAX_BLOCK threads a worker, any grid size; its\n")
          .add("// threads share the worker's $L (sums added in a fixed tree).\n", loopCount);
      if (cache != null) {
        comment.add("// Rows of '$L' up to $L elements long are read from global memory once, by the first of the\n",
                cache.array().name(), cache.capacity())
            .add("// $L loops that read them, and from shared memory after that.\n", cache.loads().size());
      }
      if (shortRows) {
        comment.add("// Short-row form: launched for rows of at most $L elements, $L threads a row (whole warps, a\n",
                cache.capacity(), SHORT_THREADS)
            .add("// power of two of them, as its 32-slot reduction arrays require).\n");
      }
    } else {
      comment.add("// Column kernel: blocks of 32 workers (x) by 32 threads (y), any grid size; a worker's 32\n")
          .add("// threads share its $L (sums added in a fixed tree).\n", loopCount);
    }
    return CodeBlock.builder()
        .add(comment.build())
        .add("extern \"C\" __global__ void $N($L) {\n$>",
            shortRows ? shortName(CudaNames.identifier(op.name())) : CudaNames.identifier(op.name()),
            CodeBlock.join(all, ", "))
        .add(shared.build())
        .add(body)
        .add("$<}\n")
        .build();
  }

  /** Writes the plan's loops shared among the block's threads. */
  private static final class SharedLoops implements LoopLowering {
    private final SharedLoopPlan.Plan plan;
    private final Names names;
    private final ExprFactory constants = new ExprFactory();
    /** The shared-memory array block_reduce uses, per element type. */
    final Map<ScalarType, String> shared = new LinkedHashMap<>();

    /** The row cache (null when none), its shared array and the flag that says whether a row fits. */
    private final RowCache cache;
    final String cacheName;
    private String cached;

    SharedLoops(SharedLoopPlan.Plan plan, Names names, RowCache cache) {
      this.plan = plan;
      this.names = names;
      this.cache = cache;
      this.cacheName = cache == null ? null : names.fresh("row_" + CudaNames.identifier(cache.array().name()));
    }

    /** The thread index that shares a loop's iterations, and the count. */
    private String thread() {
      return plan.layout() == SharedLoopPlan.Layout.ROWS ? "threadIdx.x" : "threadIdx.y";
    }

    private String threads() {
      return plan.layout() == SharedLoopPlan.Layout.ROWS ? "blockDim.x" : "blockDim.y";
    }

    /** {@code for (k = lo + t; k < hi; k += threads) body}: the block's threads taking turns. */
    private CodeBlock sharedLoop(String type, String k, CodeBlock lo, CodeBlock hi, CodeBlock body) {
      return CodeBlock.of("for ($L $N = $L + ($L) $L; $N < $L; $N += ($L) $L) {\n$>$L$<}\n", type, k, lo, type,
          thread(), k, hi, k, type, threads(), body);
    }

    private String reduce() {
      return plan.layout() == SharedLoopPlan.Layout.ROWS ? "kiln::block_reduce" : "kiln::column_reduce";
    }

    private String shared(ScalarType t) {
      return shared.computeIfAbsent(t, x -> names.fresh("shared_" + CudaSyntax.typeName(x).replace(' ', '_')));
    }

    @Override
    public boolean lower(Stmt.Loop l, BodyEmitter e) {
      List<SharedLoopPlan.Fold> folds = plan.loops().get(l);
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
      for (SharedLoopPlan.Fold f : folds) {
        Stmt.Carried c = f.carried();
        String r = names.fresh(c.phi().name());
        declarations.addStatement("$L $N = $L", CudaSyntax.typeName(c.phi().type()), r, e.expr(c.init()));
        results.add(r);
      }
      Expr.Load cachedLoad = cache == null ? null : cache.loads().get(l);
      if (cachedLoad != null && l == cache.fill()) {
        cached = names.fresh("cached");
        declarations.addStatement("const bool $N = (long long) ($L) - ($L) <= $L", cached, hi, lo, cache.capacity());
      }
      e.add(declarations.build());
      String type = CudaSyntax.typeName(l.index().type());
      CodeBlock.Builder code = CodeBlock.builder();
      code.addStatement("__syncthreads()");
      // "seen so far": the first iteration whose term holds, over the whole block
      Map<SharedLoopPlan.Fold, String> firsts = new IdentityHashMap<>();
      for (SharedLoopPlan.Fold f : folds) {
        if (f.kind() != SharedLoopPlan.FoldKind.ANY) {
          continue;
        }
        String first = names.fresh("first");
        String k = names.fresh(l.index().name());
        e.openScope();
        e.bind(l.index(), k, e.depth());
        e.loopScope(l.id(), e.depth());
        if (cachedLoad != null && l != cache.fill()) {
          e.define(cachedLoad, read -> cachedRead(k, lo, read));
        }
        CodeBlock term = e.expr(f.term());
        e.add(CodeBlock.builder().beginControlFlow("if ($L)", term).addStatement("$N = $N", first, k)
            .addStatement("break").endControlFlow().build());
        CodeBlock pass = e.closeScope();
        code.addStatement("$L $N = $L", type, first, hi)
            .add(sharedLoop(type, k, lo, hi, pass))
            .addStatement("$N = $L($N, $N, kiln::MinOp<$L>())", first, reduce(), first,
                shared(l.index().type()), type);
        firsts.put(f, first);
      }
      List<String> partials = new ArrayList<>();
      for (int i = 0; i < folds.size(); i++) {
        SharedLoopPlan.Fold f = folds.get(i);
        ScalarType t = f.carried().phi().type();
        String p = null;
        if (f.kind() != SharedLoopPlan.FoldKind.NONE && f.kind() != SharedLoopPlan.FoldKind.ANY) {
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
        SharedLoopPlan.Fold f = folds.get(i);
        Expr.Var phi = f.carried().phi();
        if (f.kind() == SharedLoopPlan.FoldKind.NONE) {
          e.bind(phi, results.get(i), outer);
        } else if (f.kind() == SharedLoopPlan.FoldKind.ANY) {
          String seen = names.fresh(phi.name());
          e.add(CodeBlock.builder().addStatement("const bool $N = $N || $N < $N", seen, results.get(i),
              firsts.get(f), k).build());
          e.bind(phi, seen, depth);
        }
      }
      if (cachedLoad != null && l == cache.fill()) {
        // the first loop: each thread keeps the elements it reads
        String v = e.define(cachedLoad, read -> read);
        e.add(CodeBlock.builder().addStatement("if ($N) $N[$N - $L] = $N", cached, cacheName, k, lo, v).build());
      } else if (cachedLoad != null) {
        e.define(cachedLoad, read -> cachedRead(k, lo, read));
      }
      e.statements(l.body());
      for (int i = 0; i < folds.size(); i++) {
        SharedLoopPlan.Fold f = folds.get(i);
        String p = partials.get(i);
        if (p == null) {
          continue;
        }
        CodeBlock term = e.expr(f.term());
        ScalarType foldType = f.carried().phi().type();
        boolean integral = foldType == ScalarType.INT || foldType == ScalarType.LONG;
        CodeBlock update = switch (f.kind()) {
          // an int or long sum wraps as Java's does (CudaSyntax.binary)
          case SUM -> integral
              ? CudaSyntax.INSTANCE.binary(BinaryOp.ADD, foldType, CodeBlock.of("$N", p), term, false)
              : CodeBlock.of("$N + $L", p, term);
          case DIFFERENCE -> integral
              ? CudaSyntax.INSTANCE.binary(BinaryOp.SUB, foldType, CodeBlock.of("$N", p), term, false)
              : CodeBlock.of("$N - $L", p, term);
          case MAX -> CodeBlock.of("kiln::max($N, $L)", p, term);
          default -> CodeBlock.of("kiln::min($N, $L)", p, term);
        };
        e.add(CodeBlock.builder().addStatement("$N = $L", p, update).build());
      }
      CodeBlock body = e.closeScope();
      code.add(sharedLoop(type, k, lo, hi, body));
      for (int i = 0; i < folds.size(); i++) {
        SharedLoopPlan.Fold f = folds.get(i);
        String r = results.get(i);
        ScalarType t = f.carried().phi().type();
        if (f.kind() == SharedLoopPlan.FoldKind.ANY) {
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

    /** The cached element {@code k} when the row fits in the cache, else {@code read} from global memory. */
    private CodeBlock cachedRead(String k, CodeBlock lo, CodeBlock read) {
      return CodeBlock.of("($N ? $N[$N - $L] : $L)", cached, cacheName, k, lo, read);
    }

    private static ReduceKind reduceKind(SharedLoopPlan.FoldKind kind) {
      return switch (kind) {
        case MAX -> ReduceKind.MAX;
        case MIN -> ReduceKind.MIN;
        default -> ReduceKind.SUM;
      };
    }
  }
}
