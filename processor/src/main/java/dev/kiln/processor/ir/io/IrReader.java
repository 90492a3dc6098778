package dev.kiln.processor.ir.io;

import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.OperatorKind;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the text {@link IrWriter} writes back into {@link OperatorIr}s, building every node in the
 * caller's {@link ExprFactory}: nodes are interned there (a read node is the very node the caller's
 * own lowering makes for the same expression), variables are made with {@link
 * ExprFactory#newVar}, and each operator starts a variable namespace with {@link
 * ExprFactory#startOperator()}, as the front end does. Statements read back have no origin.
 *
 * <p>Text of another format version is refused with an {@link IrVersionException}; anything else
 * malformed, truncated or inconsistent with an {@link IrFormatException} naming the line.
 */
public final class IrReader {
  private static final Pattern HEADER = Pattern.compile("kiln-ir (\\d{1,9})");

  private final ExprFactory factory;

  /** A reader that builds nodes in {@code factory}. */
  public IrReader(ExprFactory factory) {
    this.factory = factory;
  }

  /** The operators of {@code text}, in the order written. */
  public List<OperatorIr> read(String text) throws IrFormatException {
    List<String> physical = List.of(text.split("\r?\n", -1));
    header(physical.get(0));
    List<IrSyntax.Line> lines = IrSyntax.lines(physical, 1);
    int end = physical.size();
    if (lines.isEmpty()) {
      throw new IrFormatException(end, "unexpected end of input: expected 'operators <count>' (is the file truncated?)");
    }
    Cursor first = new Cursor(lines.get(0));
    first.keyword("operators");
    long count = first.integer("the number of operators");
    first.end();
    List<OperatorIr> out = new ArrayList<>();
    int i = 1;
    while (i < lines.size()) {
      Cursor c = new Cursor(lines.get(i++));
      if (out.size() == count) {
        throw c.error("unexpected line after the last of the " + count + " operators announced");
      }
      c.keyword("operator");
      String owner = c.text("the operator's class");
      String name = c.text("the operator's name");
      OperatorKind kind = c.choice(OperatorKind.class, "operator kind (elementwise or grid)");
      if (kind == OperatorKind.COMPOSITE) {
        throw c.error("unknown operator kind (elementwise or grid) 'composite': composites are not written as IR");
      }
      c.end();
      factory.startOperator();
      OperatorReader op = new OperatorReader(factory, owner, name, kind, c.lineNumber());
      boolean closed = false;
      while (!closed && i < lines.size()) {
        closed = op.line(new Cursor(lines.get(i++)));
      }
      if (!closed) {
        throw new IrFormatException(end, "unexpected end of input: operator '" + name
            + "' (line " + c.lineNumber() + ") has no 'end' (is the file truncated?)");
      }
      out.add(op.result());
    }
    if (out.size() != count) {
      throw new IrFormatException(end, "unexpected end of input: " + count + " operators announced, "
          + out.size() + " found (is the file truncated?)");
    }
    return out;
  }

  private static void header(String line) throws IrFormatException {
    String s = line.strip();
    if (s.startsWith("\uFEFF")) {
      s = s.substring(1);
    }
    Matcher m = HEADER.matcher(s);
    if (!m.matches()) {
      String shown = s.length() > 40 ? s.substring(0, 40) + "..." : s;
      throw new IrFormatException(1, "not Kiln IR: the first line must be '" + IrWriter.HEADER
          + "', found '" + shown + "'");
    }
    int version = Integer.parseInt(m.group(1));
    if (version != IrWriter.VERSION) {
      throw new IrVersionException(version);
    }
  }
}
