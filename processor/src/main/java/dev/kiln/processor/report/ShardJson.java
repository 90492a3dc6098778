package dev.kiln.processor.report;

/** Writes a {@link ShardReport} as {@code META-INF/kiln/<package>/<Class>.shards.json}. */
public final class ShardJson {
  /** Format version; readers refuse other versions. */
  public static final int VERSION = 1;

  private ShardJson() {}

  public static String write(ShardReport report) {
    JsonWriter w = new JsonWriter();
    w.beginObject().field("version", VERSION).field("owner", report.owner()).beginArray("operators");
    for (ShardReport.Operator op : report.operators()) {
      w.beginObject().field("name", op.name()).field("kind", op.kind());
      if (op.plan() != null) {
        ShardReport.Plan p = op.plan();
        w.beginObject("shard")
            .field("dim", p.dim())
            .field("rowBytes", p.rowBytes())
            .field("rowWork", p.rowWork())
            .field("wholeBytes", p.wholeBytes())
            .beginArray("params");
        for (ShardReport.Role r : p.params()) {
          w.beginObject().field("name", r.name()).field("role", r.role());
          if (r.io() != null) {
            w.field("io", r.io()).field("type", r.type()).field("length", r.length());
          }
          if (r.reduce() != null) {
            w.field("reduce", r.reduce());
          }
          w.endObject();
        }
        w.endArray().endObject();
      }
      w.field("refusals", op.refusals());
      w.endObject();
    }
    return w.endArray().endObject().finish();
  }
}
