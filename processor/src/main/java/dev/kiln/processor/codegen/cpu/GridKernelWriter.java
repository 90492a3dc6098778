package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import dev.kiln.processor.codegen.BodyEmitter;
import dev.kiln.processor.codegen.Names;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.TypeName;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import javax.lang.model.element.Modifier;

/**
 * Writes the CPU launcher of a grid operator: argument checks, then the grid's outermost
 * dimension cut into chunks run by {@code CpuExecutor}, the inner grid loops inside, the worker's
 * code innermost (so the last grid dimension, usually the contiguous one, is the inner loop).
 */
final class GridKernelWriter {
  static final ClassName CPU_EXECUTOR = ClassName.get("dev.kiln.runtime.cpu", "CpuExecutor");
  static final ClassName PARTIALS = ClassName.get("dev.kiln.runtime.cpu", "Partials");
  static final ClassName REDUCE_OP = ClassName.get("dev.kiln.runtime.cpu", "ReduceOp");
  static final ClassName SIMD = ClassName.get("dev.kiln.runtime.simd", "Simd");
  static final ClassName ALIGNED_COPIES = ClassName.get("dev.kiln.runtime.simd", "AlignedCopies");

  private GridKernelWriter() {}

  /**
   * The launcher of {@code op}; with {@code checked} false, a private kernel without argument checks
   * (an epilogue or a prologue, which its contraction's launcher calls after checking its own arguments).
   */
  static MethodSpec write(OperatorIr.Grid op, DocLinks owner, boolean checked) {
    return write(op, owner, checked, null, owner.owner().simpleName() + "." + op.name(), false);
  }

