package dev.kiln.spark;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import scala.Tuple2;

/** {@link KilnSpark#mapRows} and {@link KilnSpark#reduceRows}: an operator over a dataset of {@link RowBlock}s. */
final class DatasetRuns {
  private DatasetRuns() {}

  /** The operator's arguments other than the split ones, with the whole arrays from a broadcast. */
  record Fixed(ShardPlan plan, Map<String, Object> args, Broadcast<Map<String, Object>> whole) implements java.io.Serializable {}

  static Fixed fixed(JavaRDD<RowBlock> blocks, Class<?> owner, String operator, Map<String, Object> args) {
    return fixed(JavaSparkContext.fromSparkContext(blocks.context()), ShardPlan.of(owner, operator), args);
  }

  /**
   * The arguments of {@code plan}'s operator by name, checked: every size, scalar and whole array,
   * an {@code @Offset} base (0 when absent), and for a reduced output its initial array or none.
   */
  static Fixed fixed(JavaSparkContext sc, ShardPlan plan, Map<String, Object> args) {
    String operator = plan.operator();
    if (!plan.shardable()) {
      throw new IllegalArgumentException("operator '" + operator + "' cannot be split: " + String.join("; ", plan.refusals()));
    }
    Map<String, Object> scalars = new HashMap<>();
    Map<String, Object> whole = new HashMap<>();
    for (ShardPlan.Param p : plan.params()) {
      Object a = args.get(p.name());
      switch (p.role()) {
        case SHARD_SIZE, ROWS -> {
          if (a != null) {
            throw new IllegalArgumentException("operator '" + operator + "': '" + p.name() + "' comes from the blocks, not the arguments");
          }
        }
        case OFFSET -> scalars.put(p.name(), a == null ? 0 : a);
        case SIZE, SCALAR -> scalars.put(p.name(), require(operator, p, a));
        case WHOLE -> whole.put(p.name(), require(operator, p, a));
        case REDUCE, SUM -> scalars.put(p.name(), a);
      }
    }
    for (String name : args.keySet()) {
      plan.param(name);
    }
    return new Fixed(plan, scalars, sc.broadcast(whole));
  }

  private static Object require(String operator, ShardPlan.Param p, Object a) {
    if (a == null) {
      throw new IllegalArgumentException("operator '" + operator + "': no argument '" + p.name() + "'");
    }
    return a;
  }

  /** Runs the launcher on one block: its output rows, and its partial reductions from the identity, by name. */
  static Map<String, Object> run(Fixed fixed, RowBlock block) {
    ShardPlan plan = fixed.plan();
    Map<String, Long> sizes = new HashMap<>();
    for (ShardPlan.Param p : plan.params()) {
      if (p.role() == ShardPlan.Role.SIZE) {
        sizes.put(p.name(), ((Number) fixed.args().get(p.name())).longValue());
      }
    }
    sizes.put(plan.dim(), (long) block.rows());
    Object[] call = new Object[plan.params().size()];
    Map<String, Object> out = new HashMap<>();
    for (int i = 0; i < call.length; i++) {
      ShardPlan.Param p = plan.params().get(i);
      switch (p.role()) {
        case SHARD_SIZE -> call[i] = block.rows();
        case SIZE, SCALAR -> call[i] = fixed.args().get(p.name());
        case OFFSET -> call[i] = Math.toIntExact(((Number) fixed.args().get(p.name())).longValue() + block.first());
        case WHOLE -> call[i] = fixed.whole().value().get(p.name());
        case REDUCE -> {
          Object like = Array.newInstance(p.elementClass(), (int) p.length().at(sizes));
          call[i] = Partials.identity(like, p.reduce());
          out.put(p.name(), call[i]);
        }
        case SUM -> {
          call[i] = Array.newInstance(p.elementClass(), (int) p.length().at(sizes));
          out.put(p.name(), call[i]);
        }
        case ROWS -> {
          Object given = block.array(p.name());
          if (!p.written()) {
            if (given == null) {
              throw new IllegalArgumentException("operator '" + plan.operator() + "': the block of rows from " + block.first()
                  + " has no '" + p.name() + "'");
            }
            call[i] = given;
          } else {
            int length = Math.toIntExact(block.rows() * (long) p.length().at(sizes));
            Object array = Array.newInstance(p.elementClass(), length);
            if (given != null) {
              System.arraycopy(given, 0, array, 0, Math.min(length, Array.getLength(given)));
            }
            call[i] = array;
            out.put(p.name(), array);
          }
        }
      }
    }
    Launcher.call(plan, call);
    return out;
  }

