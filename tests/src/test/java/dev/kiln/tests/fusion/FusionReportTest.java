package dev.kiln.tests.fusion;

import dev.kiln.testing.Json;

import static dev.kiln.tests.fusion.FusionResources.list;
import static dev.kiln.tests.fusion.FusionResources.map;
import static dev.kiln.tests.fusion.FusionResources.string;
import static dev.kiln.tests.fusion.FusionResources.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fusion report ({@code <Class>.fusion.json}, format version 1): how many kernels each composite
 * became, which calls each kernel does, which temporaries are still allocated, and whether the
 * report agrees with itself. Expectations are in {@link Expectations}.
 */
class FusionReportTest {
  static List<Class<?>> owners() {
    return Expectations.OWNERS;
  }

  static List<Expected> expected() {
    return Expectations.ALL;
  }

  /** Each composite's entry says whether it splits, and along which size, as {@code <Class>.shards.json} does. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("owners")
  void reportSaysHowEachCompositeSplits(Class<?> owner) {
    Map<String, Object> plans = new java.util.HashMap<>();
    for (Object o : list(map(Json.parse(FusionResources.text(owner, ".shards.json")), "shards.json"), "operators")) {
      Map<String, Object> op = map(o, "a shard plan");
      plans.put(string(op, "name"), op.get("shard"));
    }
    for (Object o : list(FusionResources.report(owner), "operators")) {
      Map<String, Object> op = map(o, "an operator");
      Map<String, Object> shard = map(op.get("shard"), "the shard entry of " + string(op, "name"));
      Object plan = plans.get(string(op, "name"));
      if (plan instanceof Map<?, ?> p) {
        assertEquals(p.get("dim"), shard.get("dim"), string(op, "name"));
      } else {
        assertTrue(!shard.containsKey("dim") && !strings(shard, "refusals").isEmpty(), string(op, "name") + ": " + shard);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("owners")
  void reportNamesItsClassAndEveryComposite(Class<?> owner) {
    Map<String, Object> report = FusionResources.report(owner);
    assertEquals(1L, report.get("version"), "version");
    assertEquals(owner.getName(), report.get("owner"), "owner");
    Set<String> names = new TreeSet<>();
    for (Object o : list(report, "operators")) {
      Map<String, Object> op = map(o, "an operator");
      if (string(op, "pass").equals("forward")) {
        if (!string(op, "name").endsWith("Saving")) { // <op>Saving: <op>'s training form, checked by SavingFormsTest
          names.add(string(op, "name"));
        }
      } else {
        assertEquals("backward", string(op, "pass"), "pass of " + string(op, "name"));
        String name = string(op, "name");
        assertEquals(string(op, "gradientOf") + (name.endsWith("GradSaved") ? "GradSaved" : "Grad"), name,
            "a backward pass is named after its operator");
      }
    }
    Set<String> want = new TreeSet<>();
    Expectations.of(owner).forEach(e -> want.add(e.composite()));
    assertEquals(want, names, "the composites of " + owner.getSimpleName());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expected")
  void kernelCount(Expected e) {
    Map<String, Object> op = FusionResources.operator(e.owner(), e.composite());
    assertEquals((long) e.kernelCount(), op.get("kernelCount"), e + ": kernelCount (" + e.why() + ")");
    assertEquals(e.kernelCount(), list(op, "kernels").size(), e + ": the kernels listed");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expected")
  void callsOfEachKernel(Expected e) {
    Map<String, Object> op = FusionResources.operator(e.owner(), e.composite());
    List<List<String>> got = new ArrayList<>();
    for (Object k : list(op, "kernels")) {
      got.add(strings(map(k, "a kernel"), "fusedOps"));
    }
    assertEquals(e.kernels(), got, e + ": fusedOps of each kernel (" + e.why() + ")");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expected")
  void everyCallIsDoneBySomeKernel(Expected e) {
    Map<String, Object> op = FusionResources.operator(e.owner(), e.composite());
    Set<String> done = new HashSet<>();
    for (Object k : list(op, "kernels")) {
      done.addAll(strings(map(k, "a kernel"), "fusedOps"));
    }
    Set<String> missing = new LinkedHashSet<>();
    for (Object c : list(op, "calls")) {
      String id = string(map(c, "a call"), "id");
      if (!done.contains(id)) {
        missing.add(id);
      }
    }
    assertTrue(missing.isEmpty(), e + ": no kernel's fusedOps lists " + missing);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expected")
  void temporariesAllocatedOnlyWhereTheyMustExist(Expected e) {
    Map<String, Object> op = FusionResources.operator(e.owner(), e.composite());
    Set<String> allocated = new TreeSet<>();
    for (Object o : list(op, "tensors")) {
      Map<String, Object> t = map(o, "a tensor");
      if ("temp".equals(t.get("kind"))) {
        Object a = t.get("allocated");
        assertTrue(a instanceof Boolean, e + ": tensor " + t.get("name") + " has no boolean 'allocated'");
        if ((Boolean) a) {
          allocated.add(string(t, "name"));
        }
      }
    }
    assertEquals(new TreeSet<>(e.allocated()), allocated, e + ": temporaries still allocated (" + e.why() + ")");
  }

  /** Edges name calls of the composite; a materialised edge is a write and a read of memory; elided temporaries are in no kernel. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("expected")
  void reportAgreesWithItself(Expected e) {
    Map<String, Object> op = FusionResources.operator(e.owner(), e.composite());
    Set<String> calls = new HashSet<>();
    for (Object c : list(op, "calls")) {
      calls.add(string(map(c, "a call"), "id"));
    }
    Set<String> read = new HashSet<>();
    Set<String> written = new HashSet<>();
    for (Object k : list(op, "kernels")) {
      read.addAll(strings(map(k, "a kernel"), "reads"));
      written.addAll(strings(map(k, "a kernel"), "writes"));
      assertTrue(string(map(k, "a kernel"), "grid").matches("\\[.*\\]"), e + ": grid " + map(k, "a kernel").get("grid"));
    }
    assertTrue(!list(op, "edges").isEmpty(), e + ": no edges");
    for (Object o : list(op, "edges")) {
      Map<String, Object> edge = map(o, "an edge");
      assertTrue(calls.contains(string(edge, "from")) && calls.contains(string(edge, "to")), e + ": edge " + edge);
      assertTrue(edge.get("fused") instanceof Boolean, e + ": edge without boolean 'fused': " + edge);
      assertTrue(!string(edge, "reason").isBlank(), e + ": edge without a reason: " + edge);
      if (!(Boolean) edge.get("fused")) {
        String t = string(edge, "tensor");
        assertTrue(read.contains(t) && written.contains(t), e + ": materialised " + t + " is not written and read by kernels");
      }
    }
    for (Object o : list(op, "tensors")) {
      Map<String, Object> t = map(o, "a tensor");
      String kind = string(t, "kind");
      assertTrue(Set.of("in", "out", "temp").contains(kind), e + ": kind " + kind);
      string(t, "shape");
      if (kind.equals("temp") && Boolean.FALSE.equals(t.get("allocated"))) {
        String name = string(t, "name");
        assertTrue(!read.contains(name) && !written.contains(name), e + ": elided temporary " + name + " is used by a kernel");
      }
    }
  }
}
