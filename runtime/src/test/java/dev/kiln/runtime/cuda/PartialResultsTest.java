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
}
