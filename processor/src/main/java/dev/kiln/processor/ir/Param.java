package dev.kiln.processor.ir;

/** A parameter of an operator, in declaration order. */
public sealed interface Param permits Param.Scalar, Param.Array {
  String name();

  int position();

  /**
   * A scalar parameter.
   *
   * @param dim whether it is a {@code @Dim} size
   */
  record Scalar(String name, int position, ScalarType type, boolean dim) implements Param {}

  /**
   * An array parameter with its shape and role; {@code record} is not null when it holds one
   * component of a parameter that is an array of records in the source ({@code MeanVar[] s} is the
   * arrays {@code s_n}, {@code s_mean}, {@code s_m2}).
   */
  record Array(String name, int position, ScalarType elementType, Shape shape, ArrayRole role, RecordSlot record)
      implements Param {
    /** An array of numbers in the source. */
    public Array(String name, int position, ScalarType elementType, Shape shape, ArrayRole role) {
      this(name, position, elementType, shape, role, null);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /**
   * Where a component's array comes from: the source's parameter {@code param}, an array of the
   * record {@code recordClass} (its package, a dot, then its simple name after those of its
   * enclosing classes, each followed by {@code $}: {@code p.Ops$MeanVar}), whose component {@code
   * component} is the {@code index}-th of {@code count}.
   */
  record RecordSlot(String param, String recordClass, String component, int index, int count) {
    /** The package of the record, "" for the unnamed one. */
    public String recordPackage() {
      int dot = recordClass.lastIndexOf('.');
      return dot < 0 ? "" : recordClass.substring(0, dot);
    }

    /** The simple names of the record's enclosing classes, outermost first, then its own. */
    public java.util.List<String> recordNames() {
      return java.util.List.of(recordClass.substring(recordClass.lastIndexOf('.') + 1).split("\\$"));
    }
  }
}