  /**
   * As {@link #write(OperatorIr.Grid, DocLinks, boolean)}; with {@code simd} not null, the launcher
   * runs {@code simd}'s method of the same name on each chunk when {@code Simd.ENABLED}: from the
   * first call when {@code simdReordersSums} (its floats are not the scalar form's, so the two are
   * never mixed), else as {@code CpuExecutor.forEachChunkChoosing} chooses (the scalar form until the
   * SIMD one measures faster). {@code where} names the kernel in the exception an index out of bounds
   * throws (the operator and its source line: {@link KernelsWriter#describe}).
   */
  static MethodSpec write(OperatorIr.Grid op, DocLinks owner, boolean checked, ClassName simd, String where,
      boolean simdReordersSums) {
    if (op.finishes() && simd != null) {
      throw new IllegalArgumentException(op.name() + " runs statements after its workers, which no SIMD form does (SimdPlan)");
    }
    MethodSpec.Builder m = MethodSpec.methodBuilder(op.name())
        .addModifiers(checked ? Modifier.PUBLIC : Modifier.PRIVATE, Modifier.STATIC)
        .addJavadoc(checked
            ? CodeBlock.of("CPU kernel of $L: the same parameters and results, run over the grid in parallel.\n",
                owner.of(op.name()))
            : CodeBlock.of("An internal kernel of a matrix product of {@link $T} ($L): a prologue, which computes"
                + " an operand of the product, or the epilogue, the rest of each worker.\n", owner.owner(), op.name()));
    List<String> reserved = new ArrayList<>();
    for (Param p : op.params()) {
      if (!OperatorIr.isScratch(p)) {
        m.addParameter(ParameterSpec.builder(JavaTypes.of(p), p.name()).build());
      }
      reserved.add(p.name());
      reserved.add(p.name() + "$length");
    }
    if (checked) {
      m.addCode(ArgumentChecks.of(op));
    }

    Names names = new Names(reserved);
    String chunk = names.fresh("chunk");
    String lo = names.fresh("lo");
    String hi = names.fresh("hi");
    String chunks = names.fresh("chunks");
    BodyEmitter emitter = new BodyEmitter(JavaSyntax.INSTANCE, names, op.names());
    emitter.countUses(op.body(), List.of());
    List<ReductionPlan.Entry> reductions = ReductionPlan.of(op);
    List<ReductionPlan.Group> groups = ReductionPlan.groups(op);

    if (op.grid().isEmpty()) {
      emitter.openScope();
      emitter.setWorkerDepth(0);
      emitter.statements(op.body());
      m.addCode(emitter.closeScope());
      m.addCode(BodyEmitter.finish(JavaSyntax.INSTANCE, op, names)); // after the one worker
      return m.build();
    }

    String outerExtent = op.grid().get(0).extentText();
    if (op.grid().size() == 1 && ScalarColumnLoops.walksColumns(op)) {
      // workers that each walk a column: chunks of whole blocks of columns where the threads allow
      m.addStatement("final int $N = $T.chunks($N, $L, $L)", chunks, CPU_EXECUTOR, outerExtent, WorkEstimate.perOuterIndex(op),
          ColumnLoops.BLOCK);
    } else {
      m.addStatement("final int $N = $T.chunks($N, $L)", chunks, CPU_EXECUTOR, outerExtent, WorkEstimate.perOuterIndex(op));
    }
    boolean columns = reductions.isEmpty() && groups.isEmpty() && ScalarColumnLoops.applies(op);
    if (op.grid().size() >= 2 && reductions.isEmpty() && groups.isEmpty() && op.scratch().isEmpty() && !columns) {
      flattened(m, op, simd, where, outerExtent, names, chunk, lo, hi);
    }
    // a SIMD kernel never accumulates (SimdPlan), so its launcher has no partials to set up
    boolean simdFirst = simd != null && reductions.stream().noneMatch(ReductionPlan.Entry::partials) && groups.isEmpty();
    if (simd != null && !simdFirst) {
      m.beginControlFlow("if ($T.ENABLED)", SIMD);
      withAlignedCopies(m, op, names, outerExtent, inputs -> CodeBlock.of("$T.forEachChunk($S, $N, $N, $L);\n", CPU_EXECUTOR,
          where, outerExtent, chunks, simdChunk(op, simd, chunk, lo, hi, inputs)));
      m.addStatement("return").endControlFlow();
    }
    emitter.openScope(); // per-chunk prologue
    emitter.add(ScratchCode.allocations(op));
    List<CodeBlock> folds = new ArrayList<>();
    for (ReductionPlan.Entry r : reductions) {
      if (!r.partials()) {
        continue;
      }
      TypeName array = JavaTypes.arrayOf(r.array().elementType());
      String all = names.fresh(r.array().name() + "Partials");
      String mine = names.fresh(r.array().name() + "Part");
      m.addStatement("final $T $N = $N == 1 ? new $T[] {$N} : $T.$L($T.$L, $N, $N.length)",
          ArrayTypeName.of(array), all, chunks, array, r.array().name(), PARTIALS,
          r.array().elementType().javaName() + "s", REDUCE_OP, r.op().name(), chunks, r.array().name());
      emitter.add(CodeBlock.builder().addStatement("final $T $N = $N[$N]", array, mine, all, chunk).build());
      emitter.target(r.array(), mine);
      folds.add(CodeBlock.builder()
          .addStatement("$T.foldInto($N, $N, $T.$L)", PARTIALS, r.array().name(), all, REDUCE_OP, r.op().name()).build());
    }
    for (ReductionPlan.Group g : groups) {
      if (!g.partials()) {
        continue;
      }
      List<String> all = new ArrayList<>();
      for (int i = 0; i < g.arrays().size(); i++) {
        Param.Array a = g.arrays().get(i);
        TypeName array = JavaTypes.arrayOf(a.elementType());
        String partials = names.fresh(a.name() + "Partials");
        String mine = names.fresh(a.name() + "Part");
        m.addStatement("final $T $N = $N == 1 ? new $T[] {$N} : $T.filled($L, $N, $N.length)",
            ArrayTypeName.of(array), partials, chunks, array, a.name(), PARTIALS,
            JavaSyntax.INSTANCE.literal(g.monoid().identity().get(i)), chunks, a.name());
        emitter.add(CodeBlock.builder().addStatement("final $T $N = $N[$N]", array, mine, partials, chunk).build());
        emitter.target(a, mine);
        all.add(partials);
      }
      folds.add(MonoidFolds.tree(g, all, chunks, names));
    }
    CodeBlock chunkBody;
    if (columns) {
      // each worker folds a loop down a column: rows outermost over blocks of workers (no partials,
      // no scratch: ScalarColumnLoops)
      chunkBody = ScalarColumnLoops.chunk(op, names, lo, hi);
    } else {
      List<String> varNames = bindGrid(emitter, op, names);
      emitter.setWorkerDepth(op.grid().size());
      emitter.add(ScratchCode.fills(op));
      emitter.statements(op.body());
      for (int k = op.grid().size() - 1; k >= 0; k--) {
        CodeBlock inner = emitter.closeScope();
        emitter.add(gridLoop(op, k, varNames.get(k), lo, hi, inner));
      }
      chunkBody = emitter.closeScope();
    }
    if (simdFirst) {
      // the scalar chunk is also what an index out of bounds in a SIMD chunk reruns, so that the
      // exception is the plain method's, at the same index (a vector load reports its first lane)
      String scalar = names.fresh("scalar");
      m.addCode("final $T.ChunkBody $N = ($N, $N, $N) -> {\n$>$L$<};\n", CPU_EXECUTOR, scalar, chunk, lo, hi, chunkBody);
      List<OperatorIr.Grid> parts = columns ? DealtLoops.parts(op) : List.of();
      if (!parts.isEmpty()) {
        dealt(m, op, parts, simd, where, simdReordersSums, outerExtent, chunks, names, chunk, lo, hi);
      }
      m.beginControlFlow("if ($T.ENABLED)", SIMD);
      withAlignedCopies(m, op, names, outerExtent, inputs -> simdChunks(op, where, simdReordersSums,
          CodeBlock.of("$N", outerExtent), chunks, simdChunk(op, simd, chunk, lo, hi, inputs), scalar));
      m.addStatement("return").endControlFlow();
      m.addStatement("$T.forEachChunk($S, $N, $N, $N)", CPU_EXECUTOR, where, outerExtent, chunks, scalar);
      return m.build();
    }
    m.addCode("$T.forEachChunk($S, $N, $N, ($N, $N, $N) -> {\n$>$L$<});\n", CPU_EXECUTOR, where, outerExtent, chunks, chunk, lo,
        hi, chunkBody);
    for (CodeBlock fold : folds) {
      m.beginControlFlow("if ($N > 1)", chunks).addCode(fold).endControlFlow();
    }
    m.addCode(BodyEmitter.finish(JavaSyntax.INSTANCE, op, names)); // on the calling thread, after the fold
    return m.build();
  }

