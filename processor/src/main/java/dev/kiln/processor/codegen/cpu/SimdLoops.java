package dev.kiln.processor.codegen.cpu;

import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.FLOAT_VECTOR;
import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.PARTIAL_VECTORS;
import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.SPECIES;
import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.VECTOR_OPERATORS;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.TypeName;
import dev.kiln.processor.codegen.BodyEmitter;
import dev.kiln.processor.codegen.LoopLowering;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.codegen.PartialSums;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.MathFn;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import javax.lang.model.element.Modifier;

/**
 * Writes the sequential loops that {@link SimdPlan#loopRefusal} accepts a vector of iterations at
 * a time, with the same floats as the scalar loop: stores as vector stores; a {@code max} or
 * {@code min} fold kept per lane and reduced after the loop (exact in any order); any other fold
 * (a sum, a product) applied to each vector's terms one by one in index order, so the rounding is
 * the scalar loop's, unless {@code -Akiln.simd.sums=reorder} lets sums keep a partial sum per lane. The last iterations (fewer than a vector) run as scalar code after the
 * vectors. Other loops are left to the emitter.
 *
 * <p>In a kernel whose vectorised loops make two or more exp, tanh, sigmoid or erf calls (softmax:
 * one in the sum of exponentials, one in the outputs; or four rows' sums, {@link RowJam}), each loop
 * that makes one is written as a method of its own ({@code <op>$loop<n>}), called with the values it reads and returning its folds: one method
 * holding them all spends C2's inlining budget on the first call, and the second's vectors are
 * boxed (softmax ran 2.7 times slower so). The same statements, so the same floats.
 */
final class SimdLoops implements LoopLowering {
  private final Names names;
  private final Map<Expr, String> sourceNames;
  private final boolean reorderSums;
  /** The kernel whose heavy loops are outlined, or null to write every loop in place. */
  private final OperatorIr.Grid outlineFrom;
  /** What the outlined methods' names start with. */
  private final String prefix;
  private final List<MethodSpec> outlined = new ArrayList<>();

  /**
   * @param reorderSums whether a sum fold ({@code acc + t}, {@code acc - t}) may add its terms in
   *     another order: per lane, the lanes added at the end ({@code -Akiln.simd.sums=reorder})
   */
  SimdLoops(Names names, Map<Expr, String> sourceNames, boolean reorderSums, OperatorIr.Grid outlineFrom, String prefix) {
    this.prefix = prefix;
    this.names = names;
    this.sourceNames = sourceNames;
    this.reorderSums = reorderSums;
    this.outlineFrom = outlineFrom;
  }

  /**
   * The kernel {@code op}'s loops, those with heavy calls outlined if its vectorised loops make two
   * or more such calls; {@code inPlace}, whether its launcher lets it run with an output that is
   * also an input ({@link AlignedStart#mayRunInPlace} of the source kernel, which the launcher checks).
   */
  static SimdLoops of(OperatorIr.Grid op, Names names, boolean reorderSums, String prefix, boolean inPlace) {
    int heavy = 0;
    int vectorised = 0;
    for (Stmt.Loop l : SimdPlan.innermostLoops(op.body())) {
      if (SimdPlan.loopRefusal(l) == null) {
        heavy += heavyCalls(l);
        vectorised++;
      }
    }
    boolean heavyLanes = false;
    for (dev.kiln.processor.ir.analysis.LaneNest n : SimdPlan.laneNests(op.body())) {
      int calls = heavyCalls(LaneSums.unitView(n));
      heavy += calls;
      heavyLanes |= calls > 0;
      vectorised++;
    }
    // (a lane sum with such a call is written once per vector length: always outlined, LaneSums)
    SimdLoops loops = new SimdLoops(names, op.names(), reorderSums,
        heavy >= 2 || heavyLanes || vectorised >= OUTLINE_ALL ? op : null, prefix);
    loops.outlineAll = vectorised >= OUTLINE_ALL;
    loops.inPlace = inPlace;
    loops.safeLoads = SafeLoads.of(op);
    return loops;
  }

  /**
   * Vectorised loops from which every loop (but one carrying a boolean) gets a method of its own:
   * a kernel with this many, four rows at a time, is a method C1 gives up on ("out of virtual
   * registers") and C2 compiles only after thousands of calls in the interpreter (softmax's and
   * layer norm's gradients: some 5 seconds of a training run).
   */
  static final int OUTLINE_ALL = 4;

  private boolean outlineAll;

  /** Whether the kernel may run with an output that is also an input ({@link AlignedStart#mayRunInPlace}). */
  private boolean inPlace;

  /** The kernel's loads that cannot throw wherever they run ({@link SafeLoads}); none until {@link #of} sets them. */
  private Predicate<Expr.Load> safeLoads = load -> false;

  /** Whether a loop that only stores writes each independent group of stores in a loop of its own (jammed rows). */
  private boolean splitStores;

  /** These loops, writing a loop of jammed rows' stores one row at a time ({@link #splitStores}). */
  SimdLoops splittingStores() {
    splitStores = true;
    return this;
  }

  /**
   * The folds of the loop {@link #lower} is writing that keep sixteen partial sums ({@link PartialSums}),
   * each with its partials' array and its four vector names; set at the start of every loop.
   */
  private Map<Stmt.Carried, Partial> partial = Map.of();

  /** An any-order sum's partials: the array after the loop, the vectors during it. */
  private record Partial(PartialSums.Sum sum, String parts, List<String> vectors) {}

  /** The methods written for outlined loops, in the order written. */
  List<MethodSpec> outlined() {
    return outlined;
  }

