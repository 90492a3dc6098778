package dev.kiln.processor.report;

import static com.google.common.truth.Truth.assertThat;

import dev.kiln.testing.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON resource: parsed back with a strict reader, its members and values checked. */
class ReportJsonTest {
  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object o) {
    assertThat(o).isInstanceOf(Map.class);
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> array(Object o) {
    assertThat(o).isInstanceOf(List.class);
    return (List<Object>) o;
  }

  private static Map<String, Object> onlyOperator(String json) {
    Map<String, Object> top = object(Json.parse(json));
    List<Object> operators = array(top.get("operators"));
    assertThat(operators).hasSize(1);
    return object(operators.get(0));
  }

  @Test
  void lstmHasEveryMemberWithItsValue() {
    Map<String, Object> top = object(Json.parse(ReportJson.write(Fixtures.lstmReport())));
    assertThat(top.keySet()).containsExactly("version", "owner", "operators").inOrder();
    assertThat(top.get("version")).isEqualTo(1L);
    assertThat(top.get("owner")).isEqualTo("dev.kiln.samples.LstmOps");

    Map<String, Object> op = object(array(top.get("operators")).get(0));
    assertThat(op.get("name")).isEqualTo("lstmStep");
    assertThat(op.get("kernelCount")).isEqualTo(1L);
    assertThat(op.get("callCount")).isEqualTo(10L);
    assertThat(op.get("temporaryCount")).isEqualTo(8L);
    assertThat(op.get("allocatedTemporaryCount")).isEqualTo(0L);

    List<Object> calls = array(op.get("calls"));
    assertThat(calls.stream().map(c -> object(c).get("id")).toList())
        .containsExactly("slice#0", "slice#1", "slice#2", "slice#3", "sigmoid#4", "sigmoid#5", "tanh#6", "sigmoid#7", "cellUpdate#8", "hidden#9")
        .inOrder();
    Map<String, Object> update = object(calls.get(8));
    assertThat(update).containsExactly("id", "cellUpdate#8", "operator", "dev.kiln.samples.LstmOps.cellUpdate", "line", 29L,
        "reads", List.of("c", "sf", "si", "tj"), "writes", List.of("cNext")).inOrder();

    List<Object> tensors = array(op.get("tensors"));
    assertThat(tensors).hasSize(12);
    assertThat(object(tensors.get(0))).containsExactly("name", "gates", "kind", "in", "shape", "[B, 4*H]", "allocated", false,
        "perWorkerOnCpu", false).inOrder();
    assertThat(tensors.stream().filter(t -> object(t).get("kind").equals("temp")).count()).isEqualTo(8);

    Map<String, Object> kernel = object(array(op.get("kernels")).get(0));
    assertThat(kernel.keySet()).containsExactly("name", "fusedOps", "grid", "reads", "writes").inOrder();
    assertThat(array(kernel.get("fusedOps"))).hasSize(10);
    assertThat(kernel.get("grid")).isEqualTo("[b < B, h < H]");
    assertThat(kernel.get("reads")).isEqualTo(List.of("gates", "c"));
    assertThat(kernel.get("writes")).isEqualTo(List.of("cNext", "hNext"));

    List<Object> edges = array(op.get("edges"));
    assertThat(edges).hasSize(9);
    assertThat(edges.stream().allMatch(e -> object(e).get("fused").equals(Boolean.TRUE))).isTrue();
    assertThat(object(edges.get(7))).containsExactly("from", "cellUpdate#8", "to", "hidden#9", "tensor", "cNext", "fused", true,
        "reason", "passed in a register; cNext is also stored as an output").inOrder();
  }

  @Test
  void softmaxReasonIsEscapedAndComesBackUnchanged() {
    String json = ReportJson.write(Fixtures.softmaxReport());
    Map<String, Object> op = onlyOperator(json);
    assertThat(op.get("kernelCount")).isEqualTo(2L);
    assertThat(op.get("allocatedTemporaryCount")).isEqualTo(1L);
    List<Object> edges = array(op.get("edges"));
    Map<String, Object> materialised = object(edges.get(0));
    assertThat(materialised.get("fused")).isEqualTo(false);
    assertThat(materialised.get("reason")).isEqualTo(Fixtures.REASON);
    assertThat(edges.stream().filter(e -> object(e).get("fused").equals(Boolean.FALSE)).count()).isEqualTo(1);
    assertThat(json).contains("reduction \\\"max#0\\\" must finish");
    assertThat(json).contains("barrier \\\\ needs");
    assertThat(json).contains("<&>");
    assertThat(json).contains("naïve → ✓");
  }

  @Test
  void controlCharactersAndLoneSurrogatesAreEscapedNonAsciiIsKept() {
    String owner = "a\u0001b\nc\td\u001f\"\\/ é 😀 x\uD800y";
    String json = ReportJson.write(new FusionReport(owner, List.of()));
    assertThat(json).contains("\"a\\u0001b\\u000ac\\u0009d\\u001f\\\"\\\\/ é 😀 x\\ud800y\"");
    assertThat(object(Json.parse(json)).get("owner")).isEqualTo(owner);
    assertThat(json.chars().filter(c -> c < 0x20 && c != '\n').count()).isEqualTo(0);
  }

  @Test
  void anEmptyReportHasAnEmptyOperatorsArray() {
    assertThat(ReportJson.write(Fixtures.empty())).isEqualTo(String.join("\n",
        "{",
        "  \"version\": 1,",
        "  \"owner\": \"dev.kiln.samples.NoComposites\",",
        "  \"operators\": []",
        "}",
        ""));
  }

  @Test
  void nullStringsAreWrittenAsNull() {
    FusionReport report = new FusionReport("p.C", List.of(new FusionReport.Composite("f", List.of(), List.of(), List.of(),
        List.of(new FusionReport.Edge("a#0", "b#1", "t", true, null)))));
    Map<String, Object> edge = object(array(onlyOperator(ReportJson.write(report)).get("edges")).get(0));
    assertThat(edge).containsEntry("reason", Json.NULL);
  }

  @Test
  void softmaxMatchesTheGoldenTextAndIsDeterministic() throws IOException {
    String golden;
    try (InputStream in = getClass().getResourceAsStream("/report/softmax.fusion.json")) {
      assertThat(in).isNotNull();
      golden = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(ReportJson.write(Fixtures.softmaxReport())).isEqualTo(golden);
    assertThat(ReportJson.write(Fixtures.softmaxReport())).isEqualTo(ReportJson.write(Fixtures.softmaxReport()));
  }
}
