package dev.kiln.processor.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * An operator is one of three sealed kinds, each a record holding only what its kind has (issue
 * 16): a map has its result and no loops, a grid its loops and body and no result, a composite its
 * parameters. No kind carries a field another kind fills, so none is null by kind.
 */
class OperatorKindsTest {
  @Test
  void theKindsAreSealedRecords() {
    assertTrue(OperatorIr.class.isSealed());
    Set<String> permitted = Arrays.stream(OperatorIr.class.getPermittedSubclasses())
        .map(Class::getSimpleName).collect(Collectors.toCollection(TreeSet::new));
    assertEquals(Set.of("Composite", "Elementwise", "Grid"), permitted);
    for (Class<?> kind : OperatorIr.class.getPermittedSubclasses()) {
      assertTrue(kind.isRecord(), kind + " is a record");
    }
  }

  @Test
  void eachKindHasOnlyItsOwnComponents() {
    assertEquals(List.of("owner", "name", "params", "resultType", "result", "names"),
        components(OperatorIr.Elementwise.class));
    assertEquals(List.of("owner", "name", "params", "grid", "body", "names", "finish"),
        components(OperatorIr.Grid.class));
    assertEquals(List.of("owner", "name", "params"), components(OperatorIr.Composite.class));
  }

  @Test
  void aMapWithoutAResultIsRefused() {
    ExprFactory f = new ExprFactory();
    Param.Scalar x = new Param.Scalar("x", 0, ScalarType.FLOAT, false);
    Expr result = f.scalar(x);
    assertThrows(NullPointerException.class,
        () -> new OperatorIr.Elementwise("t.Ops", "id", List.of(x), ScalarType.FLOAT, null, Map.of()));
    assertThrows(NullPointerException.class,
        () -> new OperatorIr.Elementwise("t.Ops", "id", List.of(x), null, result, Map.of()));
    OperatorIr op = new OperatorIr.Elementwise("t.Ops", "id", List.of(x), ScalarType.FLOAT, result, Map.of());
    assertEquals(OperatorKind.ELEMENTWISE, op.kind());
  }

  @Test
  void eachKindSaysWhichItIs() {
    OperatorIr grid = new OperatorIr.Grid("t.Ops", "g", List.of(), List.of(), List.of());
    OperatorIr composite = new OperatorIr.Composite("t.Ops", "c", List.of());
    assertEquals(OperatorKind.GRID, grid.kind());
    assertEquals(OperatorKind.COMPOSITE, composite.kind());
    assertEquals(Map.of(), composite.names());
  }

  private static List<String> components(Class<? extends Record> kind) {
    return Arrays.stream(kind.getRecordComponents()).map(RecordComponent::getName).toList();
  }
}
