package dev.kiln.spark;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Runs a Kiln operator split along one of its sizes over a Spark context, with the same results as
 * one call of its launcher on one machine.
 *
 * <p>The processor proves, for each grid and composite operator, which size its work can be split
 * along (a {@code @Parallel} loop whose workers read and write only their own rows of the arrays
 * that size leads) and writes the plan in {@code <Class>.shards.json} ({@link ShardPlan}). {@link
 * #run} cuts the rows into parts, ships each part its slices (the arrays every part reads whole go
 * once per executor as a broadcast), runs the generated CPU launcher on each part with the part's
 * number of rows and, for an {@code @Offset} parameter, the part's first row added, then writes
 * each part's rows back into the caller's arrays in place. {@code @Reduce} outputs not split along
 * the size get each part's partial result, started from the reduction's identity, combined in a
 * fixed tree in part order ({@link Partials}) and folded into the caller's array; an output the
 * operator writes with a sum over the split size (a column sum, a weight gradient) gets each part's
 * sum over its rows, added in the same tree, the total replacing the caller's array.
 *
 * <p>Maps and row kernels give exactly the single call's bits (a row's work is the same whatever
 * rows run beside it); reductions add their terms in another order (within the reduction's usual
 * rounding, and the same bits on every run for a given number of parts; exact for integers);
 * {@code KRandom} draws addressed through an {@code @Offset} parameter are the same under any split.
 */
public final class KilnSpark {
  private KilnSpark() {}

  /** Whether to split: as the cost model says, always (failing where the operator cannot be), or never. */
  public enum Split { AUTO, ALWAYS, NEVER }

  /** What a call did: split along {@code dim} into {@code parts}, or run whole on the driver, and why. */
  public record Run(String operator, String dim, int parts, boolean sharded, String decision) {}

