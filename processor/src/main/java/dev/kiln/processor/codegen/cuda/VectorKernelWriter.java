package dev.kiln.processor.codegen.cuda;

import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.codegen.BodyEmitter;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The vector form of a one-dimensional elementwise grid kernel: each thread takes four neighbouring
 * workers and moves each array they read or write at their own index as one 16-byte load or store
 * ({@code float4}, {@code int4}). A thread with one 4-byte element in flight cannot keep a GPU's
 * memory busy (GELU's kernel ran at 55% of a device copy on an H200, the same body four workers a
 * thread with 16-byte accesses at 96%), so the launcher gives these kernels a quarter of the threads
 * ({@link KernelInfo#lanes}).
 *
 * <p>A kernel qualifies when it has one {@code @Parallel} dimension and its worker is straight-line
 * code ending in stores; every store is unconditional, into a 4-byte array at exactly the worker's
 * index; every read of a 4-byte array at an index that depends on the worker is an unconditional
 * read at exactly that index, of an array the kernel does not write; reads at other indices (a
 * bias, a scalar in an array) stay scalar reads. The lanes compute the same expressions as the
 * scalar form, so the results are the same bits.
 *
 * <p>The kernel checks at run time that every array it moves is 16-byte aligned (device
 * allocations are); when one is not, it runs the scalar form over the same launch. After the last
 * whole group of four, the remaining one to three workers run the scalar form too.
 */
final class VectorKernelWriter {
  /** Workers a thread: one 16-byte access of 4-byte elements. */
  static final int LANES = 4;

  /** The fields of {@code float4} and {@code int4}, lane by lane. */
  static final List<String> LANE_FIELDS = List.of("x", "y", "z", "w");

  private VectorKernelWriter() {}

  /** The arrays a vector kernel moves four elements at a time: those it reads, then those it writes. */
  record Plan(GridDim dim, Map<Param.Array, List<Expr.Load>> read, List<Param.Array> written) implements CudaPlan {}

  /** Why a kernel of two or more dimensions (or none) is not a vector kernel. */
  static final String NOT_ONE_DIMENSION = "not one @Parallel dimension";

  /** Why a worker with a loop is not a vector kernel (the row kernel's planner says more). */
  static final String HAS_LOOP = "it has a loop";

  /** The plan of {@code op} (after {@link dev.kiln.processor.ir.transform.IndexWidening}), or why it does not qualify. */
  static CudaPlan plan(OperatorIr.Grid op) {
    if (op.grid().size() != 1) {
      return new CudaPlan.Refused(NOT_ONE_DIMENSION);
    }
    if (!CheckedReads.arrays(op).isEmpty()) {
      return new CudaPlan.Refused("it reads at indices computed from data");
    }
    GridDim dim = op.grid().get(0);
    Expr.Var worker = dim.var();
    Set<Param.Array> written = new LinkedHashSet<>();
    List<Expr> roots = new ArrayList<>();
    for (Stmt s : op.body()) {
      if (!(s instanceof Stmt.Store st)) {
        return new CudaPlan.Refused(HAS_LOOP);
      }
      if (!isTrue(st.guard())) {
        return new CudaPlan.Refused("it stores into '" + st.array().name() + "' under a condition");
      }
      if (!isWorkerIndex(st.index(), worker)) {
        return new CudaPlan.Refused("it stores into '" + st.array().name() + "' at another index than the worker's");
      }
      if (!fourBytes(st.array().elementType())) {
        return new CudaPlan.Refused("'" + st.array().name() + "' holds " + st.array().elementType().javaName()
            + "s, not 4-byte floats or ints");
      }
      written.add(st.array());
      roots.add(st.value());
    }
    if (written.isEmpty()) {
      return new CudaPlan.Refused("it stores nothing");
    }
    // the arrays in the operator's parameter order (not by Param.position, which the components of
    // an array of records share, and a derived kernel's parameters may repeat)
    List<Param> order = op.params();
    Map<Param.Array, List<Expr.Load>> read = new TreeMap<>(Comparator.comparingInt(order::indexOf));
    for (Expr.Load load : StmtWalk.loads(roots)) {
      String array = load.array().name();
      if (written.contains(load.array())) {
        return new CudaPlan.Refused("it reads '" + array + "', which it writes");
      }
      if (!load.index().dependsOn(worker)) {
        continue; // the same element for every worker: a scalar read
      }
      if (!isTrue(load.guard())) {
        return new CudaPlan.Refused("it reads '" + array + "' under a condition");
      }
      if (!isWorkerIndex(load.index(), worker)) {
        return new CudaPlan.Refused("it reads '" + array + "' at another index than the worker's");
      }
      if (!fourBytes(load.array().elementType())) {
        return new CudaPlan.Refused("'" + array + "' holds " + load.array().elementType().javaName()
            + "s, not 4-byte floats or ints");
      }
      read.computeIfAbsent(load.array(), a -> new ArrayList<>()).add(load);
    }
    return new Plan(dim, read, List.copyOf(written));
  }

  /**
   * The kernel: the vector loop over whole groups of four workers, the scalar loop over the rest,
   * and the scalar loop over all of them when an array is not 16-byte aligned.
   */
  static CodeBlock write(OperatorIr.Grid op, Plan plan, Names names, List<CodeBlock> params) {
    BodyEmitter emitter = new BodyEmitter(CudaSyntax.INSTANCE, names, op.names());
    emitter.countUses(op.body(), List.of());
    emitter.openScope(); // the kernel's prologue: what no worker's index changes
    String var = CudaNames.identifier(plan.dim().var().name());
    String end = names.fresh(var + "_end");
    String groups = names.fresh(var + "_groups");
    String rest = names.fresh(var + "_rest");
    String group = names.fresh(var + "_g");
    String counter = names.fresh(var + "_");
    Map<Param.Array, String> vectors = new LinkedHashMap<>();
    for (Param.Array a : plan.read().keySet()) {
      vectors.put(a, names.fresh(CudaNames.identifier(a.name()) + "_4"));
    }
    for (Param.Array a : plan.written()) {
      vectors.put(a, names.fresh(CudaNames.identifier(a.name()) + "_4"));
    }

    CodeBlock.Builder vectorBody = CodeBlock.builder();
    for (Param.Array a : plan.read().keySet()) {
      vectorBody.addStatement("const $L $N = kiln::load4($N, $N)", vectorType(a), vectors.get(a),
          CudaNames.identifier(a.name()), group);
    }
    for (Param.Array a : plan.written()) {
      vectorBody.addStatement("$L $N", vectorType(a), vectors.get(a));
    }
    for (int lane = 0; lane < LANES; lane++) {
      String field = LANE_FIELDS.get(lane);
      CodeBlock index = lane == 0
          ? CodeBlock.of("$LU * $N", LANES, group)
          : CodeBlock.of("$LU * $N + $LU", LANES, group, lane);
      CodeBlock worker = worker(emitter, op.body(), plan, names, var, index, a -> CodeBlock.of("$N.$L", vectors.get(a), field));
      vectorBody.add("{\n$>").add(worker).add("$<}\n");
    }
    for (Param.Array a : plan.written()) {
      vectorBody.addStatement("kiln::store4($N, $N, $N)", CudaNames.identifier(a.name()), group, vectors.get(a));
    }
    CodeBlock restWorker = worker(emitter, op.body(), plan, names, var, CodeBlock.of("$LU * $N + $N", LANES, groups, counter), null);
    CodeBlock scalarWorker = worker(emitter, op.body(), plan, names, var, CodeBlock.of("$N", counter), null);

    List<CodeBlock> aligned = new ArrayList<>();
    for (Param.Array a : vectors.keySet()) {
      aligned.add(CodeBlock.of("kiln::aligned16($N)", CudaNames.identifier(a.name())));
    }
    String extent = plan.dim().extentText(CudaNames::identifier);
    CodeBlock.Builder body = CodeBlock.builder()
        .add(emitter.closeScope())
        .addStatement("const unsigned $N = kiln::count($L)", end, extent)
        .beginControlFlow("if ($L)", CodeBlock.join(aligned, " && "))
        .addStatement("const unsigned $N = $N / $LU", groups, end, LANES)
        .add(CudaWriter.NO_UNROLL)
        .beginControlFlow("for (unsigned $N = kiln::first_x($N); $N < $N; $N += kiln::step_x($N))", group, groups,
            group, groups, group, groups)
        .add(vectorBody.build())
        .endControlFlow()
        .addStatement("const unsigned $N = $N - $LU * $N", rest, end, LANES, groups)
        .beginControlFlow("for (unsigned $N = kiln::first_x($N); $N < $N; $N += kiln::step_x($N))", counter, rest,
            counter, rest, counter, rest)
        .add(restWorker)
        .endControlFlow()
        .nextControlFlow("else")
        .add(CudaWriter.NO_UNROLL)
        .beginControlFlow("for (unsigned $N = kiln::first_x($N); $N < $N; $N += kiln::step_x($N))", counter, end,
            counter, end, counter, end)
        .add(scalarWorker)
        .endControlFlow()
        .endControlFlow();
    return CodeBlock.builder()
        .add("// Vector kernel: four workers a thread, each array they move read or written 16 bytes at a time\n")
        .add("// when every such array is 16-byte aligned (else one worker at a time).\n")
        .add("extern \"C\" __global__ void $N($L) {\n$>", CudaNames.identifier(op.name()), CodeBlock.join(params, ", "))
        .add(body.build())
        .add("$<}\n")
        .build();
  }

  /**
   * One worker's code, its index {@code index}: with {@code lane} given, the moved arrays' reads are
   * that lane of their vectors and its stores go to that lane; else plain reads and stores.
   */
  private static CodeBlock worker(BodyEmitter emitter, List<Stmt> body, Plan plan, Names names, String var,
      CodeBlock index,
      java.util.function.Function<Param.Array, CodeBlock> lane) {
    emitter.openScope();
    int depth = emitter.depth();
    String name = names.fresh(var);
    if (lane == null || usesIndex(body, plan)) {
      emitter.add(CodeBlock.builder().addStatement("const int $N = (int) ($L)", name, index).build());
    }
    emitter.bind(plan.dim().var(), name, depth);
    emitter.setWorkerDepth(depth);
    if (lane != null) {
      plan.read().forEach((a, loads) -> loads.forEach(load -> emitter.laneLoad(load, lane.apply(a))));
      for (Param.Array a : plan.written()) {
        emitter.laneTarget(a, lane.apply(a));
      }
    }
    emitter.statements(body);
    emitter.clearLanes();
    return emitter.closeScope();
  }

  /**
   * Whether a lane's code uses the worker's index itself (a random number keyed by it, say), not
   * only through the reads and stores that become vector lanes.
   */
  private static boolean usesIndex(List<Stmt> body, Plan plan) {
    Set<Expr> lanes = new HashSet<>();
    plan.read().values().forEach(lanes::addAll);
    Set<Expr> seen = new HashSet<>();
    ArrayDeque<Expr> work = new ArrayDeque<>();
    for (Stmt s : body) {
      work.add(((Stmt.Store) s).value());
    }
    while (!work.isEmpty()) {
      Expr e = work.pop();
      if (e == plan.dim().var()) {
        return true;
      }
      if (!lanes.contains(e) && seen.add(e)) {
        work.addAll(e.operands());
      }
    }
    return false;
  }

  private static String vectorType(Param.Array a) {
    return vectorType(a.elementType());
  }

  /** The 16-byte vector of four {@code t}s ({@link #fourBytes}). */
  static String vectorType(ScalarType t) {
    return CudaSyntax.typeName(t) + "4";
  }

  /** Whether four {@code t}s make one 16-byte access: floats and ints. */
  static boolean fourBytes(ScalarType t) {
    return t == ScalarType.FLOAT || t == ScalarType.INT;
  }

  private static boolean isTrue(Expr guard) {
    return guard instanceof Expr.Const c && c.isTrue();
  }

  /** Whether {@code index} is the worker's variable, as written or widened to 64 bits. */
  private static boolean isWorkerIndex(Expr index, Expr.Var worker) {
    return index == worker || (index instanceof Expr.Cast c && c.operand() == worker);
  }

}
