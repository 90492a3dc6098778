package dev.kiln.processor.artifacts;

import java.util.HashSet;
import java.util.Set;

/**
 * The names of one class's generated operators and launchers: its own operators' names, then each
 * name a pass claims (a gradient launcher, a fused kernel, a contraction's epilogue). Every
 * generated name is claimed here, so two passes never write one method twice.
 */
public final class Namespace {
  private final Set<String> taken = new HashSet<>();

  /** Whether {@code name} is claimed. */
  public boolean taken(String name) {
    return taken.contains(name);
  }

  /** Claims {@code name}; false, claiming nothing, when it was taken. */
  public boolean claim(String name) {
    return taken.add(name);
  }

  /** {@code <base>_<suffix>}, with {@code _} appended until it is free; claimed. */
  public String fresh(String base, String suffix) {
    String name = base + "_" + suffix;
    while (!taken.add(name)) {
      name = name + "_";
    }
    return name;
  }
}
