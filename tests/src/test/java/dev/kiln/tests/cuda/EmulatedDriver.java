package dev.kiln.tests.cuda;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Builds the emulated CUDA driver ({@code emulation/libcuda_emulation.c} as {@code libcuda.so.1}),
 * the emulated NVRTC ({@code emulation/libnvrtc_emulation.c} as {@code libnvrtc.so.12}), the emulated
 * cuBLAS ({@code emulation/libcublas_emulation.c} as {@code libcublas.so.12}) and, for
 * every {@code .cu} under {@code META-INF/kiln/} on the class path, a host build against {@code
 * emulation/cuda_emulation.h}, named by the hash of its PTX (when the class has one) and by the hash
 * of its source: that is how the emulated driver's {@code cuModuleLoadData} finds the build of the
 * build-time PTX and of PTX that the emulated NVRTC made at run time. A process started with {@link
 * #environment()} then runs Kiln's real CUDA runtime and the generated device launchers on the host.
 */
public final class EmulatedDriver {
  /** What the emulated driver's device name contains ({@code libcuda_emulation.c}'s cuDeviceGetName). */
  static final String DEVICE_NAME = "Kiln CUDA emulation";

  /** Whether {@code deviceName} is the emulated driver's device rather than a GPU. */
  static boolean emulates(String deviceName) {
    return deviceName.contains(DEVICE_NAME);
  }

  private static final List<String> HEADERS = List.of("kiln/kiln.cuh", "kiln/math.cuh", "kiln/index.cuh", "kiln/reduce.cuh");

  public final Path directory;
  /** The generated classes built that have PTX, by resource base ({@code dev/kiln/tests/ops/Reductions}). */
  public final List<String> modules;
  private final Path nvcc;

  private EmulatedDriver(Path directory, List<String> modules, Path nvcc) {
    this.directory = directory;
    this.modules = modules;
    this.nvcc = nvcc;
  }

  /**
   * Builds the emulated driver into directory {@code args[0]} from the generated classes on the class
   * path, and prints the environment to run a process on it ({@code scripts/gpu-bundle-on-emulation.sh}).
   */
  public static void main(String[] args) throws Exception {
    Path cc = dev.kiln.tests.CudaSourcesTest.tool("gcc");
    Path cxx = dev.kiln.tests.CudaSourcesTest.tool("g++");
    if (args.length != 1 || cc == null || cxx == null) {
      System.err.println("usage: EmulatedDriver <directory> (needs gcc and g++ on the PATH)");
      System.exit(2);
    }
    EmulatedDriver driver = build(Files.createDirectories(Path.of(args[0])), cc, cxx);
    driver.environment().forEach((k, v) -> System.out.println("export " + k + "=" + v));
    System.err.println(driver.modules.size() + " generated classes with PTX built for the emulation");
  }

  /** How a child JVM run on the driver ended: whether it finished in time, its exit status, its output. */
  public record Child(boolean finished, int exitValue, String output) {}

  /**
   * Runs a Java class in a child JVM on this driver: {@code java -cp classPath jvmArgs mainClass
   * args}, with the driver's {@link #environment}, the emulation's scheduling seed {@code seed} (none:
   * the emulation's default) and the emulation's {@code settings}, its output to {@code output};
   * killed after {@code minutes}. Other modules' tests (the sample's, kiln-spark's) run their CUDA
   * paths through it too.
   */
  public Child runJava(String classPath, List<String> jvmArgs, String mainClass, List<String> args, String seed,
      Map<String, String> settings, Path output, long minutes) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classPath));
    command.addAll(jvmArgs);
    command.add(mainClass);
    command.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
    pb.environment().putAll(environment());
    if (seed != null) {
      pb.environment().put("KILN_CUDA_EMULATION_SEED", seed);
    }
    pb.environment().putAll(settings);
    Process child = pb.start();
    boolean finished = child.waitFor(minutes, java.util.concurrent.TimeUnit.MINUTES);
    if (!finished) {
      child.destroyForcibly().waitFor();
    }
    return new Child(finished, child.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
  }

  /** The environment of a process that uses this driver instead of the machine's. */
  public Map<String, String> environment() {
    Map<String, String> env = new java.util.HashMap<>(Map.of(
        "LD_LIBRARY_PATH", directory.toString(),
        "KILN_CUDA_EMULATION_MODULES", directory.resolve("modules").toString()));
    if (nvcc != null) {
      env.put("KILN_CUDA_EMULATION_NVCC", nvcc.toString());
    }
    return env;
  }

  /** A generated class's CUDA C and, when nvcc made it at build time, its PTX (else null). */
  public record Module(String cu, byte[] ptx) {}

  /**
   * Builds everything into {@code directory} with the host's C and C++ compilers, for the generated
   * classes on the class path.
   *
   * @throws AssertionError when a compiler rejects a source, with its message
   */
  public static EmulatedDriver build(Path directory, Path cc, Path cxx) throws Exception {
    Map<String, Module> modules = new TreeMap<>();
    for (String base : generatedClasses()) {
      byte[] c = bytes("META-INF/kiln/" + base + ".cu");
      if (c != null) {
        modules.put(base, new Module(new String(c, StandardCharsets.UTF_8), bytes("META-INF/kiln/" + base + ".ptx")));
      }
    }
    return build(directory, cc, cxx, modules);
  }

  /**
   * The generated classes under a directory of compiled classes ({@code META-INF/kiln/**.cu} and
   * their PTX), by resource base.
   */
  public static Map<String, Module> modulesUnder(Path classes) throws IOException {
    Map<String, Module> modules = new TreeMap<>();
    Path root = classes.resolve("META-INF/kiln");
    if (!Files.isDirectory(root)) {
      return modules;
    }
    List<String> bases = new ArrayList<>();
    collect(root, bases);
    for (String base : bases) {
      Path ptx = root.resolve(base + ".ptx");
      modules.put(base, new Module(Files.readString(root.resolve(base + ".cu"), StandardCharsets.UTF_8),
          Files.exists(ptx) ? Files.readAllBytes(ptx) : null));
    }
    return modules;
  }

  /**
   * Builds the driver, the NVRTC and cuBLAS emulations and a host build of each of {@code modules}
   * (by resource base) into {@code directory}.
   *
   * @throws AssertionError when a compiler rejects a source, with its message
   */
  public static EmulatedDriver build(Path directory, Path cc, Path cxx, Map<String, Module> modules) throws Exception {
    Path modulesDir = Files.createDirectories(directory.resolve("modules"));
    Files.writeString(directory.resolve("libcuda_emulation.c"), resource("emulation/libcuda_emulation.c"));
    Files.writeString(directory.resolve("libnvrtc_emulation.c"), resource("emulation/libnvrtc_emulation.c"));
    Files.writeString(directory.resolve("libcublas_emulation.c"), resource("emulation/libcublas_emulation.c"));
    // JCuda's NVRTC binding asks for its symbols at version node libnvrtc.so.12
    Files.writeString(directory.resolve("libnvrtc.map"), "libnvrtc.so.12 { global: nvrtc*; local: *; };\n");
    // and JCublas's at libcublas.so.12
    Files.writeString(directory.resolve("libcublas.map"), "libcublas.so.12 { global: cublas*; local: *; };\n");
    Files.writeString(directory.resolve("cuda_emulation.h"), resource("emulation/cuda_emulation.h"));
    for (String h : HEADERS) {
      Path target = directory.resolve(h);
      Files.createDirectories(target.getParent());
      Files.writeString(target, resource(h));
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors())));
    try {
      List<Future<?>> jobs = new ArrayList<>();
      jobs.add(pool.submit(() -> {
        compile(directory, List.of(cc.toString(), "-shared", "-fPIC", "-O1", "-U_FORTIFY_SOURCE",
            "-o", directory.resolve("libcuda.so.1").toString(), directory.resolve("libcuda_emulation.c").toString(),
            "-ldl", "-lpthread"));
        // cuBLAS runs its products through the driver's kiln_emu_library_launch: linked against it
        return compile(directory, List.of(cc.toString(), "-shared", "-fPIC", "-O2",
            "-Wl,-soname,libcublas.so.12", "-Wl,--version-script=" + directory.resolve("libcublas.map"),
            "-o", directory.resolve("libcublas.so.12").toString(), directory.resolve("libcublas_emulation.c").toString(),
            "-L", directory.toString(), "-l:libcuda.so.1"));
      }));
      jobs.add(pool.submit(() -> compile(directory, List.of(cc.toString(), "-shared", "-fPIC", "-O1",
          "-Wl,-soname,libnvrtc.so.12", "-Wl,--version-script=" + directory.resolve("libnvrtc.map"),
          "-o", directory.resolve("libnvrtc.so.12").toString(), directory.resolve("libnvrtc_emulation.c").toString()))));
      for (Map.Entry<String, Module> module : modules.entrySet()) {
        String name = module.getKey().replace('/', '_');
        String cu = module.getValue().cu();
        Path source = directory.resolve(name + ".cpp");
        Files.writeString(source, "#include \"" + name + ".cu.h\"\n" + glue(cu));
        Files.writeString(directory.resolve(name + ".cu.h"), cu);
        Path library = modulesDir.resolve(String.format("%016x.so", fnv1a(cu.getBytes(StandardCharsets.UTF_8))));
        byte[] p = module.getValue().ptx();
        jobs.add(pool.submit(() -> {
          compile(directory, List.of(cxx.toString(), "-shared", "-fPIC", "-O1", "-std=c++17", "-w",
              "-U_FORTIFY_SOURCE", "-include", "cuda_emulation.h", "-I", directory.toString(), "-o", library.toString(),
              source.toString(), "-lm"));
          if (p != null) {
            Files.copy(library, modulesDir.resolve(String.format("%016x.so", fnv1a(p))),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
          }
          return null;
        }));
      }
      for (Future<?> job : jobs) {
        job.get();
      }
    } finally {
      pool.shutdownNow();
    }
    List<String> withPtx = modules.entrySet().stream().filter(m -> m.getValue().ptx() != null)
        .map(Map.Entry::getKey).sorted().toList();
    return new EmulatedDriver(directory, withPtx, dev.kiln.tests.CudaSourcesTest.tool("nvcc"));
  }

  /**
   * The C++ after a generated .cu that describes each of its kernels to the emulated driver: a
   * function that calls it with {@code cuLaunchKernel}'s parameter array, whether it synchronises,
   * and its parameter kinds ({@code p} a pointer the kernel may write through, {@code c} a const one).
   */
  static String glue(String cu) {
    StringBuilder c = new StringBuilder();
    Map<String, List<KernelSignatures.Param>> kernels = KernelSignatures.of(cu);
    for (Map.Entry<String, List<KernelSignatures.Param>> k : kernels.entrySet()) {
      String name = k.getKey();
      List<KernelSignatures.Param> ps = k.getValue();
      StringBuilder args = new StringBuilder();
      StringBuilder kinds = new StringBuilder();
      for (int i = 0; i < ps.size(); i++) {
        KernelSignatures.Param p = ps.get(i);
        args.append(i == 0 ? "" : ", ").append("*(").append(p.type()).append(p.pointer() ? "**" : "*").append(") p[")
            .append(i).append("]");
        kinds.append(p.pointer() ? (p.constant() ? 'c' : 'p') : switch (p.type()) {
          case "int" -> 'i';
          case "long long" -> 'l';
          case "float" -> 'f';
          case "double" -> 'd';
          case "bool" -> 'b';
          default -> throw new IllegalArgumentException(name + ": parameter type " + p.type());
        });
      }
      c.append("static void kiln_emu_body_").append(name).append("(void** p) { ").append(name).append("(").append(args)
          .append("); }\n");
      c.append("extern \"C\" __attribute__((visibility(\"default\"))) const kiln_emu_kernel kiln_emu_kernel_").append(name)
          .append(" = {\"").append(name).append("\", kiln_emu_body_").append(name).append(", ")
          .append(KernelSignatures.synchronises(cu, name) ? 1 : 0).append(", \"").append(kinds).append("\"};\n");
    }
    return c.toString();
  }

  /** 64-bit FNV-1a of the bytes up to the first 0: what the emulated cuModuleLoadData computes. */
  static long fnv1a(byte[] bytes) {
    long hash = 0xcbf29ce484222325L;
    for (byte b : bytes) {
      if (b == 0) {
        break;
      }
      hash = (hash ^ (b & 0xff)) * 0x100000001b3L;
    }
    return hash;
  }

  private static Void compile(Path directory, List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(600, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new AssertionError(String.join(" ", command) + " failed:\n" + out);
    }
    return null;
  }

  /** Resource bases of every {@code META-INF/kiln/**.cu} in the class path's directories and jars. */
  static List<String> generatedClasses() throws IOException, URISyntaxException {
    List<String> bases = new ArrayList<>();
    var roots = EmulatedDriver.class.getClassLoader().getResources("META-INF/kiln");
    while (roots.hasMoreElements()) {
      URL root = roots.nextElement();
      if (root.getProtocol().equals("file")) {
        collect(Path.of(root.toURI()), bases);
      } else if (root.getProtocol().equals("jar")) {
        FileSystem jar;
        try {
          jar = FileSystems.newFileSystem(root.toURI(), Map.of());
        } catch (java.nio.file.FileSystemAlreadyExistsException open) {
          jar = FileSystems.getFileSystem(root.toURI());
        }
        collect(jar.getPath("META-INF/kiln"), bases);
      }
    }
    return bases;
  }

  private static void collect(Path root, List<String> bases) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      files.map(f -> root.relativize(f).toString().replace('\\', '/'))
          .filter(f -> f.endsWith(".cu"))
          .map(f -> f.substring(0, f.length() - 3))
          .forEach(bases::add);
    }
  }

  private static byte[] bytes(String resource) throws IOException {
    try (InputStream in = EmulatedDriver.class.getClassLoader().getResourceAsStream(resource)) {
      return in == null ? null : in.readAllBytes();
    }
  }

  private static String resource(String name) throws IOException {
    byte[] b = bytes(name);
    if (b == null) {
      throw new IOException("resource " + name + " is not on the test class path");
    }
    return new String(b, StandardCharsets.UTF_8);
  }
}
