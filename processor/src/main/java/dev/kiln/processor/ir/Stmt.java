package dev.kiln.processor.ir;

import java.util.List;

/**
 * An effect of one worker, in program order: a store, an accumulation into a {@code @Reduce}
 * output (by an associative operator, or by a user monoid's combining method), or a sequential
 * loop holding more statements. Every effect has a guard: the path
 * condition under which the source executed it ({@code if} statements are converted to guards and
 * selects).
 */
public sealed interface Stmt permits Stmt.Store, Stmt.Accumulate, Stmt.Combine, Stmt.Loop {
  Expr guard();

  /** The source construct the statement came from, for diagnostics; may be null. */
  SourceRef origin();

  /** {@code array[index] = value} when {@code guard} holds. */
  record Store(Param.Array array, Expr index, Expr value, Expr guard, SourceRef origin)
      implements Stmt {}

  /** {@code array[index] = array[index] (op) value} when {@code guard} holds. */
  record Accumulate(
      Param.Array array, Expr index, ReduceKind op, Expr value, Expr guard, SourceRef origin)
      implements Stmt {}

  /**
   * {@code r[index] = r[index].method(value)} for a {@code @Reduce} array {@code r} of records when
   * {@code guard} holds: {@code arrays} hold the records' components (one array each, in the
   * monoid's order) and {@code values} the contribution's; {@code param} is the record array's name.
   */
  record Combine(
      Monoid monoid, String param, List<Param.Array> arrays, Expr index, List<Expr> values, Expr guard, SourceRef origin)
      implements Stmt {
    public Combine {
      arrays = List.copyOf(arrays);
      values = List.copyOf(values);
      if (arrays.size() != monoid.size() || values.size() != monoid.size()) {
        throw new IllegalArgumentException("a combine needs one array and one value per component of " + monoid);
      }
    }
  }

  /**
   * {@code for (index = lo; index < hi; index += step)} when {@code guard} holds, with values
   * carried from one iteration to the next.
   *
   * @param id the loop's scope number, greater than 0
   */
  record Loop(
      int id,
      Expr.Var index,
      Expr lo,
      Expr hi,
      long step,
      Expr guard,
      List<Carried> carried,
      List<Stmt> body,
      SourceRef origin)
      implements Stmt {
    public Loop {
      carried = List.copyOf(carried);
      body = List.copyOf(body);
    }
  }

  /**
   * A local variable updated by a loop: {@code phi} is its value inside an iteration ({@code init}
   * on the first), {@code next} its value at the end of one, {@code result} its value after the
   * loop.
   *
   * @param anyOrder whether the value is a sum Kiln made up (a derived gradient's adjoint sum, which
   *     no plain-Java source fixes the order of) that a CPU kernel may add in its fixed order of
   *     sixteen partial sums ({@code codegen.PartialSums}); false for every value the source names
   */
  record Carried(Expr.Var phi, Expr init, Expr next, Expr.Var result, boolean anyOrder) {
    /** A value the source names: its terms added in index order. */
    public Carried(Expr.Var phi, Expr init, Expr next, Expr.Var result) {
      this(phi, init, next, result, false);
    }

    /** The same carried value (its order kept) with other parts, as a pass that rebuilds a loop makes it. */
    public Carried with(Expr.Var phi, Expr init, Expr next, Expr.Var result) {
      return new Carried(phi, init, next, result, anyOrder);
    }
  }
}