  /**
   * The launcher's other path, taken when the outermost grid dimension is too short to give every
   * thread a chunk ({@code CpuExecutor.flatChunks}) and the kernel runs its scalar form: chunks of
   * the flattened grid of the two outermost dimensions, a scalar body over flattened ranges.
   * Workers are independent and none accumulates (no reduction, no per-chunk scratch), so any cut
   * gives the same results. Not where a SIMD form runs: it takes whole outer indices only, and one
   * row of a few on a thread each measured faster than the scalar form on every thread (the LSTM
   * cell at 1x1048576 on 2 cores: 6.2 ms against 25 when the flattened chunks' partial rows ran
   * scalar).
   */
  private static void flattened(MethodSpec.Builder m, OperatorIr.Grid op, ClassName simd, String where, String outerExtent,
      Names names, String chunk, String lo, String hi) {
    String innerExtent = op.grid().get(1).extentText();
    String flatChunks = names.fresh("flatChunks");
    m.addStatement("final int $N = $T.flatChunks($L, $L, $L)", flatChunks, CPU_EXECUTOR, outerExtent, innerExtent,
        WorkEstimate.perOuterIndex(op));
    if (simd != null) {
      m.beginControlFlow("if ($N > 0 && !$T.ENABLED)", flatChunks, SIMD);
    } else {
      m.beginControlFlow("if ($N > 0)", flatChunks);
    }
    m.addComment("few outer indices for the threads: chunks of the flattened $L x $L grid", outerExtent, innerExtent);
    BodyEmitter emitter = new BodyEmitter(JavaSyntax.INSTANCE, names, op.names());
    emitter.countUses(op.body(), List.of());
    emitter.openScope();
    String first = names.fresh("first");
    String last = names.fresh("last");
    emitter.add(CodeBlock.builder()
        .addStatement("final int $N = $N / ($L)", first, lo, innerExtent)
        .addStatement("final int $N = ($N - 1) / ($L)", last, hi, innerExtent)
        .build());
    List<String> vars = bindGrid(emitter, op, names);
    emitter.setWorkerDepth(op.grid().size());
    emitter.statements(op.body());
    for (int k = op.grid().size() - 1; k >= 0; k--) {
      CodeBlock inner = emitter.closeScope();
      String v = vars.get(k);
      CodeBlock loop;
      if (k == 0) {
        loop = CodeBlock.of("for (int $N = $N; $N <= $N; $N++) {\n$>$L$<}\n", v, first, v, last, v, inner);
      } else if (k == 1) {
        String row = vars.get(0);
        loop = CodeBlock.of("for (int $N = $N == $N ? $N - $N * ($L) : 0; $N < ($N == $N ? $N - $N * ($L) : $L); $N++) {\n$>$L$<}\n",
            v, row, first, lo, row, innerExtent, v, row, last, hi, row, innerExtent, innerExtent, v, inner);
      } else {
        loop = gridLoop(op, k, v, lo, hi, inner);
      }
      emitter.add(loop);
    }
    CodeBlock body = emitter.closeScope();
    String flatScalar = names.fresh("flatScalar");
    m.addCode("final $T.ChunkBody $N = ($N, $N, $N) -> {\n$>$L$<};\n", CPU_EXECUTOR, flatScalar, chunk, lo, hi, body);
    m.addStatement("$T.forEachChunk($S, ($L) * ($L), $N, $N)", CPU_EXECUTOR, where, outerExtent, innerExtent, flatChunks,
        flatScalar);
    m.addStatement("return");
    m.endControlFlow();
  }

