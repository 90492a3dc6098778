package dev.kiln.processor.check;

import dev.kiln.processor.diag.Message;
import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Finds {@code @Out} parameters that no statement writes (KILN010, at the parameter). */
public final class OutputCheck implements IrCheck {
  static final OutputCheck INSTANCE = new OutputCheck();

  private OutputCheck() {}

  @Override
  public List<Finding> check(OperatorIr.Grid op) {
    List<Finding> out = new ArrayList<>();
    Set<String> reported = new HashSet<>();
    for (Param.Array a : neverWritten(op)) {
      // an array of records once, under its source name, though each of its components is unwritten
      String name = a.record() == null ? a.name() : a.record().param();
      if (reported.add(name)) {
        out.add(new Finding(new Site.Parameter(a.position()), Message.OUT_NEVER_WRITTEN, new Object[] {name, op.name()}));
      }
    }
    return out;
  }

  static List<Param.Array> neverWritten(OperatorIr.Grid op) {
    Set<Param.Array> written = new HashSet<>();
    collect(op.body(), written);
    List<Param.Array> missing = new ArrayList<>();
    for (Param.Array a : op.arrays()) {
      if (a.role() != ArrayRole.IN && !written.contains(a)) {
        missing.add(a);
      }
    }
    return missing;
  }

  private static void collect(List<Stmt> body, Set<Param.Array> written) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st) {
        written.add(st.array());
      } else if (s instanceof Stmt.Accumulate acc) {
        written.add(acc.array());
      } else if (s instanceof Stmt.Combine c) {
        written.addAll(c.arrays());
      } else if (s instanceof Stmt.Loop loop) {
        collect(loop.body(), written);
      }
    }
  }
}
