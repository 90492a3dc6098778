package dev.kiln.processor.ir.io;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The version of this Kiln, from the build's filtered {@code kiln-version.properties}. */
final class KilnVersion {
  private static final String VERSION = load();

  private KilnVersion() {}

  /** Like {@code 0.1.0}, or null when the build did not record it (a build outside Maven). */
  static String get() {
    return VERSION;
  }

  /** {@code " (version 0.1.0)"}, or nothing when unknown; for messages. */
  static String suffix() {
    return VERSION == null ? "" : " (version " + VERSION + ")";
  }

  private static String load() {
    try (InputStream in = KilnVersion.class.getResourceAsStream("kiln-version.properties")) {
      if (in == null) {
        return null;
      }
      Properties p = new Properties();
      p.load(in);
      String v = p.getProperty("version");
      return v == null || v.isBlank() || v.startsWith("${") ? null : v.strip();
    } catch (IOException e) {
      return null;
    }
  }
}
