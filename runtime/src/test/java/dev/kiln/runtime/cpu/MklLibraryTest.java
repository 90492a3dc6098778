package dev.kiln.runtime.cpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Intel MKL behind {@link Gemm}, where it is chosen (an Intel CPU, Linux x86_64, the default properties). */
class MklLibraryTest {
  private static void assumeMkl() {
    assumeTrue(MklLibrary.absence() == null, String.valueOf(MklLibrary.absence()));
    assumeTrue(MklLibrary.intelCpu(), "MKL is chosen on Intel CPUs only");
    assumeTrue(System.getProperty(BlasBackend.PROPERTY) == null, "-Dkiln.blas is set");
    assertTrue(Gemm.backend().startsWith("mkl ("), Gemm.backend());
  }

  /**
   * The same product, its operands and result at other offsets in their arrays (other alignments
   * in memory), gives the same bits: MKL is set to reproducible results (CBWR strict), which a
   * training run that must repeat itself needs.
   */
  @Test
  void productsRepeatWhateverTheAlignment() {
    assumeMkl();
    Random random = new Random(5);
    int[][] sizes = {{67, 129, 301}, {256, 512, 128}, {33, 1000, 77}};
    for (int[] size : sizes) {
      int m = size[0];
      int n = size[1];
      int k = size[2];
      float[] a = floats(random, m * k);
      float[] b = floats(random, k * n);
      float[] first = new float[m * n];
      Gemm.sgemm(false, false, m, n, k, a, 0, k, b, 0, n, 0f, first, 0, n);
      for (int shift = 1; shift < 16; shift += 3) {
        float[] as = new float[a.length + shift];
        float[] bs = new float[b.length + 2 * shift];
        System.arraycopy(a, 0, as, shift, a.length);
        System.arraycopy(b, 0, bs, 2 * shift, b.length);
        float[] cs = new float[m * n + shift + 1];
        Gemm.sgemm(false, false, m, n, k, as, shift, k, bs, 2 * shift, n, 0f, cs, shift + 1, n);
        float[] again = new float[m * n];
        System.arraycopy(cs, shift + 1, again, 0, again.length);
        assertArrayEquals(first, again, 0f, m + "x" + n + "x" + k + ", operands shifted by " + shift);
      }
    }
  }

  /**
   * MKL's libraries come from the folder Kiln extracted them into (libmkl_rt opens its
   * CPU-specific ones from there), and extracting again rewrites none of them.
   */
  @Test
  void librariesComeFromTheExtractedFolderOnce() throws IOException {
    assumeMkl();
    URL rt = MklLibrary.class.getClassLoader().getResource(MklLibrary.FOLDER + MklLibrary.RT);
    Path folder = MklLibrary.extract(rt);
    List<String> mapped = mappedMklLibraries();
    assertTrue(mapped.contains(folder.resolve(MklLibrary.RT).toString()), mapped.toString());
    assertTrue(mapped.contains(folder.resolve("libmkl_core.so.2").toString()), mapped.toString());
    assertTrue(mapped.stream().anyMatch(path -> path.matches(".*/libmkl_(avx512|avx2|mc3|def)\\.so\\.2")),
        "no CPU-specific kernel library: " + mapped);
    for (String path : mapped) {
      assertTrue(path.startsWith(folder + "/"), path + " is not in " + folder);
    }
    Map<String, Object> before = inodes(folder);
    assertFalse(before.isEmpty());
    assertEquals(folder, MklLibrary.extract(rt));
    assertEquals(before, inodes(folder));
  }

  private static List<String> mappedMklLibraries() throws IOException {
    try (Stream<String> maps = Files.lines(Path.of("/proc/self/maps"))) {
      return maps.map(line -> line.substring(line.lastIndexOf(' ') + 1))
          .filter(path -> path.contains("/libmkl_")).distinct().sorted().toList();
    }
  }

  private static Map<String, Object> inodes(Path folder) throws IOException {
    Map<String, Object> inodes = new TreeMap<>();
    try (Stream<Path> files = Files.list(folder)) {
      for (Path file : files.toList()) {
        inodes.put(file.getFileName().toString(), Files.getAttribute(file, "unix:ino"));
      }
    }
    return inodes;
  }

  private static float[] floats(Random random, int n) {
    float[] x = new float[n];
    for (int i = 0; i < n; i++) {
      x[i] = random.nextFloat() * 2 - 1;
    }
    return x;
  }
}
