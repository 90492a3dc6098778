package dev.kiln.runtime.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PartialResultsTest {
  @Test
  void oneChunkAWorkerUpToTheCap() {
    assertEquals(1, PartialResults.chunks(1, 10));
    assertEquals(130, PartialResults.chunks(130, 10));
    assertEquals(PartialResults.MAX_CHUNKS, PartialResults.chunks(1L << 40, 10));
  }

  @Test
  void fewerChunksWhenTheCopiesWouldBeLarge() {
    assertEquals(64, PartialResults.chunks(100_000, 512 * 512));
    assertEquals(1, PartialResults.chunks(100_000, PartialResults.MAX_ELEMENTS * 2));
  }

  @Test
  void atLeastOneChunk() {
    assertEquals(1, PartialResults.chunks(0, 0));
    assertEquals(1, PartialResults.chunks(0, 5));
  }

  @Test
  void negativeSizesAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> PartialResults.chunks(-1, 1));
    assertThrows(IllegalArgumentException.class, () -> PartialResults.chunks(1, -1));
  }

  @Test
  void manyKeptPointsOrFewReducedOnesAreNotSplit() {
    assertEquals(1, PartialResults.segments(PartialResults.TARGET_BLOCKS, 1L << 30));
    assertEquals(1, PartialResults.segments(1, PartialResults.DEFAULT_SEGMENT_WORK - 1));
    assertEquals(1, PartialResults.segments(0, 0));
    assertEquals(1, PartialResults.segments(0, 1L << 30));
    assertEquals(1, PartialResults.segments(5, 0));
  }

  @Test
  void aTotalIsSplitUpToTheCap() {
    assertEquals(PartialResults.MAX_SEGMENTS, PartialResults.segments(1, 100_000_000));
    assertEquals(4, PartialResults.segments(1, 4 * PartialResults.DEFAULT_SEGMENT_WORK + 7));
  }

  @Test
  void fewKeptPointsAreSplitToAboutTheTargetBlocks() {
    assertEquals(512, PartialResults.segments(4, 1L << 30));
    assertEquals(3, PartialResults.segments(1000, 1L << 30));
  }

  @Test
  void negativeCountsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> PartialResults.segments(-1, 1));
    assertThrows(IllegalArgumentException.class, () -> PartialResults.segments(1, -1));
  }
}
