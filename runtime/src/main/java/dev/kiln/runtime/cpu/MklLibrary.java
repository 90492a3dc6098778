package dev.kiln.runtime.cpu;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Collections;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.bytedeco.javacpp.Loader;

/**
 * Intel MKL as the native BLAS behind {@link Gemm}: its single dynamic library {@code libmkl_rt}
 * from JavaCPP's redistributable jar ({@value #ARTIFACT}), called on the Java arrays in place
 * through Kiln's JNI shim ({@link HeapArrayGemm}); never staged.
 *
 * <p>Why: on the 2-core Intel Xeon (Emerald Rapids) MKL multiplies at 230-317 GFLOP/s where
 * OpenBLAS 0.3.31 reached 165-300 in the same minutes (two threads, each a block of the product;
 * 512x1024x1024, 256x2048x512 and 2048^3), close to the machine's 266-322 measured with a loop of
 * independent FMAs, and PyTorch's CPU engine multiplies on MKL too.
 *
 * <p>How it loads: every library in the jar's {@code org/bytedeco/mkl/linux-x86_64/} folder is
 * extracted into JavaCPP's cache once ({@link #extract}; about 450 MB: MKL dispatches to CPU-specific libraries,
 * {@code libmkl_avx512.so.2}, {@code libmkl_vml_avx512.so.2} and others, which it opens from the
 * folder of {@code libmkl_rt} at its first call; extracting only some of them is what crashed the
 * JVM beside PyTorch in an earlier session), then {@code libmkl_rt.so.2} is loaded from there by
 * its absolute path, in the JVM's private scope, so that its symbols clash with no other library
 * (PyTorch links its own MKL). Before any product it is set to:
 * <ul>
 *   <li>one thread a call ({@code MKL_Set_Num_Threads(1)}) on Kiln's pool, the default; with
 *       {@code -Dkiln.blas.threading=own} its own OpenMP threads ({@code -Dkiln.blas.threads} or
 *       all processors); {@code shared} (OpenBLAS's threads callback) has no MKL form and runs on
 *       Kiln's pool, saying so;</li>
 *   <li>reproducible results ({@code MKL_CBWR_Set(MKL_CBWR_AUTO | MKL_CBWR_STRICT)}): the same
 *       bits for the same product on the same CPU whatever the arrays' alignment in the heap
 *       (without it, MKL may take another code path for a differently aligned array, and a
 *       training run would not repeat itself). No cost measured at 512x1024x1024.</li>
 * </ul>
 *
 * <p>Offered only on Linux x86_64, on Intel CPUs ({@code vendor_id GenuineIntel}): MKL's speed on
 * other vendors' CPUs was not measured here, and OpenBLAS tunes for them. {@code -Dkiln.blas=mkl}
 * demands it anyway; {@code -Dkiln.blas=openblas} keeps OpenBLAS.
 */
final class MklLibrary {
  /** The Maven coordinates of MKL's natives for this platform. */
  static final String ARTIFACT = "org.bytedeco:mkl:2025.3-1.5.13:linux-x86_64-redist";

  /** Where the natives lie on the class path. */
  static final String FOLDER = "org/bytedeco/mkl/linux-x86_64/";

  /** MKL's single dynamic library, which opens the others from its own folder. */
  static final String RT = "libmkl_rt.so.2";

  static final String FIX = "Put " + ARTIFACT + " on the class path (the runtime depends on it on"
      + " linux-x86_64), or use -D" + BlasBackend.PROPERTY + "=openblas";

  // mkl_types.h and mkl_service.h
  private static final int CBWR_AUTO = 2;
  private static final int CBWR_STRICT = 0x10000;
  private static final int CBWR_SUCCESS = 0;

  private MklLibrary() {}

  /**
   * Why MKL is not offered here (not Linux x86_64, not an Intel CPU, no natives on the class
   * path), or null when it is.
   */
  static String absence() {
    if (!"linux-x86_64".equals(HeapArrayGemm.linuxPlatform())) {
      return "MKL is offered on Linux x86_64 only, not " + System.getProperty("os.name") + " "
          + System.getProperty("os.arch");
    }
    if (resource(FOLDER + RT) == null) {
      return "its natives (" + ARTIFACT + ") are not on the class path";
    }
    return null;
  }

