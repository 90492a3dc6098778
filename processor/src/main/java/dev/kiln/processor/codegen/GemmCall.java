package dev.kiln.processor.codegen;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.contraction.Contraction;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import java.util.List;
import java.util.Map;

/**
 * The Java statement that runs one product of a contraction: {@code Gemm.sgemm(...)} on the CPU or
 * {@code CudaBlas.sgemm(stream, ...)} on CUDA, with the same arguments (the conventions of both
 * are row-major, {@code dev.kiln.runtime.cpu.Gemm}'s javadoc), computed from the product's size
 * polynomials with overflow checks naming the operator.
 */
public final class GemmCall {
  public static final ClassName GEMM = ClassName.get("dev.kiln.runtime.cpu", "Gemm");
  public static final ClassName CUDA_BLAS = ClassName.get("dev.kiln.runtime.cuda", "CudaBlas");
  private static final ClassName CHECKS = ClassName.get("dev.kiln.runtime", "Checks");

  private GemmCall() {}

  /**
   * The call of product {@code p} writing {@code buffer}; the first product of a chain overwrites
   * it ({@code beta = 0}), the next ones add to it.
   *
   * @param stream the CUDA stream's variable, or null for the CPU
   */
  public static CodeBlock of(OperatorIr op, ScalarType type, Contraction.Product p, String buffer, boolean first, String stream) {
    boolean f = type == ScalarType.FLOAT;
    CodeBlock beta = CodeBlock.of(f ? (first ? "0f" : "1f") : (first ? "0.0" : "1.0"));
    CodeBlock head = stream == null ? CodeBlock.of("$T.", GEMM) : CodeBlock.of("$T.", CUDA_BLAS);
    CodeBlock streamArg = stream == null ? CodeBlock.of("") : CodeBlock.of("$N, ", stream);
    CodeBlock m = extent(p.m());
    CodeBlock n = extent(p.n());
    CodeBlock k = size(op, "the product's inner extent", p.k());
    CodeBlock aOff = size(op, "the offset of '" + p.a().name() + "'", p.aOffset());
    CodeBlock bOff = size(op, "the offset of '" + p.b().name() + "'", p.bOffset());
    CodeBlock lda = leading(op, p.a().name(), p.lda());
    CodeBlock ldb = leading(op, p.b().name(), p.ldb());
    CodeBlock ldc = leading(op, "the product", p.ldc());
    if (p.batch() == null) {
      return CodeBlock.of("$L$L($L$L, $L, $L, $L, $L, $N, $L, $L, $N, $L, $L, $L, $N, 0, $L)", head, f ? "sgemm" : "dgemm",
          streamArg, p.transA(), p.transB(), m, n, k, p.a().name(), aOff, lda, p.b().name(), bOff, ldb, beta, buffer, ldc);
    }
    return CodeBlock.of("$L$L($L$N, $L, $L, $L, $L, $L, $N, $L, $L, $L, $N, $L, $L, $L, $L, $N, 0, $L, $L)", head,
        f ? "sgemmBatched" : "dgemmBatched", streamArg, p.batch().extentText(), p.transA(), p.transB(), m, n, k,
        p.a().name(), aOff, lda, size(op, "the batch stride of '" + p.a().name() + "'", p.strideA()),
        p.b().name(), bOff, ldb, size(op, "the batch stride of '" + p.b().name() + "'", p.strideB()),
        beta, buffer, ldc, size(op, "the batch stride of the product", p.strideC()));
  }

  private static CodeBlock extent(GridDim g) {
    return g == null ? CodeBlock.of("1") : CodeBlock.of("$N", g.extentText());
  }

  /** A leading dimension: at least 1, as BLAS requires even when a size is 0. */
  private static CodeBlock leading(OperatorIr op, String of, Poly p) {
    return CodeBlock.of("$T.max(1, $L)", Math.class, size(op, "the leading dimension of " + of, p));
  }

  /** An {@code int} from a size polynomial: a literal or a parameter as it is, else checked. */
  public static CodeBlock size(OperatorIr op, String what, Poly p) {
    if (p.isConstant()) {
      return CodeBlock.of("$L", p.constantTerm());
    }
    if (p.terms().size() == 1) {
      Map.Entry<List<String>, Long> t = p.terms().entrySet().iterator().next();
      if (t.getValue() == 1 && t.getKey().size() == 1) {
        return CodeBlock.of("$N", t.getKey().get(0));
      }
    }
    return CodeBlock.of("$T.size($S, $S, $L)", CHECKS, op.name(), what, longCode(p));
  }

  /** Java for a size polynomial as a saturated {@code long}. */
  private static CodeBlock longCode(Poly p) {
    CodeBlock sum = null;
    for (Map.Entry<List<String>, Long> t : p.terms().entrySet()) {
      CodeBlock term = CodeBlock.of("$LL", t.getValue());
      for (String s : t.getKey()) {
        term = CodeBlock.of("$T.mul($L, $N)", CHECKS, term, s);
      }
      sum = sum == null ? term : CodeBlock.of("$T.add($L, $L)", CHECKS, sum, term);
    }
    return sum == null ? CodeBlock.of("0L") : sum;
  }
}
