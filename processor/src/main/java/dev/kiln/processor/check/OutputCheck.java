package dev.kiln.processor.check;

import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Finds {@code @Out} parameters that no statement writes. */
public final class OutputCheck {
  private OutputCheck() {}

  public static List<Param.Array> neverWritten(OperatorIr.Grid op) {
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
      } else if (s instanceof Stmt.Loop loop) {
        collect(loop.body(), written);
      }
    }
  }
}
