package dev.kiln.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The processor's packages are stages of one pipeline, and each uses only the stages before it
 * (issue 16): a package that names a later one (by an import or a qualified name) fails here,
 * listed with the file; the front end is used by the driver only. javac's own API ({@code com.sun.source}, {@code com.sun.tools}) stays in the
 * front end and its adapters. What still breaks the rule is listed in {@link #KNOWN}, so that the
 * list can only shrink: an entry that no longer occurs fails too.
 */
class StageImportsTest {
  /** The stages, earliest first; a package may use its own stage and those before it. */
  private static final List<String> STAGES = List.of(
      "artifacts", "diag", "report", "ir", "ir.analysis", "ir.transform", "ir.io", "javac", "frontend", "check", "autodiff", "fusion", "shard", "contraction",
      "codegen", "codegen.cuda", "codegen.cpu", "");

  /** The packages that may use javac's own API. */
  private static final Set<String> JAVAC_USERS = Set.of("diag", "javac", "frontend", "");

  /**
   * The front end and its javac adapter: the driver hands their IR on, and no later stage calls
   * them back.
   */
  private static final Set<String> FRONT = Set.of("javac", "frontend");

  /**
   * Uses that break the rules today, as {@code file -> what it uses}: none (the last, the composite
   * gradient's expansion of a composite call, moved from the front end into {@code ir}).
   */
  private static final Set<String> KNOWN = Set.of();

  private static final Path SOURCES = Path.of("src/main/java/dev/kiln/processor");
  private static final Pattern USE = Pattern.compile("dev\\.kiln\\.processor\\.([a-z.]+?)\\.[A-Z]");
  private static final Pattern JAVAC = Pattern.compile("\\bcom\\.sun\\.(source|tools)\\.");

  @Test
  void everyPackageUsesOnlyEarlierStages() throws IOException {
    Set<String> found = new TreeSet<>();
    List<String> violations = new ArrayList<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
        String relative = SOURCES.relativize(file).toString().replace('\\', '/');
        String pkg = relative.contains("/") ? relative.substring(0, relative.lastIndexOf('/')).replace('/', '.') : "";
        int stage = STAGES.indexOf(pkg);
        assertTrue(stage >= 0, "package " + pkg + " (" + relative + ") is no stage of StageImportsTest.STAGES: add it");
        String text = Files.readString(file);
        Matcher m = USE.matcher(text);
        while (m.find()) {
          String used = m.group(1);
          int usedStage = STAGES.indexOf(used);
          if (usedStage < 0) {
            continue; // (a class of the root package, dev.kiln.processor.X, is the driver's)
          }
          if (usedStage > stage || FRONT.contains(used) && !FRONT.contains(pkg) && !pkg.isEmpty()) {
            note(relative + " -> " + used, found, violations);
          }
        }
        if (!JAVAC_USERS.contains(pkg) && JAVAC.matcher(text).find()) {
          note(relative + " -> com.sun", found, violations);
        }
      }
    }
    assertEquals(List.of(), violations, "later stages used (STAGES, earliest first: " + STAGES + ")");
    Set<String> gone = new TreeSet<>(KNOWN);
    gone.removeAll(found);
    assertEquals(Set.of(), gone, "fixed: take these out of StageImportsTest.KNOWN");
  }

  /** A file's use of a later stage: known, or a violation (each listed once). */
  private static void note(String use, Set<String> found, List<String> violations) {
    if (KNOWN.contains(use)) {
      found.add(use);
    } else if (!violations.contains(use)) {
      violations.add(use);
    }
  }

  @Test
  void theStagesAreTheProcessorsPackages() throws IOException {
    Set<String> packages = new TreeSet<>();
    try (Stream<Path> dirs = Files.walk(SOURCES)) {
      dirs.filter(Files::isDirectory).forEach(d -> packages.add(SOURCES.relativize(d).toString().replace('\\', '/').replace('/', '.')));
    }
    assertEquals(new TreeSet<>(STAGES), packages, Map.of("listed", STAGES).toString());
  }
}
