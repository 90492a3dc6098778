package dev.kiln.processor.codegen.cuda;

import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.codegen.BodyEmitter;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ReduceKind;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CUDA kernels of an operator with {@code @Reduce} outputs that {@link ReducingKernelWriter}'s
 * shape (one block per output element) does not fit: an accumulated index that uses loop variables
 * ({@code dw[k * N + n] += x[b * K + k] * dy[b * N + n]} with grid {@code b}), one that depends on
 * data (a histogram), or outputs kept on different grid dimensions (row and column sums at once).
 *
 * <p>Two kernels, as the CPU kernels do it with chunks: {@code <op>_partials} gives each of {@code
 * chunks} threads a contiguous range of workers (in row-major grid order) and a private copy of every
 * accumulated array, filled with the operation's identity, into which its workers accumulate;
 * {@code <op>_fold} then folds, for every element, the output's value and the chunks' partial results
 * in chunk order. Deterministic for a given number of chunks, which the launcher derives from the
 * sizes alone. Parallel over chunks only, and each chunk holds whole copies of the outputs: correct
 * for any such operator, fast for few, small outputs and many workers.
 *
 * <p>A {@code @Reduce} array of records (a user monoid) always takes this form, one partial record
 * a chunk (one array per component, each filled with the record's {@code @Identity} component);
 * its fold combines the chunks' records with the record's method in the CPU kernels' pairwise tree.
 */
public final class PartialsKernelWriter {
  /**
   * One accumulated array: its operation, or (for a component of a {@code @Reduce} array of
   * records) the {@link Stmt.Combine} of its record array and the component's position.
   */
  record Reduced(Param.Array array, ReduceKind op, Stmt.Combine combine, int component) {
    Reduced(Param.Array array, ReduceKind op) {
      this(array, op, null, -1);
    }

    Expr.Const identity(ExprFactory f) {
      return op != null ? ReducingKernelWriter.identity(f, op, array.elementType()) : combine.monoid().identity().get(component);
    }
  }

  /** The accumulated arrays, each with its operation, in the order of the operator's body. */
  record Plan(List<Reduced> reduced) implements CudaPlan {}

  private PartialsKernelWriter() {}

  public static String partialsKernel(String op) {
    return CudaNames.identifier(op) + "_partials";
  }

  public static String foldKernel(String op) {
    return CudaNames.identifier(op) + "_fold";
  }

  /** The accumulated arrays of {@code op}, or the reason these kernels do not fit it. */
  static CudaPlan plan(OperatorIr.Grid op) {
    Map<Param.Array, ReduceKind> reduced = new LinkedHashMap<>();
    Map<String, Stmt.Combine> combined = new LinkedHashMap<>();
    List<Param.Array> stored = new ArrayList<>();
    String problem = collect(op.body(), reduced, combined, stored);
    if (problem != null) {
      return new CudaPlan.Refused(problem);
    }
    for (Param.Array a : stored) {
      if (reduced.containsKey(a)) {
        return new CudaPlan.Refused("'" + a.name() + "' is both stored and accumulated");
      }
    }
    List<Reduced> out = new ArrayList<>();
    reduced.forEach((a, k) -> out.add(new Reduced(a, k)));
    for (Stmt.Combine c : combined.values()) {
      for (int i = 0; i < c.arrays().size(); i++) {
        out.add(new Reduced(c.arrays().get(i), null, c, i));
      }
    }
    return new Plan(List.copyOf(out));
  }

  private static String collect(List<Stmt> body, Map<Param.Array, ReduceKind> reduced, Map<String, Stmt.Combine> combined,
      List<Param.Array> stored) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Combine c) {
        combined.putIfAbsent(c.param(), c);
      } else if (s instanceof Stmt.Accumulate a) {
        ReduceKind first = reduced.putIfAbsent(a.array(), a.op());
        if (first != null && first != a.op()) {
          return "'" + a.array().name() + "' is accumulated with two operations";
        }
      } else if (s instanceof Stmt.Store st) {
        stored.add(st.array());
      } else {
        String p = collect(((Stmt.Loop) s).body(), reduced, combined, stored);
        if (p != null) {
          return p;
        }
      }
    }
    return null;
  }

  /** Both kernels; {@code op} has 64-bit indices already ({@link dev.kiln.processor.ir.transform.IndexWidening}). */
  static CodeBlock write(OperatorIr.Grid op, Plan plan, Names names, List<CodeBlock> params) {
    List<Reduced> reduced = plan.reduced();
    return CodeBlock.builder().add(partials(op, reduced, names, params)).add("\n").add(fold(op, reduced, names, params)).build();
  }

  private static CodeBlock partials(OperatorIr.Grid op, List<Reduced> reduced, Names names, List<CodeBlock> params) {
    BodyEmitter emitter = new BodyEmitter(CudaSyntax.INSTANCE, names, op.names());
    emitter.countUses(op.body(), List.of());
    ExprFactory constants = new ExprFactory();
    String chunks = names.fresh("chunks");
    String chunk = names.fresh("c_");
    String element = names.fresh("e_");
    String worker = names.fresh("w_");
    String workers = names.fresh("workers");
    String lo = names.fresh("lo");
    String hi = names.fresh("hi");
    String errors = names.fresh("index_errors");
    List<CodeBlock> all = new ArrayList<>(params);
    all.add(CodeBlock.of("long long $N", chunks));
    all.add(CodeBlock.of("int* __restrict__ $N", errors));
    Map<Reduced, String[]> arrays = new LinkedHashMap<>(); // {partials, length, this chunk's copy}
    for (Reduced r : reduced) {
      String id = CudaNames.identifier(r.array().name());
      String[] n = {names.fresh(id + "_partials"), names.fresh(id + "_length"), names.fresh(id + "_part")};
      arrays.put(r, n);
      all.add(CodeBlock.of("$L* __restrict__ $N", CudaSyntax.typeName(r.array().elementType()), n[0]));
      all.add(CodeBlock.of("long long $N", n[1]));
      emitter.target(r.array(), n[2]);
      // The index is not proven inside the array (it may be data): outside, the chunk's copy would
      // spill into another chunk's; the launcher reports it instead, as Java would throw.
      emitter.checkedTarget(r.array(), n[1], errors);
    }
    all.addAll(CheckedReads.declare(op, emitter, names));

    emitter.openScope(); // prologue
    emitter.openScope(); // one chunk
    emitter.openScope(); // one worker
    List<String> vars = ReducingKernelWriter.bind(emitter, names, op.grid(), 2);
    emitter.setWorkerDepth(2);
    emitter.statements(op.body());
    CodeBlock body = emitter.closeScope();

    CodeBlock.Builder chunkCode = CodeBlock.builder();
    for (Map.Entry<Reduced, String[]> a : arrays.entrySet()) {
      Reduced r = a.getKey();
      String[] n = a.getValue();
      ScalarType t = r.array().elementType();
      chunkCode.addStatement("$L* __restrict__ $N = $N + $N * $N", CudaSyntax.typeName(t), n[2], n[0], chunk, n[1]);
      chunkCode.beginControlFlow("for (long long $N = 0; $N < $N; $N++)", element, element, n[1], element)
          .addStatement("$N[$N] = $L", n[2], element, CudaSyntax.INSTANCE.literal(r.identity(constants)))
          .endControlFlow();
    }
    chunkCode.addStatement("const long long $N = $N * ($N / $N) + ($N < $N % $N ? $N : $N % $N)",
        lo, chunk, workers, chunks, chunk, workers, chunks, chunk, workers, chunks);
    chunkCode.addStatement("const long long $N = $N + $N / $N + ($N < $N % $N ? 1 : 0)",
        hi, lo, workers, chunks, chunk, workers, chunks);
    chunkCode.beginControlFlow("for (long long $N = $N; $N < $N; $N++)", worker, lo, worker, hi, worker)
        .add(ReducingKernelWriter.decompose(worker, op.grid(), vars))
        .add(body)
        .endControlFlow();
    emitter.add(chunkCode.build());
    CodeBlock chunkBody = emitter.closeScope();

    emitter.add(CodeBlock.builder()
        .addStatement("const long long $N = $L", workers, ReducingKernelWriter.total(op.grid()))
        .beginControlFlow("for (long long $N = kiln::first_x(); $N < $N; $N += kiln::stride_x())", chunk, chunk, chunks, chunk)
        .add(chunkBody)
        .endControlFlow()
        .build());
    CodeBlock kernel = emitter.closeScope();
    return CodeBlock.builder()
        .add("// Partial results of $L's @Reduce outputs: one private copy a chunk of workers; launch over the chunks.\n",
            op.name())
        .add("extern \"C\" __global__ void $N($L) {\n$>", partialsKernel(op.name()), CodeBlock.join(all, ", "))
        .add(kernel)
        .add("$<}\n")
        .build();
  }

  /**
   * The fold of an array of records, for every element: the chunks' partial records combined by the
   * record's method in the fixed pairwise tree of the CPU kernels (chunk 0 with 1, 2 with 3, ...;
   * then the pairs), in place in the partial results, then the output's record combined with the
   * total. {@code arrays}: each component's array, partial results and length.
   */
  private static CodeBlock foldRecords(Stmt.Combine c, List<String[]> arrays, String chunks, String chunk, String element,
      Names names) {
    String stride = names.fresh("stride");
    List<CodeBlock> into = new ArrayList<>();
    List<CodeBlock> from = new ArrayList<>();
    List<CodeBlock> out = new ArrayList<>();
    List<CodeBlock> total = new ArrayList<>();
    for (String[] a : arrays) {
      into.add(CodeBlock.of("$N[$N * $N + $N]", a[1], chunk, a[2], element));
      from.add(CodeBlock.of("$N[($N + $N) * $N + $N]", a[1], chunk, stride, a[2], element));
      out.add(CodeBlock.of("$N[$N]", a[0], element));
      total.add(CodeBlock.of("$N[$N]", a[1], element));
    }
    return CodeBlock.builder()
        .add("// $L: $L, the chunks in a pairwise tree\n", c.param(), c.monoid())
        .beginControlFlow("for (long long $N = kiln::first_x(); $N < $N; $N += kiln::stride_x())", element, element,
            arrays.get(0)[2], element)
        .beginControlFlow("for (long long $N = 1; $N < $N; $N *= 2)", stride, stride, chunks, stride)
        .beginControlFlow("for (long long $N = 0; $N + $N < $N; $N += 2 * $N)", chunk, chunk, stride, chunks, chunk, stride)
        .add(BodyEmitter.combineInto(CudaSyntax.INSTANCE, names, c.monoid(), into, from))
        .endControlFlow()
        .endControlFlow()
        .add(BodyEmitter.combineInto(CudaSyntax.INSTANCE, names, c.monoid(), out, total))
        .endControlFlow()
        .build();
  }

  /**
   * The fold kernel. Its parameters are {@code chunks} and, per accumulated array, the array, its
   * partial results and its length; for an operator with statements after every worker ({@link
   * OperatorIr.Grid#finish}: its outputs hold one element each, so the kernel is one thread), the
   * operator's own parameters first instead of the arrays, and that thread runs the statements once
   * it has folded every total.
   */
  private static CodeBlock fold(OperatorIr.Grid op, List<Reduced> reduced, Names names, List<CodeBlock> opParams) {
    String chunks = names.fresh("chunks");
    String chunk = names.fresh("c_");
    String element = names.fresh("e_");
    List<CodeBlock> params = new ArrayList<>(op.finishes() ? opParams : List.of());
    params.add(CodeBlock.of("long long $N", chunks));
    CodeBlock.Builder body = CodeBlock.builder();
    Map<String, List<String[]>> groups = new LinkedHashMap<>(); // record array -> {array, partials, length} a component
    for (Reduced r : reduced) {
      String id = CudaNames.identifier(r.array().name());
      String partials = names.fresh(id + "_partials");
      String length = names.fresh(id + "_length");
      String acc = names.fresh(id + "_acc");
      ScalarType t = r.array().elementType();
      String type = CudaSyntax.typeName(t);
      if (!op.finishes()) {
        params.add(CodeBlock.of("$L* __restrict__ $N", type, id));
      }
      // a record's partial results are combined in a tree in place
      params.add(CodeBlock.of(r.combine() != null ? "$L* __restrict__ $N" : "const $L* __restrict__ $N", type, partials));
      params.add(CodeBlock.of("long long $N", length));
      if (r.combine() != null) {
        groups.computeIfAbsent(r.combine().param(), k -> new ArrayList<>()).add(new String[] {id, partials, length});
        continue;
      }
      body.beginControlFlow("for (long long $N = kiln::first_x(); $N < $N; $N += kiln::stride_x())", element, element, length, element)
          .addStatement("$L $N = $N[$N]", type, acc, id, element)
          .beginControlFlow("for (long long $N = 0; $N < $N; $N++)", chunk, chunk, chunks, chunk)
          .addStatement("$N = $L", acc, CudaSyntax.INSTANCE.combine(r.op(), t, CodeBlock.of("$N", acc),
              CodeBlock.of("$N[$N * $N + $N]", partials, chunk, length, element)))
          .endControlFlow()
          .addStatement("$N[$N] = $N", id, element, acc)
          .endControlFlow();
    }
    for (Reduced r : reduced) {
      if (r.combine() != null && r.component() == 0) {
        body.add(foldRecords(r.combine(), groups.get(r.combine().param()), chunks, chunk, element, names));
      }
    }
    if (op.finishes()) {
      body.beginControlFlow("if (kiln::first_x() == 0)")
          .add(BodyEmitter.finish(CudaSyntax.INSTANCE, op, names))
          .endControlFlow();
    }
    return CodeBlock.builder()
        .add("// Folds $L's partial results into its outputs, in chunk order$L; launch over the longest output.\n", op.name(),
            groups.isEmpty() ? "" : " (an array of records: in a pairwise tree)")
        .add("extern \"C\" __global__ void $N($L) {\n$>", foldKernel(op.name()), CodeBlock.join(params, ", "))
        .add(body.build())
        .add("$<}\n")
        .build();
  }
}
