package dev.kiln.processor.report;

/** Placeholder until the report writer lands (replaced by the real writer in the same change set). */
public final class ReportJson {
  private ReportJson() {}

  public static String write(FusionReport r) {
    return "{}";
  }
}
