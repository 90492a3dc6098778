package dev.kiln.processor.ir;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One operator in Kiln's IR: an {@link Elementwise} operator, a {@link Grid} operator or the
 * signature of a {@link Composite} one. Each kind is its own record and carries only what that kind
 * has; code that needs a grid's loops or a map's result expression takes the record it needs.
 */
public sealed interface OperatorIr permits OperatorIr.Elementwise, OperatorIr.Grid, OperatorIr.Composite {

  /** The fully qualified name of the class that declares it. */
  String owner();

  String name();

  List<Param> params();

  /** Readable names for expressions that the source bound to locals. */
  Map<Expr, String> names();

  OperatorKind kind();

  /**
   * A map: its {@code result} expression over its scalar parameters.
   *
   * @param names readable names for expressions that the source bound to locals
   */
  record Elementwise(String owner, String name, List<Param> params, ScalarType resultType, Expr result,
      Map<Expr, String> names) implements OperatorIr {
    public Elementwise {
      Objects.requireNonNull(resultType, "resultType");
      Objects.requireNonNull(result, "result");
      params = List.copyOf(params);
      names = Map.copyOf(names);
    }

    @Override
    public OperatorKind kind() {
      return OperatorKind.ELEMENTWISE;
    }
  }

  /**
   * A grid operator: its {@code grid} (the {@code @Parallel} loops, outermost first) and the effects
   * of one worker, {@code body}; then {@code finish}, statements that run once, after every worker
   * has finished and every {@code @Reduce} result is complete (no grid variable is in scope there).
   * Only the merger makes a non-empty {@code finish}: the calls that read a reduction over all
   * workers, such as a mean's division, joined to its kernel.
   *
   * @param names readable names for expressions that the source bound to locals
   */
  record Grid(String owner, String name, List<Param> params, List<GridDim> grid, List<Stmt> body,
      Map<Expr, String> names, List<Stmt> finish) implements OperatorIr {
    public Grid {
      params = List.copyOf(params);
      grid = List.copyOf(grid);
      body = List.copyOf(body);
      names = Map.copyOf(names);
      finish = List.copyOf(finish);
    }

    /** A grid operator with nothing to run after its workers. */
    public Grid(String owner, String name, List<Param> params, List<GridDim> grid, List<Stmt> body,
        Map<Expr, String> names) {
      this(owner, name, params, grid, body, names, List.of());
    }

    /** A grid operator with no source names, as the passes build them. */
    public Grid(String owner, String name, List<Param> params, List<GridDim> grid, List<Stmt> body) {
      this(owner, name, params, grid, body, Map.of());
    }

    @Override
    public OperatorKind kind() {
      return OperatorKind.GRID;
    }

    public Grid withName(String newName) {
      return new Grid(owner, newName, params, grid, body, names, finish);
    }

    public Grid withParams(List<Param> newParams) {
      return new Grid(owner, name, newParams, grid, body, names, finish);
    }

    public Grid withBody(List<Stmt> newBody) {
      return new Grid(owner, name, params, grid, newBody, names, finish);
    }

    public Grid withFinish(List<Stmt> newFinish) {
      return new Grid(owner, name, params, grid, body, names, newFinish);
    }

    /** Whether statements run after every worker ({@link #finish}). */
    public boolean finishes() {
      return !finish.isEmpty();
    }
  }

  /**
   * A composite operator's signature: its parameters. Its calls and temporaries are in its
   * {@link CompositeIr}.
   */
  record Composite(String owner, String name, List<Param> params) implements OperatorIr {
    public Composite {
      params = List.copyOf(params);
    }

    @Override
    public Map<Expr, String> names() {
      return Map.of();
    }

    @Override
    public OperatorKind kind() {
      return OperatorKind.COMPOSITE;
    }
  }

  default List<Param.Array> arrays() {
    return params().stream()
        .filter(p -> p instanceof Param.Array)
        .map(p -> (Param.Array) p)
        .toList();
  }

  /** The parameters a caller passes: all but the {@link ArrayRole#SCRATCH} arrays. */
  default List<Param> arguments() {
    return params().stream().filter(p -> !isScratch(p)).toList();
  }

  /** The arrays each worker keeps for itself ({@link ArrayRole#SCRATCH}). */
  default List<Param.Array> scratch() {
    return arrays().stream().filter(OperatorIr::isScratch).toList();
  }

  static boolean isScratch(Param p) {
    return p instanceof Param.Array a && a.role() == ArrayRole.SCRATCH;
  }

  default List<Param.Scalar> scalars() {
    return params().stream()
        .filter(p -> p instanceof Param.Scalar)
        .map(p -> (Param.Scalar) p)
        .toList();
  }

  default List<Param.Scalar> dims() {
    return scalars().stream().filter(Param.Scalar::dim).toList();
  }

  /** The scalar parameter named {@code name}. */
  default Param.Scalar scalar(String name) {
    return scalars().stream().filter(s -> s.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException(name() + " has no scalar parameter '" + name + "'"));
  }
}
