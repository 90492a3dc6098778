package dev.kiln.processor.codegen.cpu;

import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.FLOAT_MASK;
import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.FLOAT_VECTOR;
import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.SPECIES;
import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.VECTOR_OPERATORS;

import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.codegen.BodyEmitter;
import dev.kiln.processor.codegen.LoopLowering;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes the sequential loops that {@link SimdPlan#loopRefusal} accepts a vector of iterations at
 * a time, with the same floats as the scalar loop: stores as vector stores; a {@code max} or
 * {@code min} fold kept per lane and reduced after the loop (exact in any order); any other fold
 * (a sum, a product) applied to each vector's terms one by one in index order, so the rounding is
 * the scalar loop's. The last, partial vector runs masked. Other loops are left to the emitter.
 */
final class SimdLoops implements LoopLowering {
  private final Names names;
  private final Map<Expr, String> sourceNames;

  SimdLoops(Names names, Map<Expr, String> sourceNames) {
    this.names = names;
    this.sourceNames = sourceNames;
  }

  @Override
  public boolean lower(Stmt.Loop l, BodyEmitter emitter) {
    if (l.body().stream().anyMatch(s -> s instanceof Stmt.Loop) || SimdPlan.loopRefusal(l) != null) {
      return false;
    }
    List<SimdPlan.Fold> folds = SimdPlan.folds(l);
    List<String> carried = new ArrayList<>();
    for (SimdPlan.Fold f : folds) {
      String name = names.fresh(f.carried().phi().name());
      emitter.add(CodeBlock.builder().addStatement("float $N = $L", name, emitter.expr(f.carried().init())).build());
      carried.add(name);
    }
    CodeBlock lo = emitter.expr(l.lo());
    CodeBlock hi = emitter.expr(l.hi());
    boolean guarded = !SimdPlan.isTrue(l.guard());
    CodeBlock guard = guarded ? emitter.expr(l.guard()) : null;

    String k = names.fresh(l.index().name());
    String end = names.fresh("end");
    String vectorEnd = names.fresh("vectorEnd");
    String tail = names.fresh("tail");
    CodeBlock.Builder code = CodeBlock.builder();
    code.addStatement("final int $N = $L", end, hi);
    code.addStatement("int $N = $L", k, lo);
    code.addStatement("final int $N = $N + $N.loopBound($N - $N)", vectorEnd, k, SPECIES, end, k);
    List<String> lanes = new ArrayList<>();
    String spill = null;
    for (SimdPlan.Fold f : folds) {
      String acc = null;
      if (f.kind() == SimdPlan.FoldKind.MAX || f.kind() == SimdPlan.FoldKind.MIN) {
        acc = names.fresh(f.carried().phi().name() + "Lanes");
        code.addStatement("$T $N = $T.broadcast($N, $T.$L)", FLOAT_VECTOR, acc, FLOAT_VECTOR, SPECIES, Float.class,
            f.kind() == SimdPlan.FoldKind.MAX ? "NEGATIVE_INFINITY" : "POSITIVE_INFINITY");
      } else if (f.kind() == SimdPlan.FoldKind.IN_ORDER && spill == null) {
        spill = names.fresh("terms");
        code.addStatement("final float[] $N = new float[$N.length()]", spill, SPECIES);
      }
      lanes.add(acc);
    }
    code.beginControlFlow("for (; $N < $N; $N += $N.length())", k, vectorEnd, k, SPECIES);
    step(l, emitter, folds, carried, lanes, spill, k, null, null, code);
    code.endControlFlow();
    code.beginControlFlow("if ($N < $N)", k, end);
    code.addStatement("final $T $N = $N.indexInRange($N, $N)", FLOAT_MASK, tail, SPECIES, k, end);
    step(l, emitter, folds, carried, lanes, spill, k, tail, end, code);
    code.endControlFlow();
    for (int i = 0; i < folds.size(); i++) {
      if (lanes.get(i) != null) {
        String op = folds.get(i).kind() == SimdPlan.FoldKind.MAX ? "MAX" : "MIN";
        code.addStatement("$N = $T.$L($N, $N.reduceLanes($T.$L))", carried.get(i), Math.class, op.toLowerCase(java.util.Locale.ROOT),
            carried.get(i), lanes.get(i), VECTOR_OPERATORS, op);
      }
    }
    CodeBlock block = code.build();
    emitter.add(guarded
        ? CodeBlock.builder().beginControlFlow("if ($L)", guard).add(block).endControlFlow().build()
        : CodeBlock.of("{\n$>$L$<}\n", block));
    for (int i = 0; i < folds.size(); i++) {
      emitter.bind(folds.get(i).carried().result(), carried.get(i), emitter.depth());
    }
    return true;
  }

  /** One vector of iterations: the stores, then each fold. */
  private void step(Stmt.Loop l, BodyEmitter emitter, List<SimdPlan.Fold> folds, List<String> carried,
      List<String> lanes, String spill, String k, String tail, String end, CodeBlock.Builder code) {
    code.add("{\n$>");
    VectorBody body = new VectorBody(SimdPlan.forLane(l.index()), names, sourceNames,
        v -> v == l.index() ? CodeBlock.of("$N", k) : emitter.expr(v), tail, code);
    for (Stmt s : l.body()) {
      body.store((Stmt.Store) s);
    }
    for (int i = 0; i < folds.size(); i++) {
      SimdPlan.Fold f = folds.get(i);
      if (f.kind() == SimdPlan.FoldKind.NONE) {
        continue;
      }
      CodeBlock term = body.vector(f.term());
      if (lanes.get(i) != null) {
        String method = f.kind() == SimdPlan.FoldKind.MAX ? "max" : "min";
        if (tail == null) {
          code.addStatement("$N = $N.$L($L)", lanes.get(i), lanes.get(i), method, term);
        } else {
          code.addStatement("$N = $N.blend($N.$L($L), $N)", lanes.get(i), lanes.get(i), lanes.get(i), method, term, tail);
        }
      } else {
        String j = names.fresh("lane");
        code.addStatement("$L.intoArray($N, 0)", term, spill);
        CodeBlock count = tail == null ? CodeBlock.of("$N.length", spill) : CodeBlock.of("$N - $N", end, k);
        String sym = f.op().javaSymbol();
        code.beginControlFlow("for (int $N = 0; $N < $L; $N++)", j, j, count, j);
        if (f.phiLeft()) {
          code.addStatement("$N = $N $L $N[$N]", carried.get(i), carried.get(i), sym, spill, j);
        } else {
          code.addStatement("$N = $N[$N] $L $N", carried.get(i), spill, j, sym, carried.get(i));
        }
        code.endControlFlow();
      }
    }
    code.add("$<}\n");
  }
}
