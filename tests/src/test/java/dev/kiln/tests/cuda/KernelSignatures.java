package dev.kiln.tests.cuda;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code extern "C" __global__} kernels of a generated .cu, with their parameter types. */
final class KernelSignatures {
  /** One parameter: its C base type, whether it is a pointer, its name, and whether it is const. */
  record Param(String type, boolean pointer, String name, boolean constant) {}

  private static final Pattern KERNEL = Pattern.compile("extern \"C\" __global__ void (\\w+)\\(([^)]*)\\)");

  private KernelSignatures() {}

  /**
   * Whether kernel {@code name} of {@code cu} reaches a barrier: its body (up to the next kernel)
   * calls {@code __syncthreads} or {@code kiln::block_reduce}.
   */
  static boolean synchronises(String cu, String name) {
    Matcher m = KERNEL.matcher(cu);
    while (m.find()) {
      if (m.group(1).equals(name)) {
        int start = m.end();
        int end = m.find() ? m.start() : cu.length();
        String body = cu.substring(start, end);
        return body.contains("__syncthreads") || body.contains("block_reduce") || body.contains("column_reduce");
      }
    }
    throw new IllegalArgumentException("no kernel " + name);
  }

  static Map<String, List<Param>> of(String cu) {
    Map<String, List<Param>> kernels = new LinkedHashMap<>();
    Matcher m = KERNEL.matcher(cu);
    while (m.find()) {
      List<Param> params = new ArrayList<>();
      for (String p : m.group(2).split(",")) {
        String decl = p.trim();
        boolean pointer = decl.contains("*");
        String type = decl.substring(0, decl.lastIndexOf(' '))
            .replace("const", "").replace("__restrict__", "").replace("*", "").trim().replaceAll("\\s+", " ");
        params.add(new Param(type, pointer, decl.substring(decl.lastIndexOf(' ') + 1), decl.startsWith("const ")));
      }
      kernels.put(m.group(1), params);
    }
    return kernels;
  }
}