  /**
   * The scratch arrays of every loop written so far, one set per loop site, allocated once where
   * the kernel method starts ({@link #prologue}) rather than each time the loop starts: their
   * sizes are constants, and each loop overwrites what it reads of them before reading it. In a
   * row kernel a loop starts once per row or four rows; allocating (and zeroing) a kilobyte of
   * terms there cost layer norm's forward kernel 10-15% of its time.
   */
  private final Map<String, CodeBlock> scratch = new LinkedHashMap<>();

  /** The scratch arrays used by the loop {@link #lower} is writing, passed on to it when it is outlined. */
  private List<String> loopScratch = List.of();

  /** The statements that allocate every loop's scratch arrays: the kernel method puts them before its loops. */
  CodeBlock prologue() {
    return CodeBlock.join(scratch.values(), "");
  }

  /** Starts writing a loop: no partial sums, no scratch arrays yet. */
  void startLoop() {
    partial = new java.util.HashMap<>();
    loopScratch = new ArrayList<>();
  }

  Names names() {
    return names;
  }

  Map<Expr, String> sourceNames() {
    return sourceNames;
  }

  /** Whether the loop {@code l} (a vector step's view) is written as a method of its own ({@link #outline}). */
  boolean outlines(Stmt.Loop l) {
    return outlineFrom != null && (heavyCalls(l) > 0 || outlineAll);
  }

  /** A new scratch array of {@code length} floats for the loop being written, allocated in {@link #prologue}. */
  String scratchArray(String base, CodeBlock length) {
    String name = names.fresh(base);
    scratch.put(name, CodeBlock.builder().addStatement("final float[] $N = new float[$L]", name, length).build());
    loopScratch.add(name);
    return name;
  }

  /** How many exp/tanh/sigmoid/erf calls {@code l}'s body and folds make. */
  static int heavyCalls(Stmt.Loop l) {
    return calls(l, SimdFission.HEAVY);
  }

  /** How many distinct calls of {@code fns} {@code l}'s stores (not its nested loops') and folds make. */
  static int calls(Stmt.Loop l, Set<MathFn> fns) {
    Set<Expr> seen = new HashSet<>();
    int[] count = {0};
    for (Stmt s : l.body()) {
      if (s instanceof Stmt.Store st) {
        countCalls(st.value(), fns, seen, count);
        countCalls(st.index(), fns, seen, count);
        countCalls(st.guard(), fns, seen, count);
      }
    }
    for (Stmt.Carried c : l.carried()) {
      countCalls(c.next(), fns, seen, count);
    }
    return count[0];
  }

  private static void countCalls(Expr e, Set<MathFn> fns, Set<Expr> seen, int[] count) {
    if (e == null || !seen.add(e)) {
      return;
    }
    if (e instanceof Expr.Call c && fns.contains(c.fn())) {
      count[0]++;
    }
    e.operands().forEach(o -> countCalls(o, fns, seen, count));
  }

  /** Whether {@code f} is a sum whose terms may be kept per lane when sums may be reordered. */
  static boolean reorderable(SimdPlan.Fold f) {
    return f.kind() == SimdPlan.FoldKind.IN_ORDER
        && (f.op() == BinaryOp.ADD || (f.op() == BinaryOp.SUB && f.phiLeft()));
  }

