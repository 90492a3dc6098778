package dev.kiln.processor.report;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the report page shows in place of the names Kiln makes up for a backward pass's tensors and
 * calls ({@code adj$x$1}, {@code softmaxGrad$adj$x$2}, {@code softmax$adjoint#1}, {@code
 * softmax$dx#1}), with the name itself behind the page's toggle: {@code ∂x, part 1}, {@code adjoint
 * of softmax}, {@code gradient of x from softmax}. Names without a {@code $} are the user's and
 * stay as they are.
 */
final class ReadableNames {
  /** {@code [prefix$]adj$x$1}, {@code g$x$2} or {@code g$x}: (part of) the gradient of {@code x}. */
  private static final Pattern PART = Pattern.compile("(?:\\w+\\$)?(adj|g)\\$(\\w+?)(?:\\$(\\d+))?");
  /** {@code op$adjoint#1}, {@code op$adjoint2#1}: a call of the adjoint kernel of {@code op}. */
  private static final Pattern ADJOINT = Pattern.compile("(\\w+?)\\$adjoint\\d*#\\d+");
  /** {@code op$dx#1}: a call of the gather that sums the gradient of {@code op}'s input {@code x}. */
  private static final Pattern GATHER = Pattern.compile("(\\w+?)\\$d(\\w+?)#\\d+");
  /** {@code op$part#1}: another call Kiln made for {@code op}. */
  private static final Pattern CALL = Pattern.compile("(\\w+?)\\$(\\w+?)#\\d+");
  /** {@code op$t}: the temporary {@code t} of a composite {@code op} inlined into this one. */
  private static final Pattern NESTED = Pattern.compile("(\\w+?)\\$(\\w+)");

  private ReadableNames() {}

  /** Whether {@code name} is one Kiln made up (it has a {@code $}). */
  static boolean internal(String name) {
    return name != null && name.indexOf('$') >= 0;
  }

  /** The readable form of {@code name}; {@code name} itself when it is not internal or not one of the forms above. */
  static String of(String name) {
    if (!internal(name)) {
      return name;
    }
    Matcher m = PART.matcher(name);
    if (m.matches()) {
      return "\u2202" + m.group(2) + (m.group(3) == null || m.group(1).equals("g") ? "" : ", part " + m.group(3));
    }
    m = ADJOINT.matcher(name);
    if (m.matches()) {
      return "adjoint of " + m.group(1);
    }
    m = GATHER.matcher(name);
    if (m.matches()) {
      return "gradient of " + m.group(2) + " from " + m.group(1);
    }
    m = CALL.matcher(name);
    if (m.matches()) {
      return m.group(2) + " of " + m.group(1);
    }
    m = NESTED.matcher(name);
    if (m.matches()) {
      return m.group(2) + " (in " + m.group(1) + ")";
    }
    return name;
  }
}