  /**
   * Runs {@code operator} of {@code owner} (the class declaring it, compiled with the Kiln processor)
   * on {@code args}, its launcher's arguments in order, splitting it into at most {@code parts}
   * parts over {@code sc} when {@code split} allows.
   *
   * @throws IllegalArgumentException naming the operator when the arguments do not fit its plan, or
   *     when {@code split} is {@link Split#ALWAYS} and the operator cannot be split (with why)
   */
  public static Run run(JavaSparkContext sc, Class<?> owner, String operator, int parts, Split split, Object... args) {
    ShardPlan plan = ShardPlan.of(owner, operator);
    if (!plan.shardable()) {
      if (split == Split.ALWAYS) {
        throw new IllegalArgumentException("operator '" + operator + "' cannot be split: " + String.join("; ", plan.refusals()));
      }
      Launcher.call(planForLocalCall(plan, args), args);
      return new Run(operator, null, 1, false, "run whole on the driver: it cannot be split (" + String.join("; ", plan.refusals()) + ")");
    }
    check(plan, args);
    Map<String, Long> sizes = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      ShardPlan.Role role = plan.params().get(i).role();
      if (role == ShardPlan.Role.SIZE || role == ShardPlan.Role.SHARD_SIZE) {
        sizes.put(plan.params().get(i).name(), ((Number) args[i]).longValue());
      }
    }
    if (parts < 1) {
      throw new IllegalArgumentException("operator '" + operator + "': " + parts + " parts (at least 1)");
    }
    int rows = sizes.get(plan.dim()).intValue();
    int n = Math.max(1, Math.min(parts, rows));
    ShardCost cost = ShardCost.of(plan, sizes, n, Runtime.getRuntime().availableProcessors(), clusterCores(sc));
    boolean shard = rows > 0 && (split == Split.ALWAYS || split == Split.AUTO && n > 1 && cost.pays());
    if (!shard) {
      Launcher.call(plan, args);
      String why = split == Split.NEVER ? "splitting turned off" : rows == 0 ? plan.dim() + " is 0"
          : n == 1 ? "one part" : cost.describe();
      return new Run(operator, plan.dim(), 1, false, "run whole on the driver: " + why);
    }
    split(sc, plan, rows, n, args);
    return new Run(operator, plan.dim(), n, true, "split along " + plan.dim() + " into " + n + " parts"
        + (split == Split.ALWAYS ? " (forced)" : ": " + cost.describe()));
  }

  /**
   * {@code operator} of {@code owner} over a dataset: each block of rows of the split size runs the
   * launcher on its rows (its split inputs from the block, by parameter name), giving a block of the
   * same rows of the split outputs. {@code args} holds the other arguments by name: sizes, scalars,
   * the arrays every block reads whole (sent once per executor), and an {@code @Offset} base (0 when
   * absent; each block adds its first row). Lazy, like any Spark transformation; rows are the single
   * call's bits for those rows.
   *
   * @throws IllegalArgumentException naming the operator when it cannot be split, has {@code @Reduce}
   *     outputs ({@link #reduceRows}), or {@code args} lack or have a parameter they should not
   */
  public static org.apache.spark.api.java.JavaRDD<RowBlock> mapRows(org.apache.spark.api.java.JavaRDD<RowBlock> blocks,
      Class<?> owner, String operator, Map<String, Object> args) {
    return DatasetRuns.map(blocks, DatasetRuns.fixed(blocks, owner, operator, args));
  }

  /**
   * The {@code @Reduce} outputs of {@code operator} over a dataset, by parameter name: each block's
   * partial result from the reduction's identity, combined in a fixed tree within each partition in
   * block order and then across partitions in partition order, and folded into a copy of the
   * initial array {@code args} gives for it (none: the combined partials alone). The same bits on
   * every run of a given partitioning. An action: it runs the job. Output rows are not kept.
   */
  public static Map<String, Object> reduceRows(org.apache.spark.api.java.JavaRDD<RowBlock> blocks, Class<?> owner,
      String operator, Map<String, Object> args) {
    return DatasetRuns.reduce(blocks, DatasetRuns.fixed(blocks, owner, operator, args));
  }

  /**
   * {@code parts} combined by {@code combine} in the fixed pairwise tree of {@link #treeSum} (parts 0
   * and 1, 2 and 3, ..., then the results of pairs): how the parts' summaries of a user monoid, a
   * record with an associative combine such as Welford's mean and variance, become one. For a given
   * list, the same result on every run.
   */
  public static <T> T treeReduce(List<T> parts, java.util.function.BinaryOperator<T> combine) {
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("no parts to combine");
    }
    List<T> level = new ArrayList<>(parts);
    while (level.size() > 1) {
      List<T> next = new ArrayList<>();
      for (int i = 0; i < level.size(); i += 2) {
        next.add(i + 1 < level.size() ? combine.apply(level.get(i), level.get(i + 1)) : level.get(i));
      }
      level = next;
    }
    return level.get(0);
  }

  /**
   * The element-wise sum of {@code parts} (arrays of one length) in the fixed pairwise tree of
   * {@link #run}'s reductions: parts 0 and 1, 2 and 3, ..., then the sums of pairs. For a given
   * number of parts the same bits on every run, whatever order the parts finished in: how a
   * data-parallel training step reduces its parts' gradients.
   */
  public static float[] treeSum(List<float[]> parts) {
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("no parts to sum");
    }
    return (float[]) Partials.tree(new ArrayList<>(parts), "+");
  }

  /**
   * The cores the parts can run on: Spark's default parallelism, and in local mode no more than this
   * machine has (its executor threads share the driver's cores).
   */
  static int clusterCores(JavaSparkContext sc) {
    int cores = sc.defaultParallelism();
    return sc.master().startsWith("local") ? Math.min(cores, Runtime.getRuntime().availableProcessors()) : cores;
  }

  private static ShardPlan planForLocalCall(ShardPlan plan, Object[] args) {
    // an operator without a plan: its launcher is found by name and argument count alone
    List<ShardPlan.Param> params = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      params.add(new ShardPlan.Param("arg" + i, ShardPlan.Role.SCALAR));
    }
    return new ShardPlan(plan.owner(), plan.operator(), null, params, null, null, null, plan.refusals());
  }

  private static void check(ShardPlan plan, Object[] args) {
    if (args.length != plan.params().size()) {
      throw new IllegalArgumentException("operator '" + plan.operator() + "' takes " + plan.params().size()
          + " arguments, " + args.length + " given");
    }
    for (int i = 0; i < args.length; i++) {
      ShardPlan.Param p = plan.params().get(i);
      boolean array = args[i] != null && args[i].getClass().isArray();
      boolean wantsArray = p.role() == ShardPlan.Role.ROWS || p.role() == ShardPlan.Role.WHOLE || p.role() == ShardPlan.Role.REDUCE
          || p.role() == ShardPlan.Role.SUM;
      if (args[i] == null || array != wantsArray) {
        throw new IllegalArgumentException("operator '" + plan.operator() + "': argument '" + p.name() + "' must be "
            + (wantsArray ? "an array" : "a number") + ", got " + (args[i] == null ? "null" : args[i].getClass().getSimpleName()));
      }
    }
    // parts work on copies of the rows, so an array passed twice would not be updated in place the
    // way one call would (or refuse to); refuse it here, naming both arguments
    for (int i = 0; i < args.length; i++) {
      for (int j = i + 1; j < args.length; j++) {
        if (args[i] == args[j] && args[i].getClass().isArray()
            && (plan.params().get(i).written() || plan.params().get(j).written())) {
          throw new IllegalArgumentException("operator '" + plan.operator() + "': arguments '" + plan.params().get(i).name()
              + "' and '" + plan.params().get(j).name() + "' are one array, which a split call does not run in place;"
              + " pass a separate output array");
        }
      }
    }
  }

  /**
   * Runs the call in {@code n} parts of consecutive rows: each part a {@link RowBlock} of the split
   * arrays' slices (the inputs, and the caller's content of the written rows), run on an executor
   * as a dataset's block is ({@link DatasetRuns#run}); the written rows are copied back in place and
   * the reduced outputs' partials combined in the fixed tree in part order.
   */
  private static void split(JavaSparkContext sc, ShardPlan plan, int rows, int n, Object[] args) {
    Map<String, Object> named = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      ShardPlan.Param p = plan.params().get(i);
      switch (p.role()) {
        case ROWS -> {
          if (Array.getLength(args[i]) % rows != 0) {
            throw new IllegalArgumentException("operator '" + plan.operator() + "': argument '" + p.name() + "' has "
                + Array.getLength(args[i]) + " elements, not a whole number of rows of " + plan.dim() + " = " + rows);
          }
        }
        case SIZE, SCALAR, OFFSET, WHOLE -> named.put(p.name(), args[i]);
        default -> {} // the split size is each part's; reduced outputs are folded into the caller's arrays here
      }
    }
    List<RowBlock> blocks = new ArrayList<>();
    for (int part = 0; part < n; part++) {
      int first = (int) ((long) rows * part / n);
      int last = (int) ((long) rows * (part + 1) / n);
      Map<String, Object> slices = new HashMap<>();
      for (int i = 0; i < args.length; i++) {
        if (plan.params().get(i).role() == ShardPlan.Role.ROWS) {
          int per = Array.getLength(args[i]) / rows;
          Object slice = Array.newInstance(args[i].getClass().getComponentType(), (last - first) * per);
          System.arraycopy(args[i], first * per, slice, 0, (last - first) * per);
          slices.put(plan.params().get(i).name(), slice);
        }
      }
      blocks.add(new RowBlock(first, last - first, slices));
    }
    DatasetRuns.Fixed fixed = DatasetRuns.fixed(sc, plan, named);
    List<Map<String, Object>> results = sc.parallelize(blocks, n).map(block -> DatasetRuns.run(fixed, block)).collect();
    fixed.whole().destroy();
    for (int i = 0; i < args.length; i++) {
      ShardPlan.Param param = plan.params().get(i);
      if (param.role() == ShardPlan.Role.ROWS && param.written()) {
        int per = Array.getLength(args[i]) / rows;
        for (int part = 0; part < n; part++) {
          RowBlock block = blocks.get(part);
          System.arraycopy(results.get(part).get(param.name()), 0, args[i], (int) block.first() * per, block.rows() * per);
        }
      } else if (param.role() == ShardPlan.Role.REDUCE || param.role() == ShardPlan.Role.SUM) {
        List<Object> partials = new ArrayList<>();
        results.forEach(r -> partials.add(r.get(param.name())));
        Object total = Partials.tree(partials, param.reduce());
        if (param.role() == ShardPlan.Role.REDUCE) {
          Partials.foldInto(args[i], total, param.reduce());
        } else {
          System.arraycopy(total, 0, args[i], 0, Array.getLength(args[i]));
        }
      }
    }
  }
}