  /**
   * Loads MKL for {@code threading} and says what it did ({@link Gemm#backend()}'s text); null
   * where it is not offered ({@link #absence()}, or a CPU not Intel's) unless {@code forced}.
   * Throws when it fails, or is forced and cannot be offered ({@link #absence()}).
   */
  static BlasBackend.Loaded load(BlasBackend.Threading threading, boolean forced)
      throws IOException {
    String absent = absence();
    if (absent != null) {
      if (forced) {
        throw new IllegalStateException(absent);
      }
      return null;
    }
    if (!forced && !intelCpu()) {
      return null;
    }
    Path folder = extract(resource(FOLDER + RT));
    Path rt = folder.resolve(RT);
    System.load(rt.toAbsolutePath().toString());
    HeapArrayGemm.State state = HeapArrayGemm.load("MKL", HeapArrayGemm.MKL_LIBRARIES, s -> 0);
    if (!state.direct()) {
      throw new IllegalStateException("MKL runs only on the Java arrays in place, through Kiln's JNI"
          + " shim, and " + state.description());
    }
    long cbwr = routine("MKL_CBWR_Set");
    long setThreads = routine("MKL_Set_Num_Threads");
    int status = HeapArrayGemm.callInt(cbwr, CBWR_AUTO | CBWR_STRICT);
    String repeatable = status == CBWR_SUCCESS ? "reproducible: CBWR auto, strict"
        : "not reproducible: MKL_CBWR_Set answered " + status;
    String arrays = state.description() + "; " + repeatable + "; " + folder;
    int threads = CpuExecutor.threads();
    if (threading == BlasBackend.Threading.OWN) {
      int own = BlasBackend.threadsWanted();
      HeapArrayGemm.callVoid(setThreads, own);
      return new BlasBackend.Loaded("mkl (" + own + " thread" + (own > 1 ? "s" : "")
          + ", MKL's own; " + arrays + ")", false);
    }
    HeapArrayGemm.callVoid(setThreads, 1);
    String why = threading == BlasBackend.Threading.SHARED
        ? ", not shared: MKL has no threads callback" : "";
    return new BlasBackend.Loaded("mkl (" + threads + " thread" + (threads > 1 ? "s" : "")
        + ", Kiln's pool" + why + "; " + arrays + ")", true);
  }

  /**
   * The folder that holds MKL's libraries on disk: where they lie when the class path is a folder,
   * else the cache folder they are extracted into from the jar (JavaCPP's cache, {@code
   * kiln-mkl/}), each library copied only when missing or of another size or date, through a
   * temporary file moved into place (JVMs that extract at once, as parallel test forks do, never
   * see a half-written library).
   */
  static Path extract(URL rt) throws IOException {
    try {
      if ("file".equals(rt.getProtocol())) {
        return Path.of(rt.toURI()).getParent();
      }
    } catch (URISyntaxException e) {
      throw new IOException("cannot read " + rt, e);
    }
    if (!"jar".equals(rt.getProtocol())) {
      throw new IOException("cannot extract MKL's libraries from " + rt);
    }
    JarURLConnection connection = (JarURLConnection) rt.openConnection();
    connection.setUseCaches(false); // a JarFile of our own, closed here
    Path folder = Loader.getCacheDir().toPath().resolve("kiln-mkl")
        .resolve(Path.of(connection.getJarFileURL().getPath()).getFileName().toString());
    Files.createDirectories(folder);
    try (JarFile jar = connection.getJarFile()) {
      for (JarEntry entry : Collections.list(jar.entries())) {
        String name = entry.getName();
        if (entry.isDirectory() || !name.startsWith(FOLDER) || name.indexOf('/', FOLDER.length()) >= 0) {
          continue; // MKL's headers (include/) are not needed
        }
        Path target = folder.resolve(name.substring(FOLDER.length()));
        if (Files.isRegularFile(target) && Files.size(target) == entry.getSize()
            && Files.getLastModifiedTime(target).toMillis() == entry.getTime()) {
          continue;
        }
        Path part = Files.createTempFile(folder, target.getFileName().toString(), ".part");
        try {
          try (InputStream in = jar.getInputStream(entry)) {
            Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
          }
          Files.setLastModifiedTime(part, FileTime.fromMillis(entry.getTime()));
          Files.move(part, target, StandardCopyOption.REPLACE_EXISTING,
              StandardCopyOption.ATOMIC_MOVE);
        } finally {
          Files.deleteIfExists(part);
        }
      }
    }
    return folder;
  }

  private static long routine(String symbol) {
    long address = HeapArrayGemm.routine(symbol);
    if (address == 0) {
      throw new IllegalStateException(RT + " has no " + symbol);
    }
    return address;
  }

  private static URL resource(String name) {
    ClassLoader loader = MklLibrary.class.getClassLoader();
    return loader == null ? ClassLoader.getSystemResource(name) : loader.getResource(name);
  }

  /** Whether /proc/cpuinfo names Intel as the CPU's vendor. */
  static boolean intelCpu() {
    try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
      return lines.filter(line -> line.startsWith("vendor_id")).findFirst()
          .map(line -> line.endsWith("GenuineIntel")).orElse(false);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
