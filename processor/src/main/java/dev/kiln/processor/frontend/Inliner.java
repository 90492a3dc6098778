package dev.kiln.processor.frontend;

import com.sun.source.tree.Tree;
import dev.kiln.processor.ir.OperatorIr;
import javax.lang.model.element.ExecutableElement;

/** Gives the IR of an elementwise operator that a body calls, lowering it first if needed. */
interface Inliner {
  /**
   * @throws dev.kiln.processor.diag.KilnDiagnostic if the operator is not elementwise, is
   *     recursive, or is compiled elsewhere and its IR cannot be read from the class path
   */
  OperatorIr elementwise(ExecutableElement operator, Tree callSite);
}
