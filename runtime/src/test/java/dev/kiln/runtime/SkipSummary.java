package dev.kiln.runtime;

import java.util.Map;
import java.util.TreeMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Says, at the end of a test run, why tests were skipped, grouped by reason (a disabled test, or an
 * assumption that failed, such as "no CUDA here"): Maven's summary only counts them, and the reasons
 * were in the XML reports alone. Registered with the JUnit Platform launcher in {@code
 * META-INF/services}, for this module's tests and, through its test jar, the tests module's.
 */
public final class SkipSummary implements TestExecutionListener {
  private static final int MAX_REASON = 240;

  private final Map<String, Integer> reasons = new TreeMap<>();

  @Override
  public synchronized void executionSkipped(TestIdentifier test, String reason) {
    count(reason);
  }

  @Override
  public synchronized void executionFinished(TestIdentifier test, TestExecutionResult result) {
    if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
      count(result.getThrowable().map(Throwable::getMessage).orElse("aborted, no reason given"));
    }
  }

  @Override
  public synchronized void testPlanExecutionFinished(TestPlan plan) {
    if (reasons.isEmpty()) {
      return;
    }
    int total = reasons.values().stream().mapToInt(Integer::intValue).sum();
    StringBuilder text = new StringBuilder("Skipped " + total + (total == 1 ? " test" : " tests") + ", because:\n");
    reasons.forEach((reason, n) -> text.append(String.format("  %4d x %s%n", n, reason)));
    System.out.print(text);
    reasons.clear();
  }

  private void count(String reason) {
    String text = reason == null || reason.isBlank() ? "no reason given" : reason.strip();
    text = text.replaceFirst("^Assumption failed: ", "");
    int line = text.indexOf('\n');
    if (line >= 0) {
      text = text.substring(0, line);
    }
    if (text.length() > MAX_REASON) {
      text = text.substring(0, MAX_REASON) + "...";
    }
    reasons.merge(text, 1, Integer::sum);
  }
}
