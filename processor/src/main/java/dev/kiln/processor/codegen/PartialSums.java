package dev.kiln.processor.codegen;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import dev.kiln.processor.ir.analysis.LaneNest;

/**
 * The order in which a CPU kernel adds a sum that no source fixes ({@link Stmt.Carried#anyOrder}: a
 * derived gradient's adjoint sums): sixteen partial sums, the loop's {@code i}-th term (counted
 * from the loop's first index) added to partial {@code i % 16}, each partial in index order; after
 * the loop the partials are combined in a fixed tree ({@code UnorderedSums.total} in the runtime)
 * and added to (or, for {@code acc - t}, subtracted from) the initial value.
 *
 * <p>The scalar kernel keeps the partials in an array; a SIMD kernel keeps them in one to four
 * vectors (16, 8 or 4 lanes) and so adds a vector of terms with one instruction where a sum kept in
 * index order adds them one by one. Every form gives the same floats, in any chunking of the grid.
 * The CUDA kernels add these sums as they add every sum (see their writers).
 *
 * <p>A sum takes this order only where nothing else in its loop reads it and its loop steps by 1;
 * else it keeps index order, in every form alike (the rule below decides from the IR alone).
 */
public final class PartialSums {
  private PartialSums() {}

  /** How many partial sums. */
  public static final int PARTS = 16;

  /** The runtime class that combines the partials ({@code UnorderedSums.total}). */
  public static final ClassName UNORDERED_SUMS = ClassName.get("dev.kiln.runtime.cpu", "UnorderedSums");

  /** A sum kept in partials: {@code term} is what one iteration adds, or subtracts when {@code subtract}. */
  public record Sum(Stmt.Carried carried, Expr term, boolean subtract) {
    /** The Java statement adding iteration {@code index}'s {@code term} to its partial in the array {@code parts}. */
    public CodeBlock addTerm(String parts, String index, String first, CodeBlock term) {
      return CodeBlock.builder().addStatement("$N[($N - $N) & $L] += $L", parts, index, first, PARTS - 1, term).build();
    }

    /** The Java statement adding (or subtracting) the total of the array {@code parts} to the sum {@code acc}. */
    public CodeBlock addTotal(String acc, String parts) {
      return CodeBlock.builder()
          .addStatement("$N = $N $L $T.total($N)", acc, acc, subtract ? "-" : "+", UNORDERED_SUMS, parts).build();
    }
  }

  /**
   * {@code c}'s sum as partials, or null where {@code c} keeps index order. A lane nest's outer loop
   * (its lanes' partial sums added in lane order, {@link LaneNest}) keeps its order even where a
   * derived gradient marks the sum "any order": the SIMD kernels add the lanes in that order
   * (LaneSums), so the scalar kernel must too for the same floats; and its few terms gain nothing
   * from partials.
   */
  public static Sum of(Stmt.Loop l, Stmt.Carried c) {
    if (!c.anyOrder() || l.step() != 1 || l.index().type() != ScalarType.INT || c.phi().type() != ScalarType.FLOAT
        || !(c.next() instanceof Expr.Binary b) || b.type() != ScalarType.FLOAT || LaneNest.match(l) != null) {
      return null;
    }
    Expr phi = c.phi();
    Sum sum;
    if (b.op() == BinaryOp.ADD && b.left() == phi && !b.right().dependsOn(phi)) {
      sum = new Sum(c, b.right(), false);
    } else if (b.op() == BinaryOp.ADD && b.right() == phi && !b.left().dependsOn(phi)) {
      sum = new Sum(c, b.left(), false);
    } else if (b.op() == BinaryOp.SUB && b.left() == phi && !b.right().dependsOn(phi)) {
      sum = new Sum(c, b.right(), true);
    } else {
      return null;
    }
    for (Stmt s : l.body()) {
      for (Expr e : StmtWalk.exprs(s)) {
        if (e.dependsOn(phi)) {
          return null;
        }
      }
    }
    for (Stmt.Carried other : l.carried()) {
      if (other != c && other.next().dependsOn(phi)) {
        return null;
      }
    }
    return sum;
  }
}
