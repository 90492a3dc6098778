package dev.kiln.processor.ir.io;

import dev.kiln.processor.ir.OperatorIr;
import java.util.List;

/**
 * Writes operators' IR as versioned, line-oriented text that {@link IrReader} reads back: the
 * resource {@code <package>/<Class>.kir} ({@link IrResource}) through which an operator compiled in one
 * module is inlined into callers compiled in another.
 *
 * <p>The first line is {@value #HEADER}. Then {@code operators <count>} and one block per operator:
 *
 * <pre>
 * operator ir.Cells sigmoid elementwise
 *   param scalar x 0 f32
 *   result-type f32
 *   n0 = scalar f32 x
 *   n1 = neg f32 n0
 *   n2 = call f32 exp n1
 *   n3 = const f32 0x1.0p0
 *   n4 = add f32 n3 n2
 *   n5 = div f32 n3 n4
 *   result n5
 * end
 * </pre>
 *
 * <p>Parameters ({@code param scalar <name> <position> <type> [dim]}, {@code param array <name>
 * <position> in|out|reduce <type> [<extents>] "<shape text>"}, followed for a component of an array
 * of records by {@code record <parameter> <record class> <component> <index> <count>}; the
 * components share their parameter's position), then every expression node once,
 * numbered {@code n0, n1, ...} after its operands, with its type ({@code @k}: the loop scope of a
 * load or trapping division); then {@code grid <var> <extent>} (or {@code grid <var> size [4*H]}) per {@code @Parallel} loop,
 * {@code name <node> <local>} for source names, {@code result <node>}, a line per user monoid the
 * body combines with ({@code monoid <k> <record> <method> <size> components <names> left <vars>
 * right <vars> combined <nodes> identity <nodes>}, and {@code gradient <method> total <vars> dtotal
 * <vars> element <vars> result <nodes>} where the record has an {@code @ElementGradient} method;
 * added while the format is unreleased, so still version 1), and the statements: {@code
 * store <array> <index> <value> if <guard>}, {@code accumulate sum|product|max|min ...}, {@code
 * combine <monoid k> <record parameter> <component arrays> <index> <values> if <guard>}, and
 * <code>loop &lt;id&gt; &lt;index&gt; &lt;lo&gt; &lt;hi&gt; step &lt;k&gt; if &lt;guard&gt; &#123;</code>
 * followed by {@code carry <phi> init <n> next <n> result <var>} lines and the loop's body, closed
 * by a line <code>&#125;</code>. Floating literals are written in Java's hexadecimal form, so they
 * read back bit for bit. Statement origins are not written. Lines starting with {@code #} are
 * comments.
 */
public final class IrWriter {
  /** The version of the format this Kiln writes and reads. */
  public static final int VERSION = 1;

  /** The first line of every IR text. */
  public static final String HEADER = "kiln-ir " + VERSION;

  private IrWriter() {}

  /** The IR text of {@code operators}, in their order. */
  public static String write(List<OperatorIr> operators) {
    StringBuilder out = new StringBuilder(HEADER).append('\n');
    out.append("# Kiln IR, written by the Kiln processor and read back when another module calls these\n")
        .append("# operators. One expression node per line, operands first; statements refer to nodes.\n");
    out.append("operators ").append(operators.size()).append('\n');
    for (OperatorIr op : operators) {
      out.append('\n');
      new OperatorWriter(out).write(op);
    }
    return out.toString();
  }
}
