package dev.kiln.processor.check;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.processor.diag.Message;
import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Shape;
import dev.kiln.processor.ir.SourceRef;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The checks the driver runs on every grid operator ({@link IrCheck#ALL}), on IR built by hand:
 * each returns its findings as data, a race at the store's statement and an unwritten output at its
 * parameter; a clean operator has none. (Their messages on real sources are pinned to file and line
 * by the negative tests.)
 */
class IrCheckTest {
  private static final Shape N_SHAPE = new Shape("N", List.of(Poly.symbol("N")));
  private static final SourceRef STORE_SITE = new SourceRef() {};

  private final ExprFactory f = new ExprFactory();
  private final Param.Scalar n = new Param.Scalar("N", 0, ScalarType.INT, true);
  private final Param.Array x = new Param.Array("x", 1, ScalarType.FLOAT, N_SHAPE, ArrayRole.IN);
  private final Param.Array y = new Param.Array("y", 2, ScalarType.FLOAT, N_SHAPE, ArrayRole.OUT);
  private final Param.Array z = new Param.Array("z", 3, ScalarType.FLOAT, N_SHAPE, ArrayRole.OUT);

  @Test
  void aCopyHasNoFindings() {
    assertEquals(List.of(), findings(op(List.of(x, y), i -> i)));
  }

  @Test
  void aStoreEveryWorkerMakesToOneElementIsARaceAtItsStatement() {
    List<IrCheck.Finding> found = findings(op(List.of(x, y), i -> f.integral(ScalarType.INT, 0)));
    assertEquals(1, found.size(), found.toString());
    IrCheck.Finding race = found.get(0);
    assertEquals(Message.WRITE_RACE, race.message());
    assertEquals(new IrCheck.Site.Statement(STORE_SITE), race.at());
    assertEquals("y", race.args()[0]);
  }

  @Test
  void anOutputNoStatementWritesIsFoundAtItsParameter() {
    List<IrCheck.Finding> found = findings(op(List.of(x, y, z), i -> i));
    assertEquals(1, found.size(), found.toString());
    IrCheck.Finding unwritten = found.get(0);
    assertEquals(Message.OUT_NEVER_WRITTEN, unwritten.message());
    assertEquals(new IrCheck.Site.Parameter(3), unwritten.at());
    assertArrayEquals(new Object[] {"z", "copy"}, unwritten.args());
  }

  @Test
  void theDriverRunsTheRaceCheckThenTheOutputCheck() {
    assertEquals(List.of(RaceCheck.class, OutputCheck.class), IrCheck.ALL.stream().map(Object::getClass).toList());
    List<IrCheck.Finding> both = findings(op(List.of(x, y, z), i -> f.integral(ScalarType.INT, 0)));
    assertEquals(List.of(Message.WRITE_RACE, Message.OUT_NEVER_WRITTEN), both.stream().map(IrCheck.Finding::message).toList());
    assertTrue(RaceCheck.races(op(List.of(x, y), i -> i)).isEmpty());
  }

  /** {@code copy(N, x, y[, z])}: y[index(i)] = x[i] for every worker i. */
  private OperatorIr.Grid op(List<Param.Array> arrays, java.util.function.UnaryOperator<Expr> index) {
    Expr.Var i = f.newVar("i", ScalarType.INT, Expr.VarKind.GRID);
    List<Param> params = new ArrayList<>();
    params.add(n);
    params.addAll(arrays);
    Stmt store = new Stmt.Store(y, index.apply(i), f.load(x, i, f.trueValue(), 0), f.trueValue(), STORE_SITE);
    return new OperatorIr.Grid("t.Ops", "copy", params, List.of(new GridDim(i, n)), List.of(store));
  }

  private static List<IrCheck.Finding> findings(OperatorIr.Grid op) {
    List<IrCheck.Finding> out = new ArrayList<>();
    IrCheck.ALL.forEach(check -> out.addAll(check.check(op)));
    return out;
  }
}