  @Override
  public boolean lower(Stmt.Loop l, BodyEmitter emitter) {
    dev.kiln.processor.ir.analysis.LaneNest nest = dev.kiln.processor.ir.analysis.LaneNest.match(l);
    if (nest != null && LaneSums.refusal(nest) == null) {
      LaneSums.lower(this, nest, emitter);
      return true;
    }
    if (l.body().stream().anyMatch(s -> s instanceof Stmt.Loop) || SimdPlan.loopRefusal(l) != null) {
      return false;
    }
    List<SimdPlan.Fold> folds = SimdPlan.folds(l);
    startLoop();
    List<String> carried = new ArrayList<>();
    for (SimdPlan.Fold f : folds) {
      String name = names.fresh(f.carried().phi().name());
      emitter.add(CodeBlock.builder().addStatement("$T $N = $L", f.kind() == SimdPlan.FoldKind.ANY ? TypeName.BOOLEAN : TypeName.FLOAT,
          name, emitter.expr(f.carried().init())).build());
      carried.add(name);
    }
    boolean guarded = !SimdPlan.isTrue(l.guard());
    CodeBlock guard = guarded ? emitter.expr(l.guard()) : null;
    boolean outline = outlineFrom != null && (heavyCalls(l) > 0
        || outlineAll && folds.stream().noneMatch(f -> f.kind() == SimdPlan.FoldKind.ANY));
    Map<Expr.Var, String> captured = new LinkedHashMap<>();
    Function<Expr.Var, CodeBlock> outer = outline
        ? v -> CodeBlock.of("$N", captured.computeIfAbsent(v, x -> names.fresh(x.name())))
        : emitter::expr;
    String loName = outline ? names.fresh("from") : null;
    String hiName = outline ? names.fresh("to") : null;
    CodeBlock lo = outline ? CodeBlock.of("$N", loName) : emitter.expr(l.lo());
    CodeBlock hi = outline ? CodeBlock.of("$N", hiName) : emitter.expr(l.hi());

    String k = names.fresh(l.index().name());
    String end = names.fresh("end");
    String vectorEnd = names.fresh("vectorEnd");
    CodeBlock.Builder code = CodeBlock.builder();
    code.addStatement("final int $N = $L", end, hi);
    code.addStatement("int $N = $L", k, lo);
    hoisted = hoist(l, outer, code);
    alignedHead(l, outer, folds, carried, k, end, code);
    code.addStatement("final int $N = $N + $N.loopBound($N - $N)", vectorEnd, k, SPECIES, end, k);
    String first = null;
    for (SimdPlan.Fold f : folds) {
      PartialSums.Sum sum = f.kind() == SimdPlan.FoldKind.IN_ORDER ? PartialSums.of(l, f.carried()) : null;
      if (sum == null) {
        continue;
      }
      if (first == null) {
        first = names.fresh("first");
        code.addStatement("final int $N = $N", first, k);
      }
      String base = f.carried().phi().name();
      // (every vector of partials is stored into the array after the loop: all of it is overwritten)
      Partial p = new Partial(sum, scratchArray(base + "Parts", CodeBlock.of("$L", PartialSums.PARTS)),
          List.of(names.fresh(base + "P"), names.fresh(base + "P"), names.fresh(base + "P"), names.fresh(base + "P")));
      for (String v : p.vectors()) {
        code.addStatement("$T $N = $T.zero($N)", FLOAT_VECTOR, v, FLOAT_VECTOR, SPECIES);
      }
      partial.put(f.carried(), p);
    }
    // per fold: its per-lane accumulator (max, min, a reordered sum), or for a sum kept in order
    // the row its terms go to (the one-vector spill, or the block's terms; null where they are read
    // from memory)
    List<String> lanes = new ArrayList<>();
    String spill = null;
    List<Expr.Load> readBack = readBack(l, folds);
    List<Stmt.Store> storedTerms = SimdPlan.storedTerms(l, folds);
    // A loop that stores and whose every fold is a sum kept in order of terms it stores or loads
    // (softmax's exponentials, four rows at a time under RowJam): the vectors first, the stores
    // only, each group of stores that shares no work in a loop of its own (one row's exponentials
    // at a time, which C2 compiles to faster code than four rows' side by side); then the terms
    // read back and added in index order, the folds' chains side by side; then the last iterations.
    // The same terms added in the same order, so the same floats (softmax forward 16% faster).
    boolean readAfter = readsTermsAfter(l, folds, readBack, storedTerms, reorderSums);
    // Blocks only where the loop only folds, with no exp and the like: beside stores and heavier
    // math, adding each vector's terms in the loop overlaps with the next vectors' work (softmax's
    // sum and its gradient's loops ran 10-20% slower blocked; layer norm's sums 15% faster).
    boolean blockable = heavyCalls(l) == 0 && l.body().isEmpty();
    boolean blocked = false;
    for (int i = 0; i < folds.size(); i++) {
      SimdPlan.Fold f = folds.get(i);
      String acc = null;
      if (f.kind() == SimdPlan.FoldKind.MAX || f.kind() == SimdPlan.FoldKind.MIN) {
        acc = names.fresh(f.carried().phi().name() + "Lanes");
        code.addStatement("$T $N = $T.broadcast($N, $T.$L)", FLOAT_VECTOR, acc, FLOAT_VECTOR, SPECIES, Float.class,
            f.kind() == SimdPlan.FoldKind.MAX ? "NEGATIVE_INFINITY" : "POSITIVE_INFINITY");
      } else if (partial.containsKey(f.carried())) {
        acc = null; // its vectors above
      } else if (reorderSums && reorderable(f)) {
        acc = names.fresh(f.carried().phi().name() + "Lanes");
        // -0 is the identity of float addition: -0 + x is x for every x, +0 included
        code.addStatement("$T $N = $T.broadcast($N, -0f)", FLOAT_VECTOR, acc, FLOAT_VECTOR, SPECIES);
      } else if (keptInOrder(f) && readAfter) {
        acc = null; // read back after the vectors
      } else if (keptInOrder(f) && !blockable) {
        if (spill == null) {
          spill = scratchArray("terms", CodeBlock.of("$N.length()", SPECIES));
        }
        acc = spill;
      } else if (keptInOrder(f)) {
        blocked = true;
        if (readBack.get(i) == null) {
          acc = scratchArray(f.carried().phi().name() + "Terms", CodeBlock.of("$L * $N.length()", BLOCK_VECTORS, SPECIES));
        }
      }
      lanes.add(acc);
    }
    List<List<Stmt>> rowStores = !readAfter && splitStores && folds.isEmpty() ? SimdPlan.independentStores(l, true) : List.of();
    if (readAfter) {
      String start = storeGroups(l, SimdPlan.independentStores(l), outer, k, vectorEnd, code);
      addTerms(l, outer, folds, carried, lanes, readBack, storedTerms, start, vectorEnd, code);
    } else if (rowStores.size() >= 2) {
      // Jammed rows' stores only (layer norm's outputs): each row's vectors in a loop of its own,
      // then the last iterations together. Four rows of a power-of-two length side by side load
      // and store at addresses 4 KB apart, which the core takes for the same (4K aliasing): layer
      // norm's output pass ran 1.5x slower than one row at a time.
      storeGroups(l, rowStores, outer, k, vectorEnd, code);
    } else if (blocked) {
      // A block of vectors at a time: per-lane folds as vectors, each in-order fold's terms kept
      // in a row of their own (or read where the loop loads them); then the
      // block's terms added one by one in index order, the folds side by side, so that the adds
      // do not wait on a vector spilled and read back one lane at a time.
      String from = names.fresh("blockFrom");
      String to = names.fresh("blockTo");
      // (a blocked loop has no stores: its vector work is the folds whose terms are not plain loads)
      boolean vectorWork = java.util.stream.IntStream.range(0, folds.size())
          .anyMatch(i -> !keptInOrder(folds.get(i)) || readBack.get(i) == null);
      if (!vectorWork) {
        // every term read from memory: the adds alone, the rows' chains side by side
        code.addStatement("final int $N = $N", from, k);
        code.addStatement("final int $N = $N", to, vectorEnd);
        addTerms(l, outer, folds, carried, lanes, readBack, null, from, to, code);
        code.addStatement("$N = $N", k, to);
      } else {
        code.beginControlFlow("while ($N < $N)", k, vectorEnd);
        code.addStatement("final int $N = $N", from, k);
        code.addStatement("final int $N = $T.min($N, $N + $L * $N.length())", to, Math.class, vectorEnd, k, BLOCK_VECTORS, SPECIES);
        code.beginControlFlow("for (; $N < $N; $N += $N.length())", k, to, k, SPECIES);
        step(l, outer, folds, carried, lanes, readBack, from, k, code);
        code.endControlFlow();
        addTerms(l, outer, folds, carried, lanes, readBack, null, from, to, code);
        code.endControlFlow();
      }
    } else if (onlyMaxMin(l, folds)) {
      maxMinCopies(l, outer, folds, carried, lanes, readBack, k, vectorEnd, code);
    } else {
      code.beginControlFlow("for (; $N < $N; $N += $N.length())", k, vectorEnd, k, SPECIES);
      step(l, outer, folds, carried, lanes, readBack, null, k, code);
      code.endControlFlow();
    }
    // after m vectors, vector r of each sum holds the partials of vectors r + m, r + m + 4, ... (mod 1, 2 or 4)
    String rounds = first == null ? null : names.fresh("rounds");
    if (rounds != null) {
      code.addStatement("final int $N = ($N - $N) / $N.length()", rounds, vectorEnd, first, SPECIES);
    }
    for (SimdPlan.Fold f : folds) {
      Partial p = partial.get(f.carried());
      if (p != null) {
        code.beginControlFlow("if ($N == 1)", PARTIAL_VECTORS)
            .addStatement("$N.intoArray($N, 0)", p.vectors().get(0), p.parts())
            .nextControlFlow("else if ($N == 2)", PARTIAL_VECTORS);
        for (int r = 0; r < 2; r++) {
          code.addStatement("$N.intoArray($N, (($N + $L) & 1) * $N.length())", p.vectors().get(r), p.parts(), rounds, r, SPECIES);
        }
        code.nextControlFlow("else");
        for (int r = 0; r < 4; r++) {
          code.addStatement("$N.intoArray($N, (($N + $L) & 3) * $N.length())", p.vectors().get(r), p.parts(), rounds, r, SPECIES);
        }
        code.endControlFlow();
      }
    }
    for (int i = 0; i < folds.size(); i++) {
      SimdPlan.Fold f = folds.get(i);
      if (partial.containsKey(f.carried())) {
        continue;
      }
      if (lanes.get(i) != null && f.kind() == SimdPlan.FoldKind.IN_ORDER && !keptInOrder(f)) {
        code.addStatement("$N = $N $L $N.reduceLanes($T.ADD)", carried.get(i), carried.get(i), f.op().javaSymbol(),
            lanes.get(i), VECTOR_OPERATORS);
      } else if (lanes.get(i) != null && f.kind() != SimdPlan.FoldKind.IN_ORDER) {
        String op = f.kind() == SimdPlan.FoldKind.MAX ? "MAX" : "MIN";
        code.addStatement("$N = $T.$L($N, $N.reduceLanes($T.$L))", carried.get(i), Math.class, op.toLowerCase(java.util.Locale.ROOT),
            carried.get(i), lanes.get(i), VECTOR_OPERATORS, op);
      }
    }
    // The remaining iterations (fewer than a vector) one by one, as the scalar loop runs them,
    // after the vectors: sums stay in index order, max and min do not care. Scalar rather than a
    // masked vector, so that C2's node budget goes to the vector loop (see VectorMathCode).
    code.beginControlFlow("for (; $N < $N; $N++)", k, end, k);
    remainder(l, outer, folds, carried, k, first, code);
    code.endControlFlow();
    for (int i = 0; i < folds.size(); i++) {
      Partial p = partial.get(folds.get(i).carried());
      if (p != null) {
        code.add(p.sum().addTotal(carried.get(i), p.parts()));
      }
    }
    CodeBlock block = outline ? outline(l, emitter, code, folds, carried, captured, loName, hiName) : code.build();
    emitter.add(guarded
        ? CodeBlock.builder().beginControlFlow("if ($L)", guard).add(block).endControlFlow().build()
        : CodeBlock.of("{\n$>$L$<}\n", block));
    for (int i = 0; i < folds.size(); i++) {
      emitter.bind(folds.get(i).carried().result(), carried.get(i), emitter.depth());
    }
    hoisted = Map.of();
    return true;
  }

