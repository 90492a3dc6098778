package dev.kiln.tests.fusion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Temporaries that only one kernel's workers touch, each its own slice, are kept per worker on the
 * CPU (not allocated by the composite): the gradient listings say which, and the kernel that keeps
 * them fuses the calls that made and read them.
 */
class PerWorkerTemporariesTest {
  private static String composite(String resource, String name) throws IOException {
    try (InputStream in = PerWorkerTemporariesTest.class.getResourceAsStream(resource)) {
      assertNotNull(in, resource);
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      int start = text.indexOf("composite " + name + "(");
      assertTrue(start >= 0, name + " in " + resource);
      int end = text.indexOf("\ncomposite ", start + 1);
      return text.substring(start, end < 0 ? text.length() : end);
    }
  }

  private static String line(String composite, String prefix) {
    for (String l : composite.split("\n")) {
      if (l.startsWith(prefix)) {
        return l;
      }
    }
    return null;
  }

  @Test
  void softmaxsGradientKeepsItsTwoRowsPerWorker() throws IOException {
    // two reads of x take an adjoint; the maximum's does not (ShiftInvariance)
    String c = composite("/META-INF/kiln/dev/kiln/tests/simd/SimdOps.gradients.ir.txt", "softmaxGrad");
    assertEquals("  fused into 1 kernel; temporaries allocated: adj$x$1, adj$x$2", line(c, "  fused into"));
    assertEquals("  on the CPU each worker keeps its own part instead (not allocated): adj$x$1[N], adj$x$2[N]",
        line(c, "  on the CPU"));
  }

  /**
   * layerNorm's dx reads the adjoint kernel's rows; the call between them (the beta adjoint, on
   * another grid) is independent of it, so dx joins the adjoint's kernel, ahead of that call.
   */
  @Test
  void layerNormsDxJoinsItsAdjointsKernelPastAnIndependentCall() throws IOException {
    String c = composite("/META-INF/kiln/dev/kiln/tests/ops/Normalization.gradients.ir.txt", "layerNormGrad");
    assertEquals("  fused into 2 kernels; temporaries allocated: adj$gamma$2, adj$x$3, adj$x$4, adj$x$5", line(c, "  fused into"));
    assertEquals("  on the CPU each worker keeps its own part instead (not allocated): adj$x$3[N], adj$x$4[N], adj$x$5[N]",
        line(c, "  on the CPU"));
    assertEquals("# kernel layerNormGrad_k0 fuses layerNorm$adjoint#1, layerNorm$dx#1", line(c, "# kernel layerNormGrad_k0"));
  }

  /** The fusion report marks them too (allocated on CUDA, per worker on the CPU). */
  @Test
  void theFusionReportMarksThem() {
    java.util.Map<String, Object> op = FusionResources.operator(dev.kiln.tests.simd.SimdOps.class, "softmaxGrad");
    java.util.Set<String> perWorker = new java.util.TreeSet<>();
    for (Object t : FusionResources.list(op, "tensors")) {
      java.util.Map<String, Object> tensor = FusionResources.map(t, "a tensor");
      if (Boolean.TRUE.equals(tensor.get("perWorkerOnCpu"))) {
        perWorker.add(FusionResources.string(tensor, "name"));
        assertEquals(Boolean.TRUE, tensor.get("allocated"), "allocated on CUDA");
      }
    }
    assertEquals(java.util.Set.of("adj$x$1", "adj$x$2"), perWorker);
  }

  /** adj$gamma$2 is read by another kernel (dgamma's column sums): it stays a composite-sized array. */
  @Test
  void aTemporaryAnotherKernelReadsIsAllocated() throws IOException {
    String c = composite("/META-INF/kiln/dev/kiln/tests/ops/Normalization.gradients.ir.txt", "layerNormGrad");
    assertTrue(!line(c, "  on the CPU").contains("adj$gamma$2"), c);
  }
}
