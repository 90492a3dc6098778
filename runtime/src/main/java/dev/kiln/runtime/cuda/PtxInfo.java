package dev.kiln.runtime.cuda;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the runtime reads from a PTX text: its ISA version, its target, and each kernel's parameter
 * list, which {@link KernelArgs} checks launches against. Pure.
 *
 * @param version the {@code .version} directive's value, such as {@code "9.0"}; null when absent
 * @param target the {@code .target} directive's first value, such as {@code "sm_80"}; null when absent
 * @param entries each {@code .entry}'s parameters, in source order
 */
record PtxInfo(String version, String target, Map<String, List<Param>> entries) {

  /**
   * One kernel parameter.
   *
   * @param type the PTX type, such as {@code ".u64"}
   * @param bytes its size: the type's width times the array length, if any
   */
  record Param(String type, int bytes) {}

  private static final Pattern VERSION = Pattern.compile("(?m)^\\s*\\.version\\s+(\\d+\\.\\d+)");
  private static final Pattern TARGET = Pattern.compile("(?m)^\\s*\\.target\\s+([\\w.]+)");
  private static final Pattern ENTRY =
      Pattern.compile("\\.entry\\s+([A-Za-z_$][\\w$]*)\\s*\\(([^)]*)\\)");
  private static final Pattern TYPE = Pattern.compile("\\.[usbf](8|16|32|64)");
  private static final Pattern ARRAY = Pattern.compile("\\[(\\d+)]\\s*$");

  /** The CUDA release that introduced each PTX ISA version, so the oldest driver that reads it. */
  private static final Map<String, String> CUDA_RELEASE = Map.ofEntries(
      Map.entry("6.0", "9.0"), Map.entry("6.1", "9.1"), Map.entry("6.2", "9.2"),
      Map.entry("6.3", "10.0"), Map.entry("6.4", "10.1"), Map.entry("6.5", "10.2"),
      Map.entry("7.0", "11.0"), Map.entry("7.1", "11.1"), Map.entry("7.2", "11.2"),
      Map.entry("7.3", "11.3"), Map.entry("7.4", "11.4"), Map.entry("7.5", "11.5"),
      Map.entry("7.6", "11.6"), Map.entry("7.7", "11.7"), Map.entry("7.8", "11.8"),
      Map.entry("8.0", "12.0"), Map.entry("8.1", "12.1"), Map.entry("8.2", "12.2"),
      Map.entry("8.3", "12.3"), Map.entry("8.4", "12.4"), Map.entry("8.5", "12.5"),
      Map.entry("8.6", "12.7"), Map.entry("8.7", "12.8"), Map.entry("8.8", "12.9"),
      Map.entry("9.0", "13.0"));

  /** Makes the entry map unmodifiable. */
  PtxInfo {
    entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
  }

  /** Reads a PTX text. Parameters it cannot size are left out of {@link #entries} for that kernel. */
  static PtxInfo parse(String ptx) {
    Matcher v = VERSION.matcher(ptx);
    Matcher t = TARGET.matcher(ptx);
    Map<String, List<Param>> entries = new LinkedHashMap<>();
    Matcher e = ENTRY.matcher(ptx);
    while (e.find()) {
      List<Param> params = params(e.group(2));
      if (params != null) {
        entries.put(e.group(1), List.copyOf(params));
      }
    }
    return new PtxInfo(v.find() ? v.group(1) : null, t.find() ? t.group(1) : null, entries);
  }

  /** The CUDA release whose driver first reads this PTX version ({@code "13.0"}), or null. */
  String cudaRelease() {
    return version == null ? null : CUDA_RELEASE.get(version);
  }

  /** For messages: {@code ".version 9.0"}, or a phrase when there is none. */
  String versionLine() {
    return version == null ? "no .version line" : ".version " + version;
  }

  /** The parameters of a parameter list; null when one cannot be sized. */
  private static List<Param> params(String list) {
    List<Param> params = new ArrayList<>();
    if (list.isBlank()) {
      return params;
    }
    for (String declaration : list.split(",")) {
      String d = declaration.strip();
      if (!d.startsWith(".param")) {
        return null;
      }
      Matcher type = TYPE.matcher(d);
      if (!type.find()) {
        return null;
      }
      int bytes = Integer.parseInt(type.group(1)) / 8;
      Matcher array = ARRAY.matcher(d);
      if (array.find()) {
        bytes *= Integer.parseInt(array.group(1));
      }
      params.add(new Param(type.group(), bytes));
    }
    return params;
  }
}
