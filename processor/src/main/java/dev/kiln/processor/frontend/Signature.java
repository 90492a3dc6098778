package dev.kiln.processor.frontend;

import dev.kiln.processor.ir.OperatorKind;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ScalarType;
import java.util.List;

/** An operator's kind, parameters and (for elementwise operators) result type. */
public record Signature(OperatorKind kind, List<Param> params, ScalarType resultType) {
  public Param param(String name) {
    for (Param p : params) {
      if (p.name().equals(name)) {
        return p;
      }
    }
    return null;
  }
}