  /**
   * The iterations before the first whose aligned access ({@link AlignedStart}) starts on a vector
   * boundary: one vector from {@code k} where the loop only stores values that do not read what it
   * stores (the next vector computes its last lanes again, the same values into the same
   * elements), else one by one as the last iterations run. None where a sum keeps sixteen
   * partials (each term's partial is set by where its vector starts) or exp and the like are
   * called (as scalar code they cost more than straddling vectors do).
   */
  private void alignedHead(Stmt.Loop l, Function<Expr.Var, CodeBlock> outer, List<SimdPlan.Fold> folds, List<String> carried,
      String k, String end, CodeBlock.Builder code) {
    if (heavyCalls(l) > 0
        || folds.stream().anyMatch(f -> f.kind() == SimdPlan.FoldKind.IN_ORDER && PartialSums.of(l, f.carried()) != null)) {
      return;
    }
    Expr aligned = AlignedStart.target(l.body(),
        folds.stream().map(SimdPlan.Fold::term).filter(java.util.Objects::nonNull).toList(), SimdPlan.forLoop(l));
    if (aligned == null) {
      return;
    }
    VectorBody index = new VectorBody(SimdPlan.forLane(l.index()), names, sourceNames,
        v -> v == l.index() ? CodeBlock.of("$N", k) : outer.apply(v), code);
    index.adopt(hoisted);
    CodeBlock atK = index.scalar(aligned);
    CodeBlock.Builder first = CodeBlock.builder();
    if (folds.isEmpty() && AlignedStart.rewritable(l.body()) && !inPlace) {
      step(l, outer, folds, carried, List.of(), List.of(), null, k, first);
      code.add(AlignedStart.overlappingHead(names.fresh("head"), k, CodeBlock.of("$N", end), atK, first.build()));
    } else {
      remainder(l, outer, folds, carried, k, null, first);
      code.add(AlignedStart.head(names.fresh("head"), k, CodeBlock.of("$N", end), atK, first.build()));
    }
  }