  /**
   * Opens a scope of {@code emitter} for each of {@code op}'s grid dimensions, outermost first, and
   * binds its variable there to a fresh name; returns the names (the scalar launcher's two paths and
   * the SIMD form's loops write their grid loops around them).
   */
  static List<String> bindGrid(BodyEmitter emitter, OperatorIr.Grid op, Names names) {
    List<String> vars = new ArrayList<>();
    for (int k = 0; k < op.grid().size(); k++) {
      GridDim g = op.grid().get(k);
      emitter.openScope();
      String v = names.fresh(g.var().name());
      vars.add(v);
      emitter.bind(g.var(), v, k + 1);
    }
    return vars;
  }

  /** {@code for (int v = lo; v < hi; v++)} for the outermost grid dimension, from 0 to its extent for the others. */
  static CodeBlock gridLoop(OperatorIr.Grid op, int k, String v, String lo, String hi, CodeBlock body) {
    return k == 0
        ? CodeBlock.of("for (int $N = $N; $N < $N; $N++) {\n$>$L$<}\n", v, lo, v, hi, v, body)
        : CodeBlock.of("for (int $N = 0; $N < $N; $N++) {\n$>$L$<}\n", v, v, op.grid().get(k).extentText(), v, body);
  }

  /**
   * The launcher's path for a kernel whose loops are dealt to the threads ({@link DealtLoops}),
   * taken when the SIMD form runs and the columns make more than one chunk: the chunks cut {@code
   * parts.size()} copies of the columns, one after another, into as many ranges a part as the
   * columns alone would make (at least one), so that each chunk runs one part over its columns.
   */
  private static void dealt(MethodSpec.Builder m, OperatorIr.Grid op, List<OperatorIr.Grid> parts, ClassName simd,
      String where, boolean simdReordersSums, String outerExtent, String chunks, Names names, String chunk, String lo,
      String hi) {
    int count = parts.size();
    m.beginControlFlow("if ($T.ENABLED && $N > 1 && (long) $L * $N <= $T.MAX_VALUE)", SIMD, chunks, count, outerExtent,
        Integer.class);
    m.addComment("its $L loops dealt to the threads, a part a chunk, each over whole rows (DealtLoops)", count);
    String perPart = names.fresh("dealt");
    m.addStatement("final int $N = $L * (($N + $L) / $L)", perPart, count, chunks, count - 1, count);
    String scalar = names.fresh("scalarParts");
    m.addCode("final $T.ChunkBody $N = $L;\n", CPU_EXECUTOR, scalar, partsBody(parts, outerExtent, names, chunk, lo, hi,
        (part, from, to) -> ScalarColumnLoops.chunk(part, names, from, to)));
    withAlignedCopies(m, op, names, outerExtent, inputs -> simdChunks(op, where, simdReordersSums,
        CodeBlock.of("$L * $N", count, outerExtent), perPart, partsBody(parts, outerExtent, names, chunk, lo, hi,
            (part, from, to) -> CodeBlock.builder().addStatement("$L", simdCall(part, simd, from, to, inputs)).build()),
        scalar));
    m.addStatement("return");
    m.endControlFlow();
  }

  /** What a dealt chunk runs: {@code part} over columns {@code [from, to)}, for the part its range lies in. */
  private interface PartCode {
    CodeBlock of(OperatorIr.Grid part, String from, String to);
  }

