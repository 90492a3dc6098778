package dev.kiln.processor.fuzz;

/** Appends indented lines of Java source. */
final class SourceWriter {
  private final StringBuilder out = new StringBuilder();
  private int indent;

  SourceWriter(int indent) {
    this.indent = indent;
  }

  SourceWriter line(String text) {
    out.append("  ".repeat(indent)).append(text).append('\n');
    return this;
  }

  /** A line ending in {@code {}, then one more level of indentation. */
  SourceWriter open(String text) {
    line(text + " {");
    indent++;
    return this;
  }

  /** One level less, then {@code closing} (such as "}" or "} else {"). */
  SourceWriter close(String closing) {
    indent--;
    line(closing);
    if (closing.endsWith("{")) {
      indent++;
    }
    return this;
  }

  SourceWriter close() {
    return close("}");
  }

  @Override
  public String toString() {
    return out.toString();
  }
}
