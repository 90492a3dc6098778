package dev.kiln.processor.report;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The test reader is strict, so a lenient writer cannot pass the JSON tests by accident. */
class JsonReaderTest {
  @Test
  void readsEveryKindOfValue() {
    Object v = JsonReader.parse(" {\"a\": [1, -2.5e3, true, false, null, \"x\\u00e9\\n\\/\"], \"b\": {}} ");
    assertThat(v).isEqualTo(Map.of("a", java.util.Arrays.asList(1L, new BigDecimal("-2.5e3"), true, false, null, "xé\n/"), "b", Map.of()));
    assertThat(JsonReader.parse("[]")).isEqualTo(List.of());
  }

  @ParameterizedTest
  @ValueSource(strings = {"[1,]", "{\"a\":1,}", "{\"a\":1 \"b\":2}", "\"tab\there\"", "\"\\x\"", "\"\\u12\"", "01", "[1] x",
      "{\"a\":1,\"a\":2}", "{a:1}", "'s'", "tru", "", "[", "\"open"})
  void refusesMalformedText(String text) {
    assertThrows(IllegalArgumentException.class, () -> JsonReader.parse(text));
  }
}
