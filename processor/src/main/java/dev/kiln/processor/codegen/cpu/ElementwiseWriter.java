package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import dev.kiln.processor.codegen.BodyEmitter;
import dev.kiln.processor.codegen.Names;
import com.palantir.javapoet.TypeName;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * Writes an elementwise operator's scalar method and its map launchers: {@code f(float[] x,
 * float[] out)} applies {@code f} to every element, an input of length 1 is broadcast, and for
 * operators of at most {@value #MAX_MIXED_PARAMS} parameters there are overloads that take any
 * of the inputs as a plain scalar.
 */
public final class ElementwiseWriter {
  static final int MAX_MIXED_PARAMS = 3;

  private ElementwiseWriter() {}

  static MethodSpec scalar(OperatorIr.Elementwise op, DocLinks owner) {
    MethodSpec.Builder m = MethodSpec.methodBuilder(op.name())
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(JavaTypes.of(op.resultType()))
        .addJavadoc("Compiled form of $L.\n", owner.of(op.name()));
    List<String> reserved = new ArrayList<>();
    for (Param p : op.params()) {
      m.addParameter(JavaTypes.of(p), p.name());
      reserved.add(p.name());
    }
    BodyEmitter emitter = new BodyEmitter(JavaSyntax.INSTANCE, new Names(reserved), op.names());
    emitter.countUses(List.of(), List.of(op.result()));
    emitter.openScope();
    emitter.setWorkerDepth(0);
    CodeBlock result = emitter.expr(op.result());
    m.addCode(emitter.closeScope());
    return m.addStatement("return $L", result).build();
  }


  static List<MethodSpec> maps(OperatorIr.Elementwise op, DocLinks owner) {
    List<MethodSpec> out = new ArrayList<>();
    int n = op.params().size();
    int masks = n <= MAX_MIXED_PARAMS ? (1 << n) - 1 : 1;
    for (int scalars = 0; scalars < masks; scalars++) {
      out.add(map(op, owner, scalars));
    }
    return out;
  }

  /** The map launcher in which the inputs whose bit is set in {@code scalars} are plain values. */
  private static MethodSpec map(OperatorIr.Elementwise op, DocLinks owner, int scalars) {
    Names names = Names.forParams(op);
    String chunk = names.fresh("chunk");
    String lo = names.fresh("lo");
    String hi = names.fresh("hi");
    String out = names.fresh("out");
    String n = names.fresh("n");
    String i = names.fresh("i");
    String name = op.name();
    MethodSpec.Builder m = MethodSpec.methodBuilder(name)
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .addJavadoc("Applies $L to every element: {@code $N[i] = $L(...)}; an array input of length 1 is broadcast.\n",
            owner.of(name), out, name);
    List<Param.Scalar> arrays = new ArrayList<>();
    for (int k = 0; k < op.params().size(); k++) {
      Param.Scalar p = (Param.Scalar) op.params().get(k);
      boolean scalar = (scalars & (1 << k)) != 0;
      m.addParameter(scalar ? JavaTypes.of(p.type()) : JavaTypes.arrayOf(p.type()), p.name());
      if (!scalar) {
        arrays.add(p);
      }
    }
    TypeName outType = JavaTypes.arrayOf(op.resultType());
    m.addParameter(outType, out);
    m.addStatement("$T.notNull($S, $S, $N)", PolyCode.CHECKS, name, out, out);
    for (Param.Scalar a : arrays) {
      m.addStatement("$T.notNull($S, $S, $N)", PolyCode.CHECKS, name, a.name(), a.name());
      m.addStatement("$T.broadcast($S, $S, $N.length, $N.length)", PolyCode.CHECKS, name, a.name(), a.name(), out);
    }
    m.addStatement("final int $N = $N.length", n, out);
    CodeBlock.Builder sameLength = CodeBlock.builder();
    for (int k = 0; k < arrays.size(); k++) {
      sameLength.add(k == 0 ? "$N.length == $N" : " && $N.length == $N", arrays.get(k).name(), n);
    }
    CodeBlock direct = call(op, scalars, i, false);
    CodeBlock broadcast = call(op, scalars, i, true);
    CodeBlock.Builder body = CodeBlock.builder();
    if (arrays.isEmpty()) {
      body.beginControlFlow("for (int $N = $N; $N < $N; $N++)", i, lo, i, hi, i).addStatement("$N[$N] = $L", out, i, direct).endControlFlow();
    } else {
      body.beginControlFlow("if ($L)", sameLength.build())
          .beginControlFlow("for (int $N = $N; $N < $N; $N++)", i, lo, i, hi, i).addStatement("$N[$N] = $L", out, i, direct).endControlFlow()
          .nextControlFlow("else")
          .beginControlFlow("for (int $N = $N; $N < $N; $N++)", i, lo, i, hi, i).addStatement("$N[$N] = $L", out, i, broadcast).endControlFlow()
          .endControlFlow();
    }
    m.addCode("$T.parallelFor($N, $LL, ($N, $N, $N) -> {\n$>$L$<});\n", GridKernelWriter.CPU_EXECUTOR, n, 8, chunk, lo, hi, body.build());
    return m.build();
  }

  private static CodeBlock call(OperatorIr.Elementwise op, int scalars, String i, boolean broadcast) {
    CodeBlock.Builder args = CodeBlock.builder();
    for (int k = 0; k < op.params().size(); k++) {
      String p = op.params().get(k).name();
      String sep = k == 0 ? "" : ", ";
      if ((scalars & (1 << k)) != 0) {
        args.add(sep + "$N", p);
      } else if (broadcast) {
        args.add(sep + "$N[$N.length == 1 ? 0 : $N]", p, p, i);
      } else {
        args.add(sep + "$N[$N]", p, i);
      }
    }
    return CodeBlock.of("$N($L)", op.name(), args.build());
  }
}
