package dev.kiln.processor.report;

/** Placeholder until the report writer lands. */
public final class ReportHtml {
  private ReportHtml() {}

  public static String write(FusionReport r) {
    return "<html></html>";
  }
}
