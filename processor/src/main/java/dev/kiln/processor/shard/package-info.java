/**
 * Sharding: which size of an operator its work can be split along, each part run on a slice of the
 * arrays that size leads (Tapestry's sharding of an index space), proved from the IR, with the
 * inputs of a cost model. Runs after fusion (a composite is split along a size when every kernel of
 * its plan is) and before the contraction pass; its result is {@code <Class>.shards.json}.
 */
package dev.kiln.processor.shard;
