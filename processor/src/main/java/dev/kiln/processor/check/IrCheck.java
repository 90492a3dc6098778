package dev.kiln.processor.check;

import dev.kiln.processor.diag.Message;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.SourceRef;
import java.util.List;

/**
 * A check of one lowered grid operator. Each returns what it finds as data; the driver runs {@link
 * #ALL} on every grid operator it lowers and reports each finding (an error: the operator is then
 * not compiled). A new check implements this and joins {@link #ALL}.
 */
public interface IrCheck {
  /** The checks the driver runs, in the order their findings are reported. */
  List<IrCheck> ALL = List.of(RaceCheck.INSTANCE, OutputCheck.INSTANCE);

  List<Finding> check(OperatorIr.Grid op);

  /** Where a finding is: a statement of the source, or a parameter of the operator. */
  sealed interface Site {
    /** At the statement the IR element came from ({@code origin} null: the operator as a whole). */
    record Statement(SourceRef origin) implements Site {}

    /** At the operator's parameter at {@code position}. */
    record Parameter(int position) implements Site {}
  }

  /** One problem: where, the message, and the message's arguments. */
  record Finding(Site at, Message message, Object[] args) {}
}
