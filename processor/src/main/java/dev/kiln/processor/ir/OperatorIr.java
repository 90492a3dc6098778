package dev.kiln.processor.ir;

import java.util.List;
import java.util.Map;

/**
 * One operator in Kiln's IR.
 *
 * <p>An elementwise operator is its {@code result} expression over its scalar parameters. A grid
 * operator is its {@code grid} (the {@code @Parallel} loops, outermost first) and the effects of one
 * worker, {@code body}.
 *
 * @param owner the fully qualified name of the class that declares it
 * @param names readable names for expressions that the source bound to locals
 */
public record OperatorIr(
    String owner,
    String name,
    OperatorKind kind,
    List<Param> params,
    ScalarType resultType,
    Expr result,
    List<GridDim> grid,
    List<Stmt> body,
    Map<Expr, String> names) {
  public OperatorIr {
    params = List.copyOf(params);
    grid = List.copyOf(grid);
    body = List.copyOf(body);
    names = Map.copyOf(names);
  }

  public List<Param.Array> arrays() {
    return params.stream()
        .filter(p -> p instanceof Param.Array)
        .map(p -> (Param.Array) p)
        .toList();
  }

  /** The parameters a caller passes: all but the {@link ArrayRole#SCRATCH} arrays. */
  public List<Param> arguments() {
    return params.stream().filter(p -> !isScratch(p)).toList();
  }

  /** The arrays each worker keeps for itself ({@link ArrayRole#SCRATCH}). */
  public List<Param.Array> scratch() {
    return arrays().stream().filter(OperatorIr::isScratch).toList();
  }

  public static boolean isScratch(Param p) {
    return p instanceof Param.Array a && a.role() == ArrayRole.SCRATCH;
  }

  public List<Param.Scalar> scalars() {
    return params.stream()
        .filter(p -> p instanceof Param.Scalar)
        .map(p -> (Param.Scalar) p)
        .toList();
  }

  public List<Param.Scalar> dims() {
    return scalars().stream().filter(Param.Scalar::dim).toList();
  }

  /** The scalar parameter named {@code name}. */
  public Param.Scalar scalar(String name) {
    return scalars().stream().filter(s -> s.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException(this.name + " has no scalar parameter '" + name + "'"));
  }
}
