package dev.kiln.processor.frontend;

import com.sun.source.tree.Tree;
import dev.kiln.processor.ir.OperatorIr;
import javax.lang.model.element.ExecutableElement;

/**
 * Gives the IR of an elementwise operator that a body calls, lowering it first if needed, and the
 * sources of the record methods a body calls, which the front end inlines.
 */
interface Inliner extends RecordType.FrontEndSources {
  /**
   * @throws dev.kiln.processor.diag.KilnDiagnostic if the operator is not elementwise, is
   *     recursive, or is compiled elsewhere and its IR cannot be read from the class path
   */
  OperatorIr.Elementwise elementwise(ExecutableElement operator, Tree callSite);

  /** The source of a method (its tree and compilation unit), or null when it has no tree here. */
  OperatorSource source(ExecutableElement method);
}