  /** The loop being written's invariant values ({@link LoopInvariants}), computed before it. */
  private Map<Expr, CodeBlock> hoisted = Map.of();

  /** Computes {@code l}'s invariant values into locals written to {@code code}, before the loop. */
  private Map<Expr, CodeBlock> hoist(Stmt.Loop l, Function<Expr.Var, CodeBlock> outer, CodeBlock.Builder code) {
    List<Expr> values = LoopInvariants.of(l, safeLoads);
    if (values.isEmpty()) {
      return Map.of();
    }
    VectorBody before = new VectorBody(SimdPlan.forLoop(l), names, sourceNames, outer, code);
    for (Expr e : values) {
      before.scalar(e);
    }
    return before.computedScalars();
  }

  /**
   * The vectors of {@code l}'s stores, each group of {@code groups} in a loop of its own from the
   * loop's first index ({@code k} then stands at {@code vectorEnd}); returns the name holding that
   * first index.
   */
  private String storeGroups(Stmt.Loop l, List<List<Stmt>> groups, Function<Expr.Var, CodeBlock> outer, String k,
      String vectorEnd, CodeBlock.Builder code) {
    String start = names.fresh("start");
    code.addStatement("final int $N = $N", start, k);
    for (int g = 0; g < groups.size(); g++) {
      if (g > 0) {
        code.addStatement("$N = $N", k, start);
      }
      Stmt.Loop part = new Stmt.Loop(l.id(), l.index(), l.lo(), l.hi(), l.step(), l.guard(), List.of(),
          groups.get(g), l.origin());
      code.beginControlFlow("for (; $N < $N; $N += $N.length())", k, vectorEnd, k, SPECIES);
      step(part, outer, List.of(), List.of(), List.of(), List.of(), null, k, code);
      code.endControlFlow();
    }
    return start;
  }

  /**
   * Makes {@code code} (the loop, written with {@code captured}'s names for the values it reads
   * from the worker) the body of a method of its own and returns the statements that call it: the
   * kernel's parameters, the loop's bounds, the captured values and the folds' initial values go
   * in; the folds' values come back (one as the result, several in an array).
   */
  CodeBlock outline(Stmt.Loop l, BodyEmitter emitter, CodeBlock.Builder code, List<SimdPlan.Fold> folds,
      List<String> carried, Map<Expr.Var, String> captured, String loName, String hiName) {
    String name = prefix + "$loop" + outlined.size();
    TypeName result = folds.isEmpty() ? TypeName.VOID
        : folds.size() == 1 ? TypeName.FLOAT : ArrayTypeName.of(TypeName.FLOAT);
    MethodSpec.Builder m = MethodSpec.methodBuilder(name)
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .addJavadoc("Loop $L of {@code $L}'s worker, in a method of its own (see {@code SimdLoops}).\n",
            outlined.size(), outlineFrom.name())
        .returns(result);
    List<CodeBlock> args = new ArrayList<>();
    for (Param p : outlineFrom.params()) {
      m.addParameter(ParameterSpec.builder(JavaTypes.of(p), p.name()).build());
      args.add(CodeBlock.of("$N", p.name()));
    }
    m.addParameter(TypeName.INT, loName).addParameter(TypeName.INT, hiName);
    args.add(emitter.expr(l.lo()));
    args.add(emitter.expr(l.hi()));
    // the caller's scratch arrays, allocated once per call of the kernel; in the method itself where
    // they would take its parameters past the JVM's 255 slots
    boolean passScratch = parameterSlots(captured.keySet(), carried.size()) + loopScratch.size() <= MAX_PARAMETER_SLOTS;
    for (String a : loopScratch) {
      if (passScratch) {
        m.addParameter(ArrayTypeName.of(TypeName.FLOAT), a);
        args.add(CodeBlock.of("$N", a));
      } else {
        m.addCode(scratch.remove(a));
      }
    }
    for (Map.Entry<Expr.Var, String> c : captured.entrySet()) {
      m.addParameter(JavaTypes.of(c.getKey().type()), c.getValue());
      args.add(emitter.expr(c.getKey()));
    }
    for (String c : carried) {
      m.addParameter(TypeName.FLOAT, c);
      args.add(CodeBlock.of("$N", c));
    }
    m.addCode(code.build());
    if (folds.size() == 1) {
      m.addStatement("return $N", carried.get(0));
    } else if (folds.size() > 1) {
      m.addStatement("return new float[] {$L}", CodeBlock.join(carried.stream().map(c -> CodeBlock.of("$N", c)).toList(), ", "));
    }
    outlined.add(m.build());
    CodeBlock call = CodeBlock.of("$N($L)", name, CodeBlock.join(args, ", "));
    CodeBlock.Builder site = CodeBlock.builder();
    if (folds.size() == 1) {
      site.addStatement("$N = $L", carried.get(0), call);
    } else if (folds.isEmpty()) {
      site.addStatement("$L", call);
    } else {
      String r = names.fresh("folds");
      site.addStatement("final float[] $N = $L", r, call);
      for (int i = 0; i < carried.size(); i++) {
        site.addStatement("$N = $N[$L]", carried.get(i), r, i);
      }
    }
    return site.build();
  }

