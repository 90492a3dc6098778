package dev.kiln.processor.fuzz;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The names visible at a point of a generated operator body: parameters, locals, and the int
 * variables (grid and loop variables) that range over {@code [0, dim)} of some {@code @Dim}, which
 * index expressions are built from. Blocks nest; a name is never declared twice in one method (Java
 * forbids shadowing a local, and it keeps generated sources easy to read).
 */
final class Scope {
  /**
   * A visible variable. {@code range} is the {@code @Dim} a grid or loop variable ranges over, or
   * null; {@code assignable} is false for parameters and loop variables.
   */
  record Var(String name, FuzzType type, boolean assignable, String range) {}

  /** Local names the generator likes, some of them also used by Kiln's generated code. */
  private static final String[] LOCAL_NAMES = {
    "t", "t2", "e", "v", "w", "acc", "s", "lo", "hi", "n", "out", "chunk", "chunks", "tmp", "sum",
    "m", "max", "exp", "result", "left", "right", "g", "u", "z", "h", "d", "q", "r2", "y2", "i"
  };

  private final Deque<List<Var>> blocks = new ArrayDeque<>();
  private final Set<String> declared = new HashSet<>();
  private int counter;

  /** Input arrays that may be read here, or empty where no array may be read. */
  List<OperatorSpec.Array> readable = List.of();

  /** The worker's row-major index local over the whole grid ({@code int p = ...}), or null. */
  String rowLocal;

  /** The grid's dimensions and variables, in order, when {@link #rowLocal} is set. */
  List<String> rowDims = List.of();

  List<String> rowVars = List.of();

  Scope() {
    blocks.push(new ArrayList<>());
  }

  void push() {
    blocks.push(new ArrayList<>());
  }

  void pop() {
    blocks.pop();
  }

  /** Reserves a name without making it visible (class members, operator names). */
  void reserve(String name) {
    declared.add(name);
  }

  void declare(Var v) {
    declared.add(v.name());
    blocks.peek().add(v);
  }

  boolean isDeclared(String name) {
    return declared.contains(name);
  }

  /** A name not yet used in this method: from the pool of likely names, or numbered. */
  String fresh(SplittableRandom r, String... preferred) {
    for (int attempt = 0; attempt < 6; attempt++) {
      String[] pool = preferred.length > 0 && r.nextBoolean() ? preferred : LOCAL_NAMES;
      String name = pool[r.nextInt(pool.length)];
      if (!declared.contains(name)) {
        declared.add(name);
        return name;
      }
    }
    String name;
    do {
      name = "v" + counter++;
    } while (declared.contains(name));
    declared.add(name);
    return name;
  }

  List<Var> visible() {
    List<Var> all = new ArrayList<>();
    blocks.forEach(all::addAll);
    return all;
  }

  List<Var> ofType(FuzzType t) {
    return visible().stream().filter(v -> v.type() == t).toList();
  }

  List<Var> assignable() {
    return visible().stream().filter(Var::assignable).toList();
  }

  /** The variables ranging over {@code [0, dim)}. */
  List<String> rangingOver(String dim) {
    return visible().stream().filter(v -> dim.equals(v.range())).map(Var::name).toList();
  }
}
