package dev.kiln.processor.frontend;

import com.sun.source.tree.Tree;
import dev.kiln.processor.ir.SourceRef;

/**
 * A {@link SourceRef} that is a javac tree of the operator's source: the front end makes them; the
 * driver, which reports diagnostics on their positions, reads them back ({@link #tree}).
 */
public record TreeRef(Tree tree) implements SourceRef {
  /** {@code tree} as a source reference; null for null. */
  public static SourceRef of(Tree tree) {
    return tree == null ? null : new TreeRef(tree);
  }

  /** The tree {@code ref} stands for, or null when it is none or not a tree. */
  public static Tree tree(SourceRef ref) {
    return ref instanceof TreeRef t ? t.tree() : null;
  }
}