  static JavaRDD<RowBlock> map(JavaRDD<RowBlock> blocks, Fixed fixed) {
    for (ShardPlan.Param p : fixed.plan().params()) {
      if (p.role() == ShardPlan.Role.REDUCE || p.role() == ShardPlan.Role.SUM) {
        throw new IllegalArgumentException("operator '" + fixed.plan().operator() + "' has the output '" + p.name()
            + "', reduced over the rows, which no block owns: use KilnSpark.reduceRows");
      }
    }
    return blocks.map(block -> new RowBlock(block.first(), block.rows(), run(fixed, block)));
  }

  static Map<String, Object> reduce(JavaRDD<RowBlock> blocks, Fixed fixed) {
    List<ShardPlan.Param> reduced = fixed.plan().params().stream()
        .filter(p -> p.role() == ShardPlan.Role.REDUCE || p.role() == ShardPlan.Role.SUM).toList();
    if (reduced.isEmpty()) {
      throw new IllegalArgumentException("operator '" + fixed.plan().operator() + "' has no @Reduce output: use KilnSpark.mapRows");
    }
    List<Tuple2<Integer, Map<String, Object>>> parts = blocks.mapPartitionsWithIndex((index, it) -> {
      List<Map<String, Object>> own = new ArrayList<>();
      while (it.hasNext()) {
        own.add(run(fixed, it.next()));
      }
      List<Tuple2<Integer, Map<String, Object>>> result = new ArrayList<>();
      if (!own.isEmpty()) {
        result.add(new Tuple2<>(index, combine(own, reduced)));
      }
      return result.iterator();
    }, true).collect();
    List<Tuple2<Integer, Map<String, Object>>> ordered = new ArrayList<>(parts);
    ordered.sort(java.util.Comparator.comparing(Tuple2::_1));
    List<Map<String, Object>> partials = new ArrayList<>();
    ordered.forEach(t -> partials.add(t._2()));
    Map<String, Object> total = partials.isEmpty() ? Map.of() : combine(partials, reduced);
    Map<String, Object> result = new HashMap<>();
    for (ShardPlan.Param p : reduced) {
      Object initial = fixed.args().get(p.name());
      if (initial == null || p.role() == ShardPlan.Role.SUM) {
        result.put(p.name(), total.get(p.name()));
        continue;
      }
      Object folded = Array.newInstance(initial.getClass().getComponentType(), Array.getLength(initial));
      System.arraycopy(initial, 0, folded, 0, Array.getLength(initial));
      if (total.containsKey(p.name())) {
        Partials.foldInto(folded, total.get(p.name()), p.reduce());
      }
      result.put(p.name(), folded);
    }
    return result;
  }

  /** Each reduction's partials combined in the fixed tree, in order. */
  private static Map<String, Object> combine(List<Map<String, Object>> partials, List<ShardPlan.Param> reduced) {
    Map<String, Object> out = new HashMap<>();
    for (ShardPlan.Param p : reduced) {
      List<Object> each = new ArrayList<>();
      partials.forEach(m -> each.add(m.get(p.name())));
      out.put(p.name(), Partials.tree(each, p.reduce()));
    }
    return out;
  }
}
