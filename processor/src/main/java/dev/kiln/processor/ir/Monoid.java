package dev.kiln.processor.ir;

import java.util.List;

/**
 * A user monoid of {@code @Reduce}: a Java record's combining method, inlined into IR once per
 * operator. The record's value is its components (one IR value each); {@code combined} computes
 * {@code left.method(right)} from the variables {@code left} and {@code right}, which nothing else
 * binds, and {@code identity} is the record's {@code @Identity} value, a constant per component.
 *
 * @param record the record's simple name, for listings and messages
 * @param method the combining method's name
 * @param components the components' names, in declaration order
 * @param gradient the record's {@code @ElementGradient} method, inlined; null when it has none
 */
public record Monoid(
    String record,
    String method,
    List<String> components,
    List<Expr.Var> left,
    List<Expr.Var> right,
    List<Expr> combined,
    List<Expr.Const> identity,
    Gradient gradient) {
  public Monoid {
    components = List.copyOf(components);
    left = List.copyOf(left);
    right = List.copyOf(right);
    combined = List.copyOf(combined);
    identity = List.copyOf(identity);
    int n = components.size();
    if (left.size() != n || right.size() != n || combined.size() != n || identity.size() != n) {
      throw new IllegalArgumentException("a monoid needs one left, right, combined and identity value per component");
    }
    if (gradient != null && gradient.result().size() != n) {
      throw new IllegalArgumentException("a monoid's gradient needs one result per component");
    }
  }

  /**
   * The record's {@code @ElementGradient} method {@code method(total, totalGradient, element)},
   * inlined on variables of its own: {@code result} gives, per component, the gradient with
   * respect to {@code element}'s component from the variables alone.
   */
  public record Gradient(
      String method, List<Expr.Var> total, List<Expr.Var> totalGradient, List<Expr.Var> element, List<Expr> result) {
    public Gradient {
      total = List.copyOf(total);
      totalGradient = List.copyOf(totalGradient);
      element = List.copyOf(element);
      result = List.copyOf(result);
      int n = result.size();
      if (total.size() != n || totalGradient.size() != n || element.size() != n) {
        throw new IllegalArgumentException("a monoid's gradient needs one variable of each operand per component");
      }
    }
  }

  /** The number of components. */
  public int size() {
    return components.size();
  }

  /** {@code Record.method}, as listings print it. */
  @Override
  public String toString() {
    return record + "." + method;
  }
}