  /** The most parameter slots a method may have (JVMS 4.3.3), less a margin. */
  static final int MAX_PARAMETER_SLOTS = 250;

  /**
   * The parameter slots of the method {@link #outline} writes before its scratch arrays:
   * the kernel's parameters, the loop's bounds, the captured values and the folds (a long or double two slots).
   */
  private int parameterSlots(Set<Expr.Var> captured, int folds) {
    int slots = 2 + folds;
    for (Param p : outlineFrom.params()) {
      slots += slots(JavaTypes.of(p));
    }
    for (Expr.Var v : captured) {
      slots += slots(JavaTypes.of(v.type()));
    }
    return slots;
  }

  /** The parameter slots a value of type {@code t} takes: two for a long or a double, else one. */
  private static int slots(TypeName t) {
    return t.equals(TypeName.LONG) || t.equals(TypeName.DOUBLE) ? 2 : 1;
  }

  /**
   * Whether {@link #lower} writes the accepted loop {@code l} with its sums added after its vectors:
   * it stores, and its every fold is a sum kept in index order (not per lane under
   * {@code reorderSums}, not in partial sums) of terms it loads from an array it does not write or
   * stores where no other store writes ({@link SimdPlan#storedTerms}).
   */
  static boolean readsTermsAfter(Stmt.Loop l, boolean reorderSums) {
    List<SimdPlan.Fold> folds = SimdPlan.folds(l);
    return readsTermsAfter(l, folds, readBack(l, folds), SimdPlan.storedTerms(l, folds), reorderSums);
  }

