package dev.kiln.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.cpu.CpuExecutor;
import org.junit.jupiter.api.Test;

/**
 * The behaviour tests are sized for {@code -Dkiln.cpu.grain=256 -Dkiln.cpu.threads=4} (set in this
 * module's pom.xml), under which a 64 x 300 grid runs as several chunks. If this fails, the other
 * tests still pass or fail meaningfully but may never run a kernel on more than one chunk.
 */
class ExecutorConfigTest {
  @Test
  void testSizesAreSplitIntoSeveralChunks() {
    assertEquals(
        "256", System.getProperty(CpuExecutor.GRAIN_PROPERTY), "surefire's kiln.cpu.grain");
    assertEquals(4, CpuExecutor.threads(), "surefire's kiln.cpu.threads");
    assertTrue(CpuExecutor.chunks(64, 300) > 1, "64 rows of 300 should be split");
    assertTrue(CpuExecutor.chunks(20_001, 1) > 1, "20001 single-step workers should be split");
  }
}
