package dev.kiln.processor.frontend;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The mutable state of lowering one operator body: the locals in scope with their SSA values, the
 * path condition, the current loop scope and the statement list being filled.
 */
final class LoweringState {
  final ExprFactory f;
  final Signature signature;
  final NameResolver names;
  final Inliner inliner;
  final BoundsCheck bounds;

  LinkedHashMap<String, Local> env = new LinkedHashMap<>();
  Expr path;
  int scope;
  List<Stmt> out = new ArrayList<>();
  final Map<Expr, String> exprNames = new HashMap<>();
  int loops;

  LoweringState(ExprFactory f, Signature signature, NameResolver names, Inliner inliner) {
    this.f = f;
    this.signature = signature;
    this.names = names;
    this.inliner = inliner;
    this.bounds =
        new BoundsCheck(
            signature.params().stream()
                .filter(p -> p instanceof dev.kiln.processor.ir.Param.Scalar s && s.dim())
                .map(dev.kiln.processor.ir.Param::name)
                .collect(java.util.stream.Collectors.toSet()));
    this.path = f.trueValue();
  }

  /** Runs {@code body} with the path condition narrowed by {@code cond}. */
  <T> T underCondition(Expr cond, Supplier<T> body) {
    Expr saved = path;
    path = f.binary(BinaryOp.LAND, path, cond, scope);
    try {
      return body.get();
    } finally {
      path = saved;
    }
  }

  /** Names the value of a source local, for printing and generated code. */
  void name(Expr value, String local) {
    if (!value.operands().isEmpty()) {
      exprNames.putIfAbsent(value, local);
    }
  }
}
