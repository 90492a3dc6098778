package dev.kiln.processor.frontend;

import dev.kiln.processor.ir.Expr;
import java.util.List;

/** A record value during lowering: its type and one IR value per component, in declaration order. */
record RecordValue(RecordType type, List<Expr> components) {
  RecordValue {
    components = List.copyOf(components);
  }

  /** The value of the component named {@code name}. */
  Expr component(String name) {
    return components.get(type.indexOf(name));
  }
}
