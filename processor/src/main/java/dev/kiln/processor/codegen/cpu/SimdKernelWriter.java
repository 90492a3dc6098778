package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import dev.kiln.processor.codegen.BodyEmitter;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Modifier;

/**
 * Writes the SIMD form of a grid kernel that {@link SimdPlan} accepts: one chunk
 * {@code [lo, hi)} of the outermost grid dimension, with the innermost dimension stepped a vector
 * at a time ({@code FloatVector.SPECIES_PREFERRED}) and its remainder run as scalar workers (the rows
 * form's loops run their remainder as scalar iterations). Values that do not depend on the
 * innermost index are scalar code, as in the scalar kernel.
 */
final class SimdKernelWriter {
  static final ClassName FLOAT_VECTOR = ClassName.get("jdk.incubator.vector", "FloatVector");
  static final ClassName VECTOR_MASK = ClassName.get("jdk.incubator.vector", "VectorMask");
  static final ClassName VECTOR_SPECIES = ClassName.get("jdk.incubator.vector", "VectorSpecies");
  static final ClassName VECTOR_OPERATORS = ClassName.get("jdk.incubator.vector", "VectorOperators");
  static final TypeName FLOAT_MASK = ParameterizedTypeName.get(VECTOR_MASK, TypeName.FLOAT.box());
  static final TypeName FLOAT_SPECIES = ParameterizedTypeName.get(VECTOR_SPECIES, TypeName.FLOAT.box());
  /** The species field of the generated class. */
  static final String SPECIES = "SPECIES";
  /** The SIMD class's count of vectors that hold an any-order sum's partials: 1, 2 or 4 (16, 8 or 4 lanes). */
  static final String PARTIAL_VECTORS = "PARTIAL_VECTORS";

  private SimdKernelWriter() {}

  /**
   * {@code static void <op>(int lo, int hi, <op's parameters>)}: workers as lanes when the
   * verdict says so, else each worker as in the scalar kernel with its accepted loops as vectors.
   */
  static List<MethodSpec> write(OperatorIr.Grid op, DocLinks owner, SimdPlan.Verdict verdict, boolean reorderSums) {
    if (verdict.lanes()) {
      List<Expr.Call> stages = SimdFission.stages(op);
      if (stages.size() >= 2) {
        return SimdFission.write(op, owner, stages);
      }
      List<MethodSpec> methods = new ArrayList<>(List.of(lanes(op, owner, ColumnLoops.BLOCK)));
      for (OperatorIr.Grid part : DealtLoops.parts(op)) {
        methods.add(lanes(part, owner, DealtLoops.ROW_BLOCK)); // a loop a thread (DealtLoops)
      }
      return methods;
    }
    return loops(op, owner, reorderSums);
  }

  static MethodSpec.Builder header(OperatorIr.Grid op, DocLinks owner, String lo, String hi) {
    MethodSpec.Builder m = MethodSpec.methodBuilder(op.name())
        .addModifiers(Modifier.STATIC)
        .addJavadoc("SIMD form of $L over outer indices {@code [lo, hi)}.\n", owner.of(op.name()))
        .addParameter(TypeName.INT, lo)
        .addParameter(TypeName.INT, hi);
    for (Param p : op.arguments()) {
      m.addParameter(ParameterSpec.builder(JavaTypes.of(p), p.name()).build());
    }
    m.addCode(ScratchCode.allocations(op));
    return m;
  }

  /** Names for one SIMD method: its parameters' and the species field's are taken. */
  static Names names(OperatorIr.Grid op) {
    return Names.forParams(op, SPECIES);
  }

  /**
   * The fewest outer indices of a call of a 1-D kernel's lanes form while it is measured: four
   * vectors of the widest species (16 floats), so that a call runs the vector loop, not only the
   * scalar tail after it.
   */
  static final int LANES_PIECE = 64;

