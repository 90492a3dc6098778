package dev.kiln.processor.artifacts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A class's generated names: each claimed once, fresh ones made unique against all claimed. */
class NamespaceTest {
  @Test
  void aNameIsClaimedOnce() {
    Namespace names = new Namespace();
    assertFalse(names.taken("softmax"));
    assertTrue(names.claim("softmax"));
    assertTrue(names.taken("softmax"));
    assertFalse(names.claim("softmax"));
  }

  @Test
  void aFreshNameAvoidsTheOperatorsAndEarlierFreshNames() {
    Namespace names = new Namespace();
    names.claim("softmax");
    names.claim("softmax_k0"); // a user's operator that looks like a kernel
    assertEquals("softmax_k0_", names.fresh("softmax", "k0"));
    assertEquals("softmax_k0__", names.fresh("softmax", "k0"));
    assertEquals("softmax_k1", names.fresh("softmax", "k1"));
    assertTrue(names.taken("softmax_k1"));
  }
}
