package dev.kiln.processor.contraction;

import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import java.util.List;

/**
 * A grid operator whose workers each compute a sum of products over sequential loops (a matrix
 * product, as in {@code acc += x[b*K + k] * w[k*N + n]}), lowered to library matrix products (GEMM
 * leaves: BLAS on the CPU, cuBLAS on CUDA) plus an ordinary grid kernel, the {@code epilogue}, that
 * does the rest of each worker's work on the product: the accumulator's initial value (a bias),
 * activations, the stores.
 *
 * <p>A product whose left operand is computed (a masked or scaled term, {@code c ? x * b : 0}) reads
 * it from a buffer that one of the {@code prologues}, an ordinary grid kernel over the operand's
 * coordinates, writes first (its last parameter, an output of the prologue that the launcher takes
 * from the pool of temporaries).
 *
 * <p>Every product writes the dense {@code product} buffer, laid out row-major over the operator's
 * grid: the first with {@code beta = 0}, the others adding to it. The epilogue reads it where the
 * loops' result was used. When {@code direct} is set the buffer is that output array itself (its
 * store index is the dense grid index and it is the only store), so nothing is allocated; when
 * {@code epilogue} is null the products alone are the operator's result.
 *
 * @param op the operator as written (its launcher keeps its parameters and checks)
 * @param elementType float (sgemm) or double (dgemm)
 * @param product the buffer parameter the epilogue reads, not a parameter of {@code op}
 * @param reason why the operator is a contraction, for reports and the IR listing
 */
public record Contraction(
    OperatorIr.Grid op,
    ScalarType elementType,
    List<Product> products,
    Param.Array product,
    Param.Array direct,
    OperatorIr.Grid epilogue,
    List<OperatorIr.Grid> prologues,
    String reason) {
  public Contraction {
    products = List.copyOf(products);
    prologues = List.copyOf(prologues);
  }

  /** The buffer a prologue writes: its last parameter. */
  public static Param.Array operand(OperatorIr.Grid prologue) {
    return (Param.Array) prologue.params().get(prologue.params().size() - 1);
  }

  /**
   * One library matrix product, row-major: {@code C[m, n] (+)= sum over k of opA(m, k) * opB(k, n)}
   * for every batch index, in the conventions of {@code dev.kiln.runtime.cpu.Gemm}. Sizes and
   * strides are polynomials in the operator's size parameters. A missing grid dimension ({@code m},
   * {@code n} or {@code batch} null) has extent 1.
   */
  public record Product(
      Param.Array a,
      Param.Array b,
      boolean transA,
      boolean transB,
      GridDim m,
      GridDim n,
      GridDim batch,
      Poly k,
      Poly aOffset,
      Poly lda,
      Poly strideA,
      Poly bOffset,
      Poly ldb,
      Poly strideB,
      Poly ldc,
      Poly strideC) {}
}