  /** As {@link #LANES_PIECE} for lanes that each walk a column ({@link ColumnLoops}): a quarter of a block. */
  static final int COLUMNS_PIECE = ColumnLoops.BLOCK / 4;

  /**
   * The fewest outer indices worth a call of {@code source}'s SIMD form while its launcher measures
   * it ({@code CpuExecutor.forEachChunkChoosing}): {@link #LANES_PIECE} where its lanes are the outer
   * index itself (a 1-D grid; {@link #COLUMNS_PIECE} where they walk columns), {@link RowJam#ROWS} for a row kernel that runs rows four at a time (a
   * shorter call would never run, so never warm, either path), else 1 (an outer index is a row).
   */
  static int minimumPiece(OperatorIr.Grid source) {
    if (source.grid().size() == 1 && SimdPlan.judge(source, false).lanes()) {
      // a worker walking a column: a narrow piece reads each row in short pieces, slow in either form
      return ScalarColumnLoops.walksColumns(source) ? COLUMNS_PIECE : LANES_PIECE;
    }
    return RowJam.jam(simdForm(source)) != null ? RowJam.ROWS : 1;
  }

  /** The worker as the SIMD form runs it: scratch rows computed again where read, calls kept per worker. */
  static OperatorIr.Grid simdForm(OperatorIr.Grid source) {
    return CallStash.applyAll(ScratchRecompute.apply(source).op()).op();
  }

  /**
   * Each worker as the scalar kernel runs it, through {@link BodyEmitter}, with {@link SimdLoops};
   * for a row kernel that {@link RowJam} accepts, {@code ROWS} rows at a time, then the rows left.
   */
  private static List<MethodSpec> loops(OperatorIr.Grid source, DocLinks owner, boolean reorderSums) {
    OperatorIr.Grid op = simdForm(source);
    boolean inPlace = AlignedStart.mayRunInPlace(source);
    Names names = names(op);
    String lo = names.fresh("lo");
    String hi = names.fresh("hi");
    MethodSpec.Builder m = header(op, owner, lo, hi);
    List<MethodSpec> outlined = new ArrayList<>();
    OperatorIr.Grid jammed = RowJam.jam(op);
    if (jammed == null) {
      SimdLoops loops = SimdLoops.of(op, names, reorderSums, op.name(), inPlace);
      BodyEmitter emitter = new BodyEmitter(JavaSyntax.INSTANCE, names, op.names());
      emitter.countUses(op.body(), List.of());
      emitter.lowering(loops);
      emitter.openScope();
      List<String> vars = GridKernelWriter.bindGrid(emitter, op, names);
      emitter.setWorkerDepth(op.grid().size());
      emitter.add(ScratchCode.fills(op));
      emitter.statements(op.body());
      for (int k = op.grid().size() - 1; k >= 0; k--) {
        CodeBlock inner = emitter.closeScope();
        emitter.add(GridKernelWriter.gridLoop(op, k, vars.get(k), lo, hi, inner));
      }
      m.addCode(loops.prologue());
      m.addCode(emitter.closeScope());
      outlined.addAll(loops.outlined());
    } else {
      String b = names.fresh(op.grid().get(0).var().name());
      SimdLoops rowLoops = SimdLoops.of(jammed, names, reorderSums, op.name() + "$rows", inPlace).splittingStores();
      CodeBlock[] rows = rowWorker(jammed, names, rowLoops, b);
      SimdLoops loops = SimdLoops.of(op, names, reorderSums, op.name(), inPlace);
      CodeBlock[] single = rowWorker(op, names, loops, b);
      for (Param.Array a : jammed.scratch()) {
        if (!op.scratch().contains(a)) { // the other rows' copies of the scratch arrays
          m.addCode(ScratchCode.allocation(op, a));
        }
      }
      m.addCode(rowLoops.prologue()).addCode(loops.prologue());
      m.addCode(rows[0]).addCode(single[0]);
      m.addStatement("int $N = $N", b, lo);
      m.addComment("$L rows at a time, their loops fused: each row's sums in index order, side by side", RowJam.ROWS);
      m.beginControlFlow("for (; $N <= $N - $L; $N += $L)", b, hi, RowJam.ROWS, b, RowJam.ROWS)
          .addCode(rows[1])
          .endControlFlow();
      m.beginControlFlow("for (; $N < $N; $N++)", b, hi, b).addCode(single[1]).endControlFlow();
      outlined.addAll(rowLoops.outlined());
      outlined.addAll(loops.outlined());
    }
    List<MethodSpec> methods = new ArrayList<>();
    methods.add(m.build());
    methods.addAll(outlined);
    return methods;
  }

