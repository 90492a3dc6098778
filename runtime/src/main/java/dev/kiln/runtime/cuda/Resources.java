package dev.kiln.runtime.cuda;

import dev.kiln.runtime.KilnException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Reads class-path resources: a generated class's PTX and CUDA source, the {@code kiln/*.cuh} headers. */
final class Resources {
  private Resources() {}

  /** The resource's bytes, or null when there is none. */
  static byte[] bytes(ClassLoader loader, String path) {
    try (InputStream in = loader.getResourceAsStream(path)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      throw new KilnException("could not read the resource " + path + ": " + e.getMessage(), e);
    }
  }

  /** The resource as UTF-8 text, or null when there is none. */
  static String text(ClassLoader loader, String path) {
    byte[] b = bytes(loader, path);
    return b == null ? null : new String(b, StandardCharsets.UTF_8);
  }

  /** The resource from the first loader that has it, as text; null when none has. */
  static String text(String path, ClassLoader... loaders) {
    for (ClassLoader l : loaders) {
      if (l != null) {
        String t = text(l, path);
        if (t != null) {
          return t;
        }
      }
    }
    return null;
  }
}
