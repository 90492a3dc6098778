package dev.kiln.tests.cuda;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.kiln.runtime.Kiln;
import dev.kiln.runtime.cuda.CudaRuntime;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.platform.engine.TestExecutionResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The child process of {@link EmulatedGpuTest}: started with the emulated driver as its {@code
 * libcuda.so.1} and {@code -Dkiln.device=cuda}, it runs the given GPU test classes with the JUnit
 * Platform and writes one line a test into the results file: {@code PASS|FAIL|SKIP}, the test's
 * class, its name, and the failure or skip reason, tab-separated. The first line names the device
 * the runtime opened, or says why it opened none.
 *
 * <p>Arguments: the results file, then the tests: class names, or {@code Class#method}.
 */
public final class EmulatedGpuRun {
  private EmulatedGpuRun() {}

  public static void main(String[] args) throws Exception {
    try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(args[0]), StandardCharsets.UTF_8), true)) {
      if (!CudaRuntime.available()) {
        out.println("DEVICE\tnone\t" + line(CudaRuntime.unavailableReason()));
        System.exit(3);
      }
      out.println("DEVICE\t" + line(CudaRuntime.device().description()) + "\t" + Kiln.device());
      List<DiscoverySelector> selectors = new ArrayList<>();
      for (int i = 1; i < args.length; i++) {
        selectors.add(args[i].contains("#") ? selectMethod(args[i]) : selectClass(args[i]));
      }
      LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request().selectors(selectors).build(),
          new Results(out));
      String launches;
      try {
        launches = CudaRuntime.device().stats().launches() + "\t" + CudaRuntime.device().stats().launchesByKernel().size();
      } catch (RuntimeException failedContext) { // a fault test leaves the context failed, as a GPU does
        java.util.regex.Matcher error = java.util.regex.Pattern.compile("CUDA_ERROR_[A-Z_]+")
            .matcher(String.valueOf(failedContext.getMessage()));
        // the fault's name in words ("illegal address"), so that a passing build prints no error text
        String fault = error.find()
            ? error.group().substring("CUDA_ERROR_".length()).toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
            : "see the test";
        launches = "?\tnot counted: the CUDA context is failed (" + fault + "), as a deliberate fault leaves it";
      }
      out.println("LAUNCHES\t" + launches);
    }
    System.exit(0);
  }

  private static String line(String s) {
    return s == null ? "" : s.replace('\t', ' ').replace("\r", "").replace("\n", "\\n");
  }

  private static final Pattern CLASS = Pattern.compile("\\[class:([^\\]]+)\\]");

  /** The class of a test, from its unique id. */
  private static String className(TestIdentifier test) {
    Matcher m = CLASS.matcher(test.getUniqueId());
    return m.find() ? m.group(1) : "?";
  }

  /** Writes a line for every test (not container) that finished or was skipped. */
  private record Results(PrintWriter out) implements TestExecutionListener {
    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
      if (test.isTest()) {
        out.println("SKIP\t" + className(test) + "\t" + line(test.getDisplayName()) + "\t" + line(reason));
      }
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
      if (!test.isTest() && result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
        return;
      }
      String why = result.getThrowable().map(EmulatedGpuRun::describe).orElse("");
      String status = switch (result.getStatus()) {
        case SUCCESSFUL -> "PASS";
        case ABORTED -> "SKIP";
        case FAILED -> "FAIL";
      };
      out.println(status + "\t" + className(test) + "\t" + line(test.getDisplayName()) + "\t" + line(why));
    }
  }

  private static String describe(Throwable t) {
    StringBuilder s = new StringBuilder(String.valueOf(t));
    for (Throwable cause = t.getCause(); cause != null && s.length() < 4000; cause = cause.getCause()) {
      s.append("; caused by ").append(cause);
    }
    return s.toString();
  }

  static List<String> read(Path results) throws IOException {
    return Files.exists(results) ? Files.readAllLines(results, StandardCharsets.UTF_8) : List.of();
  }
}
