package dev.kiln.tests.fusion;

import dev.kiln.testing.Json;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** The processor's resources for a class of composites, read with the class loader. */
final class FusionResources {
  private FusionResources() {}

  /** {@code META-INF/kiln/<package path>/<Class><suffix>} as text. */
  static String text(Class<?> owner, String suffix) {
    String path = "META-INF/kiln/" + owner.getName().replace('.', '/') + suffix;
    try (InputStream in = owner.getClassLoader().getResourceAsStream(path)) {
      assertNotNull(in, path + " is not on the class path");
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The parsed {@code <Class>.fusion.json}. */
  static Map<String, Object> report(Class<?> owner) {
    return map(Json.parse(text(owner, ".fusion.json")), owner.getSimpleName() + ".fusion.json");
  }

  /** The report's entry for one composite. */
  static Map<String, Object> operator(Class<?> owner, String name) {
    Map<String, Object> report = report(owner);
    for (Object o : list(report, "operators")) {
      Map<String, Object> op = map(o, "an operator");
      if (name.equals(op.get("name"))) {
        return op;
      }
    }
    return fail(owner.getSimpleName() + ".fusion.json has no operator named " + name);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object o, String what) {
    if (!(o instanceof Map)) {
      fail(what + " is not a JSON object: " + o);
    }
    return (Map<String, Object>) o;
  }

  /** {@code object[key]}, which must be an array. */
  @SuppressWarnings("unchecked")
  static List<Object> list(Map<String, Object> object, String key) {
    Object v = object.get(key);
    if (!(v instanceof List)) {
      fail("\"" + key + "\" is missing or not an array in " + object.keySet());
    }
    return (List<Object>) v;
  }

  /** {@code object[key]}, which must be an array of strings. */
  static List<String> strings(Map<String, Object> object, String key) {
    List<Object> l = list(object, key);
    for (Object o : l) {
      if (!(o instanceof String)) {
        fail("\"" + key + "\" holds a non-string " + o);
      }
    }
    return l.stream().map(String.class::cast).toList();
  }

  /** {@code object[key]}, which must be a string. */
  static String string(Map<String, Object> object, String key) {
    Object v = object.get(key);
    if (!(v instanceof String s)) {
      return fail("\"" + key + "\" is missing or not a string in " + object.keySet());
    }
    return s;
  }
}
