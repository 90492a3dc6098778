package dev.kiln.processor.report;

import java.util.List;

/**
 * How each operator of a class may be split along one of its sizes (sharded: each part run on a
 * slice of the arrays that dimension leads, as Kiln's Spark runner does), or why not: the model
 * of {@code <Class>.shards.json}. Sizes are polynomials of the operator's {@code @Dim}s, as text
 * ({@code 4*N + 2}).
 */
public record ShardReport(String owner, List<Operator> operators) {
  /** One operator: its shard plan, or none and why (one reason per size tried). */
  public record Operator(String name, String kind, Plan plan, List<String> refusals) {}

  /**
   * Split along {@code dim}: each parameter's role, and the cost model's inputs, per row of {@code
   * dim}: bytes of the split arrays, and operations (IR nodes evaluated, loops counted by trip);
   * and bytes every part needs whole.
   */
  public record Plan(String dim, List<Role> params, String rowBytes, String rowWork, String wholeBytes) {}

  /**
   * A parameter's role: {@code shard-size} (the dimension split: each part gets its own), {@code
   * size}, {@code scalar}, {@code offset} (the first row of the part, added to the caller's value),
   * {@code rows} (sliced: each part reads and writes only its rows), {@code whole} (an input every
   * part reads whole), {@code reduce} (a {@code @Reduce} output every part adds into: each part
   * folds into the identity, the parts are combined and folded into the caller's array), {@code sum}
   * (an output the operator writes with a sum over the split size: each part writes its rows' sums,
   * the parts are added and the total replaces the caller's array), with the reduction's operator
   * ({@code + * max min}) for {@code reduce} and {@code sum}; for an array, whether the
   * operator reads it ({@code in}), writes it ({@code out}) or accumulates into it ({@code reduce}),
   * its element type, and its length: of one row for {@code rows} arrays, of the whole array otherwise.
   */
  public record Role(String name, String role, String reduce, String io, String type, String length) {
    /** A scalar parameter's role. */
    public Role(String name, String role) {
      this(name, role, null, null, null, null);
    }
  }
}
