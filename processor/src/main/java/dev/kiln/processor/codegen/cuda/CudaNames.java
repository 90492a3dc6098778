package dev.kiln.processor.codegen.cuda;

import java.util.Set;

/** C++ and CUDA words that are valid Java identifiers, and so must be renamed in CUDA C. */
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

  private CudaNames() {}

  static String identifier(String javaName) {
    return RESERVED.contains(javaName) ? javaName + "_" : javaName;
  }
}
