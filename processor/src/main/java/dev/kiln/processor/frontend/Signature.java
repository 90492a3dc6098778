package dev.kiln.processor.frontend;

import dev.kiln.processor.ir.OperatorKind;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ScalarType;
import java.util.List;
import javax.lang.model.element.TypeElement;

/**
 * An operator's kind, parameters and (for elementwise operators) result type. A {@code @Reduce}
 * array of records is in {@code params} as one array per component ({@link RecordArray}).
 */
public record Signature(OperatorKind kind, List<Param> params, ScalarType resultType, List<RecordArray> recordArrays) {
  public Signature {
    params = List.copyOf(params);
    recordArrays = List.copyOf(recordArrays);
  }

  public Signature(OperatorKind kind, List<Param> params, ScalarType resultType) {
    this(kind, params, resultType, List.of());
  }

  /**
   * A {@code @Out @Reduce R[] name} parameter of a record type {@code R}: its components' arrays,
   * named {@code <name>_<component>}, in the record's order.
   */
  public record RecordArray(String name, int position, TypeElement record, List<Param.Array> components) {
    public RecordArray {
      components = List.copyOf(components);
    }

    /** In, out or reduce: every component's role. */
    public dev.kiln.processor.ir.ArrayRole role() {
      return components.get(0).role();
    }
  }

  public Param param(String name) {
    for (Param p : params) {
      if (p.name().equals(name)) {
        return p;
      }
    }
    return null;
  }

  /** The record array named {@code name}, or null. */
  public RecordArray recordArray(String name) {
    for (RecordArray r : recordArrays) {
      if (r.name().equals(name)) {
        return r;
      }
    }
    return null;
  }
}
