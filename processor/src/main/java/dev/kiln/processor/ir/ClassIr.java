package dev.kiln.processor.ir;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One class's operators as the front end lowered them, complete: every operator, and each
 * composite's body ({@link CompositeIr}), so that no later stage asks the front end for anything.
 *
 * @param owner the fully qualified name of the class
 * @param operators its operators, in declaration order
 * @param composites each composite operator's body, by the operator's name
 */
public record ClassIr(String owner, List<OperatorIr> operators, Map<String, CompositeIr> composites) {
  public ClassIr {
    operators = List.copyOf(operators);
    composites = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(composites));
  }

  /** The body of {@code op}, a composite operator of this class. */
  public CompositeIr composite(OperatorIr.Composite op) {
    CompositeIr c = composites.get(op.name());
    if (c == null) {
      throw new IllegalArgumentException(op.name() + " is no composite operator of " + owner);
    }
    return c;
  }
}
