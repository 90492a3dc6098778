package dev.kiln.tests.fusion;

import java.util.List;
import java.util.Set;

/**
 * What fusion should make of one composite: its kernels in launch order, each with the ids of the
 * calls whose work it does (a call recomputed inline belongs to the kernel that recomputes it), and
 * the temporaries that must still be allocated. These are the counts a strong fuser reaches, not
 * whatever the merger does today; {@code why} says why that is the right answer.
 */
record Expected(Class<?> owner, String composite, List<List<String>> kernels, Set<String> allocated, String why) {
  Expected {
    kernels = List.copyOf(kernels);
    allocated = Set.copyOf(allocated);
  }

  int kernelCount() {
    return kernels.size();
  }

  static Expected one(Class<?> owner, String composite, String why, String... calls) {
    return new Expected(owner, composite, List.of(List.of(calls)), Set.of(), why);
  }

  @Override
  public String toString() {
    return owner.getSimpleName() + "." + composite;
  }
}