  /** {@link #readsTermsAfter(Stmt.Loop, boolean)} given {@code l}'s folds and where their terms can be read back. */
  private static boolean readsTermsAfter(Stmt.Loop l, List<SimdPlan.Fold> folds, List<Expr.Load> readBack,
      List<Stmt.Store> stored, boolean reorderSums) {
    if (l.body().isEmpty() || folds.isEmpty()) {
      return false;
    }
    for (int i = 0; i < folds.size(); i++) {
      SimdPlan.Fold f = folds.get(i);
      if (f.kind() != SimdPlan.FoldKind.IN_ORDER || (reorderSums && reorderable(f)) || PartialSums.of(l, f.carried()) != null
          || (readBack.get(i) == null && stored.get(i) == null)) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code f} adds its terms one by one in index order (a fold in order not reordered per lane). */
  private boolean keptInOrder(SimdPlan.Fold f) {
    return f.kind() == SimdPlan.FoldKind.IN_ORDER && !(reorderSums && reorderable(f)) && !partial.containsKey(f.carried());
  }

  /** Vectors in a block of {@link #lower}'s in-order folds: 16 (one KB of terms per fold with AVX-512). */
  static final int BLOCK_VECTORS = 16;

  /** Accumulators a loop of max and min folds keeps in all (see {@link #maxMinCopies}). */
  private static final int MAX_MIN_COPIES = 4;

  /**
   * Whether the loop only folds, every fold a max or a min, and fewer folds than {@value
   * #MAX_MIN_COPIES} (four rows side by side already keep four chains).
   */
  private static boolean onlyMaxMin(Stmt.Loop l, List<SimdPlan.Fold> folds) {
    return !folds.isEmpty() && maxMinCopies(folds) > 1 && l.body().isEmpty() && folds.stream()
        .allMatch(f -> f.kind() == SimdPlan.FoldKind.MAX || f.kind() == SimdPlan.FoldKind.MIN);
  }

  /** Accumulators per fold: about {@value #MAX_MIN_COPIES} chains in all. */
  private static int maxMinCopies(List<SimdPlan.Fold> folds) {
    return MAX_MIN_COPIES / folds.size();
  }

  /**
   * A loop of max and min folds (softmax's row maximum) over several vectors at a time (four for
   * one fold, two each for two), each into an accumulator of its own, the accumulators combined
   * after it; then the last vectors one at a time. One accumulator made each vector wait for the
   * one before: the Vector API's max and min keep Math.max's NaN and signed zeros, six instructions
   * on x86 (two blends, a max, an unordered compare and a masked move), and on JDK 25 also a mask
   * read from the accumulator, on the chain. Math.max and Math.min are associative and commutative on every
   * float, NaN and signed zeros included (NaN if any is, else the greatest or least with -0 below
   * +0), so the fold's value is the same whatever the grouping: the same floats.
   */
  private void maxMinCopies(Stmt.Loop l, Function<Expr.Var, CodeBlock> outer, List<SimdPlan.Fold> folds,
      List<String> carried, List<String> lanes, List<Expr.Load> readBack, String k, String vectorEnd,
      CodeBlock.Builder code) {
    int n = maxMinCopies(folds);
    List<List<String>> copies = new ArrayList<>();
    copies.add(lanes);
    for (int c = 1; c < n; c++) {
      List<String> copy = new ArrayList<>();
      for (SimdPlan.Fold f : folds) {
        String acc = names.fresh(f.carried().phi().name() + "Lanes");
        code.addStatement("$T $N = $T.broadcast($N, $T.$L)", FLOAT_VECTOR, acc, FLOAT_VECTOR, SPECIES, Float.class,
            f.kind() == SimdPlan.FoldKind.MAX ? "NEGATIVE_INFINITY" : "POSITIVE_INFINITY");
        copy.add(acc);
      }
      copies.add(copy);
    }
    code.beginControlFlow("for (; $N <= $N - $L * $N.length(); $N += $L * $N.length())", k, vectorEnd,
        n, SPECIES, k, n, SPECIES);
    for (int c = 0; c < n; c++) {
      String at = k;
      if (c > 0) {
        at = names.fresh(k);
        code.addStatement("final int $N = $N + $L * $N.length()", at, k, c, SPECIES);
      }
      step(l, outer, folds, carried, copies.get(c), readBack, null, at, code);
    }
    code.endControlFlow();
    for (int i = 0; i < folds.size(); i++) {
      String method = folds.get(i).kind() == SimdPlan.FoldKind.MAX ? "max" : "min";
      CodeBlock combined = CodeBlock.of("$N", lanes.get(i));
      for (int c = 1; c < n; c++) {
        combined = CodeBlock.of("$L.$L($N)", combined, method, copies.get(c).get(i));
      }
      code.addStatement("$N = $L", lanes.get(i), combined);
    }
    code.beginControlFlow("for (; $N < $N; $N += $N.length())", k, vectorEnd, k, SPECIES);
    step(l, outer, folds, carried, lanes, readBack, null, k, code);
    code.endControlFlow();
  }

  /**
   * For each fold, the load whose value at index {@code j} is its term where the block's adds can
   * read it from memory instead of a row of terms (a load of an array the loop does not write);
   * null elsewhere.
   */
  private static List<Expr.Load> readBack(Stmt.Loop l, List<SimdPlan.Fold> folds) {
    Set<String> written = dev.kiln.processor.ir.StmtWalk.writtenArrays(l.body());
    List<Expr.Load> out = new ArrayList<>();
    for (SimdPlan.Fold f : folds) {
      out.add(f.kind() == SimdPlan.FoldKind.IN_ORDER && f.term() instanceof Expr.Load load
          && !written.contains(load.array().name()) ? load : null);
    }
    return out;
  }

  /**
   * After a block's vectors ({@code [from, to)}): each in-order fold adds the block's terms one by
   * one in index order, all folds in one loop so that their chains of adds overlap. A term comes
   * from the load the fold reads ({@code readBack}), else from the array a store of the loop wrote
   * it to ({@code storedTerms}, may be null), else from the fold's row of terms.
   */
  private void addTerms(Stmt.Loop l, Function<Expr.Var, CodeBlock> outer, List<SimdPlan.Fold> folds,
      List<String> carried, List<String> lanes, List<Expr.Load> readBack, List<Stmt.Store> storedTerms, String from,
      String to, CodeBlock.Builder code) {
    String j = names.fresh(l.index().name());
    code.beginControlFlow("for (int $N = $N; $N < $N; $N++)", j, from, j, to, j);
    VectorBody body = new VectorBody(SimdPlan.forLane(l.index()), names, sourceNames,
        v -> v == l.index() ? CodeBlock.of("$N", j) : outer.apply(v), code);
    body.adopt(hoisted);
    for (int i = 0; i < folds.size(); i++) {
      SimdPlan.Fold f = folds.get(i);
      if (!keptInOrder(f)) {
        continue;
      }
      Expr.Load source = readBack.get(i);
      Stmt.Store stored = storedTerms == null ? null : storedTerms.get(i);
      CodeBlock term = source != null ? body.scalar(source)
          : stored != null ? CodeBlock.of("$N[$L]", stored.array().name(), body.scalar(stored.index()))
          : CodeBlock.of("$N[$N - $N]", lanes.get(i), j, from);
      code.add(scalarFold(f, CodeBlock.of("$N", carried.get(i)), term));
    }
    code.endControlFlow();
  }

  /** One iteration as scalar code: the stores, then each fold. */
  private void remainder(Stmt.Loop l, Function<Expr.Var, CodeBlock> outer, List<SimdPlan.Fold> folds, List<String> carried, String k,
      String first, CodeBlock.Builder code) {
    Map<Expr, String> phis = new java.util.HashMap<>();
    for (int i = 0; i < folds.size(); i++) {
      phis.put(folds.get(i).carried().phi(), carried.get(i));
    }
    VectorBody body = new VectorBody(SimdPlan.forLane(l.index()), names, sourceNames,
        v -> v == l.index() ? CodeBlock.of("$N", k) : phis.containsKey(v) ? CodeBlock.of("$N", phis.get(v)) : outer.apply(v),
        code);
    body.adopt(hoisted);
    scalarStores(l.body(), body, code);
    for (int i = 0; i < folds.size(); i++) {
      SimdPlan.Fold f = folds.get(i);
      if (partial.containsKey(f.carried())) {
        Partial p = partial.get(f.carried());
        code.add(p.sum().addTerm(p.parts(), k, first, body.scalar(p.sum().term())));
      } else if (f.kind() == SimdPlan.FoldKind.MAX || f.kind() == SimdPlan.FoldKind.MIN
          || f.kind() == SimdPlan.FoldKind.IN_ORDER) {
        code.add(scalarFold(f, CodeBlock.of("$N", carried.get(i)), body.scalar(f.term())));
      }
    }
    // "seen so far" last: the other folds' terms (and the stores) use its value before this iteration
    for (int i = 0; i < folds.size(); i++) {
      if (folds.get(i).kind() == SimdPlan.FoldKind.ANY) {
        code.addStatement("$N = $N || $L", carried.get(i), carried.get(i), body.scalar(folds.get(i).term()));
      }
    }
  }

  /** {@code stores} (a loop's body) as scalar statements, each under its guard. */
  static void scalarStores(List<Stmt> stores, VectorBody body, CodeBlock.Builder code) {
    for (Stmt s : stores) {
      Stmt.Store store = (Stmt.Store) s;
      CodeBlock value = body.scalar(store.value());
      CodeBlock index = body.scalar(store.index());
      if (SimdPlan.isTrue(store.guard())) {
        code.addStatement("$N[$L] = $L", store.array().name(), index, value);
      } else {
        code.beginControlFlow("if ($L)", body.scalar(store.guard()))
            .addStatement("$N[$L] = $L", store.array().name(), index, value)
            .endControlFlow();
      }
    }
  }

  /**
   * The scalar statement folding {@code term} into {@code acc} as {@code f} does: {@code
   * Math.max}/{@code min}, or its operator with the accumulator on the source's side.
   */
  static CodeBlock scalarFold(SimdPlan.Fold f, CodeBlock acc, CodeBlock term) {
    if (f.kind() == SimdPlan.FoldKind.MAX || f.kind() == SimdPlan.FoldKind.MIN) {
      return CodeBlock.builder().addStatement("$L = $T.$L($L, $L)", acc, Math.class,
          f.kind() == SimdPlan.FoldKind.MAX ? "max" : "min", acc, term).build();
    }
    String sym = f.op().javaSymbol();
    return f.phiLeft()
        ? CodeBlock.builder().addStatement("$L = $L $L $L", acc, acc, sym, term).build()
        : CodeBlock.builder().addStatement("$L = $L $L $L", acc, term, sym, acc).build();
  }

  /** One vector of iterations: the stores, then each fold. */
  private void step(Stmt.Loop l, Function<Expr.Var, CodeBlock> outer, List<SimdPlan.Fold> folds, List<String> carried,
      List<String> lanes, List<Expr.Load> readBack, String blockFrom, String k, CodeBlock.Builder code) {
    code.add("{\n$>");
    VectorBody body = new VectorBody(SimdPlan.forLoop(l), names, sourceNames,
        v -> v == l.index() ? CodeBlock.of("$N", k) : outer.apply(v), code);
    body.adopt(hoisted);
    List<CodeBlock> seen = new ArrayList<>();
    for (int i = 0; i < folds.size(); i++) {
      SimdPlan.Fold f = folds.get(i);
      if (f.kind() == SimdPlan.FoldKind.ANY) {
        // lane j sees phi || the term of some lane before it: all lanes after the first whose term holds
        CodeBlock term = body.vector(f.term());
        String before = names.fresh(f.carried().phi().name() + "Before");
        // (the same for every lane but in the one vector where the first term holds)
        code.addStatement("final $T $N = $N || !$L.anyTrue() ? $N.maskAll($N) : $N.indexInRange(0, $L.firstTrue() + 1).not()",
            SimdKernelWriter.FLOAT_MASK, before, carried.get(i), term, SPECIES, carried.get(i), SPECIES, term);
        body.bind(f.carried().phi(), CodeBlock.of("$N", before));
        seen.add(term);
      } else {
        seen.add(null);
      }
    }
    for (Stmt s : l.body()) {
      body.store((Stmt.Store) s);
    }
    for (int i = 0; i < folds.size(); i++) {
      SimdPlan.Fold f = folds.get(i);
      if (f.kind() == SimdPlan.FoldKind.NONE) {
        continue;
      }
      if (f.kind() == SimdPlan.FoldKind.ANY) {
        continue; // last, below
      }
      Partial p = partial.get(f.carried());
      if (p != null) {
        // the next vector of partials takes the terms, then the vectors rotate: vector 0 is always the next
        String t = names.fresh("term");
        String r = names.fresh("rotated");
        List<String> v = p.vectors();
        code.addStatement("final $T $N = $L", FLOAT_VECTOR, t, body.vector(p.sum().term()));
        code.beginControlFlow("if ($N == 1)", PARTIAL_VECTORS)
            .addStatement("$N = $N.add($N)", v.get(0), v.get(0), t)
            .nextControlFlow("else if ($N == 2)", PARTIAL_VECTORS)
            .addStatement("final $T $N = $N.add($N)", FLOAT_VECTOR, r, v.get(0), t)
            .addStatement("$N = $N", v.get(0), v.get(1))
            .addStatement("$N = $N", v.get(1), r)
            .nextControlFlow("else")
            .addStatement("final $T $N = $N.add($N)", FLOAT_VECTOR, r + "4", v.get(0), t)
            .addStatement("$N = $N", v.get(0), v.get(1))
            .addStatement("$N = $N", v.get(1), v.get(2))
            .addStatement("$N = $N", v.get(2), v.get(3))
            .addStatement("$N = $N", v.get(3), r + "4")
            .endControlFlow();
        continue;
      }
      if (keptInOrder(f) && blockFrom == null) {
        String j = names.fresh("lane");
        String spill = lanes.get(i);
        code.addStatement("$L.intoArray($N, 0)", body.vector(f.term()), spill);
        code.beginControlFlow("for (int $N = 0; $N < $N.length; $N++)", j, j, spill, j);
        code.add(scalarFold(f, CodeBlock.of("$N", carried.get(i)), CodeBlock.of("$N[$N]", spill, j)));
        code.endControlFlow();
        continue;
      }
      if (keptInOrder(f)) {
        if (readBack.get(i) == null) {
          code.addStatement("$L.intoArray($N, $N - $N)", body.vector(f.term()), lanes.get(i), k, blockFrom);
        }
        continue;
      }
      CodeBlock term = body.vector(f.term());
      if (f.kind() == SimdPlan.FoldKind.IN_ORDER) {
        code.addStatement("$N = $N.add($L)", lanes.get(i), lanes.get(i), term);
      } else {
        String method = f.kind() == SimdPlan.FoldKind.MAX ? "max" : "min";
        code.addStatement("$N = $N.$L($L)", lanes.get(i), lanes.get(i), method, term);
      }
    }
    for (int i = 0; i < folds.size(); i++) {
      if (folds.get(i).kind() == SimdPlan.FoldKind.ANY) {
        code.addStatement("$N = $N || $L.anyTrue()", carried.get(i), carried.get(i), seen.get(i));
      }
    }
    code.add("$<}\n");
  }
}