  /** A one-dimensional grid's worker with its variable named {@code var}: what goes before the row loop, and its body. */
  private static CodeBlock[] rowWorker(OperatorIr.Grid op, Names names, SimdLoops loops, String var) {
    BodyEmitter emitter = new BodyEmitter(JavaSyntax.INSTANCE, names, op.names());
    emitter.countUses(op.body(), List.of());
    emitter.lowering(loops);
    emitter.openScope();
    emitter.openScope();
    emitter.bind(op.grid().get(0).var(), var, 1);
    emitter.setWorkerDepth(1);
    emitter.add(ScratchCode.fills(op));
    emitter.statements(op.body());
    CodeBlock body = emitter.closeScope();
    return new CodeBlock[] {emitter.closeScope(), body};
  }

  /** The lanes form of {@code op}; a kernel whose lanes walk columns ({@link ColumnLoops}) takes them in blocks of {@code columns}. */
  private static MethodSpec lanes(OperatorIr.Grid op, DocLinks owner, int columns) {
    Names names = names(op);
    String lo = names.fresh("lo");
    String hi = names.fresh("hi");
    MethodSpec.Builder m = header(op, owner, lo, hi);
    int last = op.grid().size() - 1;
    Map<Expr, String> bound = new HashMap<>();
    List<String> outerVars = new ArrayList<>();
    for (int k = 0; k < last; k++) {
      String v = names.fresh(op.grid().get(k).var().name());
      outerVars.add(v);
      bound.put(op.grid().get(k).var(), v);
    }
    GridDim inner = op.grid().get(last);
    String v = names.fresh(inner.var().name());
    bound.put(inner.var(), v);
    String start = last == 0 ? lo : "0";
    String end = last == 0 ? hi : inner.extentText();

    CodeBlock.Builder rows = CodeBlock.builder();
    if (ColumnLoops.applies(op)) {
      String limit = names.fresh("vectorEnd");
      rows.addStatement("final int $N = $N + $N.loopBound($N - $N)", limit, start, SPECIES, end, start);
      // each loop with the rows outermost over a block of columns (ColumnLoops)
      Map<Expr, String> outer = new HashMap<>(bound);
      outer.remove(inner.var());
      rows.add(ColumnLoops.write(op, names, outer, names.fresh(inner.var().name()), start, limit, columns));
      rows.addStatement("int $N = $N", v, limit);
      rows.add(scalarTail(op, names, bound, v, end));
    } else {
      List<Stmt.Store> pieces = StoreStreams.pieces(op);
      if (!pieces.isEmpty()) {
        rows.beginControlFlow("if ($L <= $L)", end, StoreStreams.MAX_ROW);
        rows.add("// a loop a store, each array read and written in address order (StoreStreams)\n");
        rows.addStatement("int $N = $N", v, start);
        for (int i = 0; i < pieces.size(); i++) {
          if (i > 0) {
            rows.addStatement("$N = $N", v, start);
          }
          // (no output is an input: StoreStreams splits no kernel that may run in place)
          rows.add(rowLoop(op.withBody(List.of(pieces.get(i))), names, bound, v, end, false));
        }
        rows.nextControlFlow("else");
      }
      rows.addStatement("int $N = $N", v, start);
      rows.add(rowLoop(op, names, bound, v, end, AlignedStart.mayRunInPlace(op)));
      if (!pieces.isEmpty()) {
        rows.endControlFlow();
      }
    }
    CodeBlock code = rows.build();
    for (int k = last - 1; k >= 0; k--) {
      code = GridKernelWriter.gridLoop(op, k, outerVars.get(k), lo, hi, code);
    }
    return m.addCode(code).build();
  }

