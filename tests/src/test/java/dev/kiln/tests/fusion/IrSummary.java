package dev.kiln.tests.fusion;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the {@code .ir.txt} resource says about each composite: the line {@code fused into N
 * kernel(s); temporaries allocated: ...} and the {@code # kernel K fuses a, b} headers.
 */
record IrSummary(String composite, int kernelCount, List<String> allocated, List<List<String>> kernels) {
  private static final Pattern COMPOSITE = Pattern.compile("^composite (\\w+)\\(");
  private static final Pattern FUSED = Pattern.compile("^  fused into (\\d+) kernels?; temporaries allocated: (.*)$");
  private static final Pattern KERNEL = Pattern.compile("^# kernel (\\w+) fuses (.*)$");

  /** Every composite of the text, by name, in order. */
  static Map<String, IrSummary> read(String irText) {
    Map<String, IrSummary> out = new LinkedHashMap<>();
    String name = null;
    int count = -1;
    List<String> allocated = null;
    List<List<String>> kernels = new ArrayList<>();
    for (String line : irText.split("\n", -1)) {
      Matcher c = COMPOSITE.matcher(line);
      Matcher f = FUSED.matcher(line);
      Matcher k = KERNEL.matcher(line);
      if (c.find()) {
        if (name != null) {
          out.put(name, new IrSummary(name, count, allocated, kernels));
        }
        name = c.group(1);
        count = -1;
        allocated = null;
        kernels = new ArrayList<>();
      } else if (f.find() && name != null) {
        count = Integer.parseInt(f.group(1));
        allocated = f.group(2).equals("none") ? List.of() : List.of(f.group(2).split(", "));
      } else if (k.find() && name != null && k.group(1).startsWith(name + "_k")) {
        kernels.add(List.of(k.group(2).split(", ")));
      }
    }
    if (name != null) {
      out.put(name, new IrSummary(name, count, allocated, kernels));
    }
    return out;
  }
}
