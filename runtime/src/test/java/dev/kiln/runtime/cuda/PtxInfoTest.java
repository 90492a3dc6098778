package dev.kiln.runtime.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading PTX: version, target, kernel parameters. */
class PtxInfoTest {
  private static PtxInfo.Param p(String type, int bytes) {
    return new PtxInfo.Param(type, bytes);
  }

  @Test
  void readsNvccOutput() {
    String ptx = Resources.text(getClass().getClassLoader(),
        "META-INF/kiln/dev/kiln/runtime/cuda/TestKernels.ptx");
    assertNotNull(ptx);
    PtxInfo info = PtxInfo.parse(ptx);
    assertEquals("9.0", info.version());
    assertEquals("sm_80", info.target());
    assertEquals("13.0", info.cudaRelease());
    assertEquals(".version 9.0", info.versionLine());
    assertEquals(List.of("axpb_map", "index2d", "index4d", "rowSums"), List.copyOf(info.entries().keySet()));
    assertEquals(List.of(p(".u64", 8), p(".f32", 4), p(".u64", 8), p(".f32", 4), p(".u64", 8)),
        info.entries().get("axpb_map"));
    assertEquals(List.of(p(".u32", 4), p(".u32", 4), p(".u8", 1), p(".u64", 8)),
        info.entries().get("index2d"));
  }

  @Test
  void readsQualifiersArraysAndEmptyLists() {
    String ptx = ".version 7.8\n.target sm_52, debug\n.address_size 64\n"
        + ".visible .entry a(\n\t.param .u64 .ptr .global .align 4 a_param_0,\n"
        + "\t.param .align 8 .b8 a_param_1[24],\n\t.param .f64 a_param_2\n)\n{\n ret;\n}\n"
        + ".entry b()\n{\n ret;\n}\n"
        + ".visible .entry c (.param .s16 c_param_0)\n{ ret; }\n";
    PtxInfo info = PtxInfo.parse(ptx);
    assertEquals("7.8", info.version());
    assertEquals("sm_52", info.target());
    assertEquals("11.8", info.cudaRelease());
    assertEquals(List.of(p(".u64", 8), p(".b8", 24), p(".f64", 8)), info.entries().get("a"));
    assertEquals(List.of(), info.entries().get("b"));
    assertEquals(List.of(p(".s16", 2)), info.entries().get("c"));
  }

  @Test
  void toleratesWhatItCannotRead() {
    PtxInfo info = PtxInfo.parse("garbage");
    assertNull(info.version());
    assertNull(info.target());
    assertNull(info.cudaRelease());
    assertEquals("no .version line", info.versionLine());
    assertEquals(0, info.entries().size());
    assertNull(PtxInfo.parse(".version 99.9\n").cudaRelease());
    assertEquals(0, PtxInfo.parse(".entry k(.param .weird k_param_0)\n{}").entries().size());
  }
}