  /**
   * The workers of a row from {@code v} to {@code end}: the iterations before the aligned start,
   * the vectors, then the remaining workers one by one ({@link #scalarTail}); {@code inPlace}: whether
   * the kernel (not only {@code op}, which may be one of its stores) may run with an output that is
   * also an input.
   */
  private static CodeBlock rowLoop(OperatorIr.Grid op, Names names, Map<Expr, String> bound, String v, String end,
      boolean inPlace) {
    CodeBlock.Builder rows = CodeBlock.builder();
    String limit = names.fresh("vectorEnd");
    SimdPlan plan = SimdPlan.forLanes(op);
    Expr aligned = AlignedStart.heavy(op.body()) ? null : AlignedStart.target(op.body(), List.of(), plan);
    if (aligned != null) {
      CodeBlock.Builder at = CodeBlock.builder();
      CodeBlock atV = new VectorBody(plan, names, op.names(), x -> CodeBlock.of("$N", bound.get(x)), at)
          .scalar(aligned);
      rows.add(at.build());
      rows.add(AlignedStart.rewritable(op.body()) && !inPlace
          ? AlignedStart.overlappingHead(names.fresh("head"), v, CodeBlock.of("$N", end), atV, laneStep(op, plan, names, bound))
          : AlignedStart.head(names.fresh("head"), v, CodeBlock.of("$N", end), atV, scalarWorker(op, names, bound)));
    }
    rows.addStatement("final int $N = $N + $N.loopBound($N - $N)", limit, v, SPECIES, end, v);
    rows.beginControlFlow("for (; $N < $N; $N += $N.length())", v, limit, v, SPECIES);
    rows.add(laneStep(op, plan, names, bound));
    rows.endControlFlow();
    return rows.add(scalarTail(op, names, bound, v, end)).build();
  }

  /**
   * The remaining workers (fewer than a vector) one by one, as the scalar kernel runs them: the
   * same floats, and no second copy of the vector code to spend C2's node budget on (a vector
   * that crosses a call C2 stopped inlining is boxed, and the loop runs no faster than scalar).
   */
  private static CodeBlock scalarTail(OperatorIr.Grid op, Names names, Map<Expr, String> bound, String v, String end) {
    return CodeBlock.builder()
        .beginControlFlow("for (; $N < $N; $N++)", v, end, v)
        .add(scalarWorker(op, names, bound))
        .endControlFlow()
        .build();
  }

  /** One worker's statements as the scalar kernel writes them, its grid variables named by {@code bound}. */
  static CodeBlock scalarWorker(OperatorIr.Grid op, Names names, Map<Expr, String> bound) {
    BodyEmitter emitter = new BodyEmitter(JavaSyntax.INSTANCE, names, op.names());
    emitter.countUses(op.body(), List.of());
    emitter.openScope();
    for (GridDim g : op.grid()) {
      emitter.bind(g.var(), bound.get(g.var()), 0);
    }
    emitter.setWorkerDepth(0);
    emitter.statements(op.body());
    return emitter.closeScope();
  }

  /** One vector step of every worker statement, the lanes being neighbouring workers ({@code plan}: {@code op}'s lanes plan). */
  private static CodeBlock laneStep(OperatorIr.Grid op, SimdPlan plan, Names names, Map<Expr, String> bound) {
    CodeBlock.Builder out = CodeBlock.builder();
    VectorBody body = new VectorBody(plan, names, op.names(), v -> CodeBlock.of("$N", bound.get(v)), out);
    body.statements(op.body());
    return out.build();
  }
}
