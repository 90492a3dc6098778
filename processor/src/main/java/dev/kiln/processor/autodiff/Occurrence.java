package dev.kiln.processor.autodiff;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.SourceRef;
import dev.kiln.processor.ir.Stmt;
import java.util.List;

/**
 * The reads of one array at one index by one worker, at one loop level, with the adjoint they
 * receive: what the worker (at loop iteration {@code chain}) contributes to the array's gradient at
 * that index. The backward pass stores the adjoint into {@code temp}, indexed by the worker and the
 * iteration; a gather then sums what every worker stored for each element.
 *
 * @param index the read's index, over the forward worker's variables
 * @param chain the sequential loops around the read, outermost first (empty at the top level)
 * @param temp where the adjoint is stored: shape [grid extents..., loop trip ranges...]
 * @param unguarded whether every worker reads it (no read has a condition)
 * @param guards the conditions of its reads when every read has one (empty otherwise): a worker
 *     outside all of them contributes nothing, which can narrow the variables' ranges
 */
record Occurrence(Param.Array array, Expr index, List<Stmt.Loop> chain, Param.Array temp, SourceRef origin,
    boolean unguarded, List<Expr> guards) {
  Occurrence {
    guards = List.copyOf(guards);
  }
}
