package dev.kiln.spark;

import java.io.Serializable;
import java.util.Map;

/**
 * Consecutive rows of an operator's split size, as a Spark dataset holds them: the first row's
 * global index, the number of rows, and this block's rows of each split array by parameter name
 * ({@code x} of a {@code [B, N]} operator: {@code rows * N} floats). {@link KilnSpark#mapRows}
 * takes blocks of the inputs and gives blocks of the outputs.
 */
public record RowBlock(long first, int rows, Map<String, Object> arrays) implements Serializable {
  public RowBlock {
    if (rows < 0 || first < 0) {
      throw new IllegalArgumentException("a block of " + rows + " rows from row " + first);
    }
    arrays = Map.copyOf(arrays);
  }

  /** The block's rows of {@code name}. */
  public Object array(String name) {
    return arrays.get(name);
  }
}
