package dev.kiln.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The test-side JSON reader accepts exactly JSON. */
class JsonTest {
  @Test
  void readsEveryKindOfValue() {
    Object v = Json.parse(" {\"a\": [1, -2, 0, 3.5, -1e3, 2E+2], \"b\": {\"t\": true, \"f\": false, \"n\": null},"
        + " \"s\": \"x\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\", \"e\": [], \"o\": {}}\n");
    Map<?, ?> m = (Map<?, ?>) v;
    assertEquals(List.of("a", "b", "s", "e", "o"), List.copyOf(m.keySet()), "key order is kept");
    assertEquals(List.of(1L, -2L, 0L, 3.5, -1000.0, 200.0), m.get("a"));
    Map<?, ?> b = (Map<?, ?>) m.get("b");
    assertEquals(Boolean.TRUE, b.get("t"));
    assertEquals(Boolean.FALSE, b.get("f"));
    assertSame(Json.NULL, b.get("n"));
    assertEquals("x\"\\/\b\f\n\r\t\u00e9", m.get("s"));
    assertEquals(List.of(), m.get("e"));
    assertEquals(Map.of(), m.get("o"));
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "", " ", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "{\"a\":1,\"a\":2}", "01", "-", "1.", ".5", "1e",
    "+1", "tru", "nul", "\"abc", "\"a\nb\"", "\"\\x\"", "\"\\u12g4\"", "{} {}", "[1] x", "// c\n{}", "'a'", "NaN"
  })
  void refusesWhatIsNotJson(String text) {
    assertThrows(IllegalArgumentException.class, () -> Json.parse(text));
  }

  /** Cases the processor's own reader refused before the two readers became this one. */
  @ParameterizedTest
  @ValueSource(strings = {"{\"a\":1 \"b\":2}", "\"tab\there\"", "\"\\u12\"", "[", "\"open"})
  void refusesMore(String text) {
    assertThrows(IllegalArgumentException.class, () -> Json.parse(text));
  }
}
