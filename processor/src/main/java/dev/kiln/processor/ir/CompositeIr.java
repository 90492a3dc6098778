package dev.kiln.processor.ir;

import java.util.List;
import java.util.Map;

/**
 * A composite operator: straight-line calls of other operators over its array parameters and its
 * temporaries. This is the operator DAG before fusion: calls are nodes, arrays are edges.
 *
 * @param signature the operator's name and parameters
 * @param temps the temporaries ({@code new float[n]}), in declaration order
 * @param calls the calls, in source order (nested composites already expanded)
 */
public record CompositeIr(OperatorIr.Composite signature, List<Temp> temps, List<Call> calls) {
  public CompositeIr {
    temps = List.copyOf(temps);
    calls = List.copyOf(calls);
  }

  public String name() {
    return signature.name();
  }

  /** A temporary array; zero-filled when made, as Java's {@code new} does. */
  public record Temp(String name, ScalarType elementType, Poly length, SourceRef origin) {}

  /**
   * One call of an operator.
   *
   * @param id unique in the composite: the callee's name, '#', the call's number from 1
   * @param callee the called operator (elementwise operators are never called from composites)
   * @param dims the callee's {@code @Dim} parameters bound to sizes over the composite's dims
   * @param args one per callee parameter, in order
   * @param origin the call's place in the source (of the outermost call when nested composites were expanded)
   * @param line the call's source line, 0 when unknown
   */
  public record Call(String id, OperatorIr.Grid callee, Map<String, Poly> dims, List<Arg> args, SourceRef origin, long line) {
    public Call {
      dims = Map.copyOf(dims);
      args = List.copyOf(args);
    }
  }

  /** What a call passes for one parameter. */
  public sealed interface Arg permits Arg.Tensor, Arg.Size, Arg.Value {
    /** An array of the composite: a parameter or a temporary, by name. */
    record Tensor(String name) implements Arg {}

    /** A {@code @Dim} size. */
    record Size(Poly value) implements Arg {}

    /**
     * A scalar: the composite's scalar parameter {@code param}, or when null the literal
     * {@code literal} (of the callee parameter's type).
     */
    record Value(Param.Scalar param, double literal) implements Arg {}
  }
}