  /** {@code (chunk, lo, hi) -> switch (lo / columns) { case i -> part i over [lo, hi) less its offset }}. */
  private static CodeBlock partsBody(List<OperatorIr.Grid> parts, String outerExtent, Names names, String chunk, String lo,
      String hi, PartCode code) {
    String part = names.fresh("part");
    String from = names.fresh("from");
    String to = names.fresh("to");
    CodeBlock.Builder body = CodeBlock.builder()
        .addStatement("final int $N = $N / $N", part, lo, outerExtent)
        .addStatement("final int $N = $N - $N * $N", from, lo, part, outerExtent)
        .addStatement("final int $N = $N - $N * $N", to, hi, part, outerExtent)
        .beginControlFlow("switch ($N)", part);
    for (int i = 0; i < parts.size(); i++) {
      body.add(i < parts.size() - 1 ? CodeBlock.of("case $L -> {\n$>", i) : CodeBlock.of("default -> {\n$>"));
      body.add(code.of(parts.get(i), from, to));
      body.add("$<}\n");
    }
    body.endControlFlow();
    return CodeBlock.of("($N, $N, $N) -> {\n$>$L$<}", chunk, lo, hi, body.build());
  }

  /**
   * Adds {@code run}'s statement, which runs the SIMD form's chunks, to {@code m}: as it is where
   * {@code op} has no {@link RowInvariantInputs}, else inside {@code try (AlignedCopies copies =
   * AlignedCopies.of(rows))} after one {@code final float[] gammaAligned = copies.copy(gamma);} an
   * input, {@code run} given the names the chunks read each input by.
   */
  private static void withAlignedCopies(MethodSpec.Builder m, OperatorIr.Grid op, Names names, String outerExtent,
      Function<Map<String, String>, CodeBlock> run) {
    List<Param.Array> inputs = RowInvariantInputs.of(op);
    if (inputs.isEmpty()) {
      m.addCode(run.apply(Map.of()));
      return;
    }
    String copies = names.fresh("copies");
    m.beginControlFlow("try (final $T $N = $T.of($L))", ALIGNED_COPIES, copies, ALIGNED_COPIES, outerExtent);
    Map<String, String> renamed = new HashMap<>();
    for (Param.Array a : inputs) {
      String copy = names.fresh(a.name() + "Aligned");
      m.addStatement("final float[] $N = $N.copy($N)", copy, copies, a.name());
      renamed.put(a.name(), copy);
    }
    m.addCode(run.apply(renamed));
    m.endControlFlow();
  }

  /**
   * The statement that runs the SIMD form's chunks {@code simdBody} over {@code [0, extent)} in
   * {@code chunks} chunks, {@code scalar} the scalar twin: from the first call where the SIMD form
   * reorders sums, else as {@code CpuExecutor.forEachChunkChoosing} chooses.
   */
  private static CodeBlock simdChunks(OperatorIr.Grid op, String where, boolean simdReordersSums, CodeBlock extent,
      String chunks, CodeBlock simdBody, String scalar) {
    return simdReordersSums
        ? CodeBlock.of("$T.forEachChunk($S, $L, $N, $L, $N);\n", CPU_EXECUTOR, where, extent, chunks, simdBody, scalar)
        : CodeBlock.of("$T.forEachChunkChoosing($S, $L, $N, $L, $N, $L);\n", CPU_EXECUTOR, where, extent, chunks, simdBody,
            scalar, SimdKernelWriter.minimumPiece(op));
  }

  /** {@code (chunk, lo, hi) -> <Class>SimdKernels.<op>(lo, hi, <op's parameters>)} ({@link #simdCall}). */
  private static CodeBlock simdChunk(OperatorIr.Grid op, ClassName simd, String chunk, String lo, String hi,
      Map<String, String> renamed) {
    return CodeBlock.of("($N, $N, $N) -> $L", chunk, lo, hi, simdCall(op, simd, lo, hi, renamed));
  }

  /**
   * {@code <Class>SimdKernels.<op>(lo, hi, <op's parameters>)}, a parameter that {@code renamed}
   * names by the name it gives.
   */
  private static CodeBlock simdCall(OperatorIr.Grid op, ClassName simd, String lo, String hi, Map<String, String> renamed) {
    List<CodeBlock> args = new ArrayList<>(List.of(CodeBlock.of("$N", lo), CodeBlock.of("$N", hi)));
    op.arguments().forEach(p -> args.add(CodeBlock.of("$N", renamed.getOrDefault(p.name(), p.name()))));
    return CodeBlock.of("$T.$N($L)", simd, op.name(), CodeBlock.join(args, ", "));
  }
}
