package dev.kiln.processor.codegen.cuda;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * Java identifiers that must be renamed in CUDA C: C++ and CUDA words, and the C functions the
 * CUDA headers declare. A kernel has C linkage (its PTX entry keeps its name), so a kernel named
 * after one of those functions ({@code exp}, {@code div}, {@code tanh}) would not compile.
 */
final class CudaNames {
  static final Set<String> RESERVED = Set.of(
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "char16_t",
      "char32_t", "compl", "concept", "consteval", "constexpr", "constinit", "const_cast", "co_await",
      "co_return", "co_yield", "decltype", "delete", "dynamic_cast", "explicit", "export", "extern",
      "friend", "inline", "mutable", "namespace", "noexcept", "not", "not_eq", "nullptr", "operator",
      "or", "or_eq", "reinterpret_cast", "register", "requires", "signed", "sizeof", "static_assert",
      "static_cast", "struct", "template", "thread_local", "typedef", "typeid", "typename", "union",
      "unsigned", "using", "virtual", "wchar_t", "xor", "xor_eq", "kiln", "threadIdx", "blockIdx",
      "blockDim", "gridDim", "warpSize", "signbit", "NULL");

  /** C functions, macros and types of the headers a .cu includes: {@code c-linkage-names.txt}. */
  static final Set<String> C_LIBRARY = load("c-linkage-names.txt");

  private CudaNames() {}

  /** {@code javaName}, or {@code javaName_} where CUDA C reserves or declares the name. */
  static String identifier(String javaName) {
    return RESERVED.contains(javaName) || C_LIBRARY.contains(javaName) ? javaName + "_" : javaName;
  }

  private static Set<String> load(String resource) {
    Set<String> names = new HashSet<>();
    try (InputStream in = CudaNames.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("kiln-processor lacks its resource " + resource);
      }
      BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        String name = line.strip();
        if (!name.isEmpty() && !name.startsWith("#")) {
          names.add(name);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Set.copyOf(names);
  }
}
