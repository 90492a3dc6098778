package dev.kiln.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The training run as a picture: one standalone SVG file (no script, no external resource; any
 * browser shows it) with the loss of each step as a line, and below it each step's time as a bar,
 * forward and backward stacked. Written from a small template: the sample needs two charts, not a
 * plotting library.
 */
final class LossPlot {
  static final int WIDTH = 760;
  static final int HEIGHT = 520;
  private static final int LEFT = 70;
  private static final int RIGHT = 24;
  private static final int LOSS_TOP = 56;
  private static final int LOSS_HEIGHT = 230;
  private static final int TIME_TOP = 340;
  private static final int TIME_HEIGHT = 120;
  private static final String FORWARD_COLOUR = "#2b6cb0";
  private static final String BACKWARD_COLOUR = "#dd6b20";

  private LossPlot() {}

  /**
   * The SVG for {@code losses[s]}, the loss before step {@code s + 1}, and the steps' times in
   * milliseconds; {@code title} heads the picture. Non-finite losses are left out of the line.
   */
  static String svg(String title, float[] losses, double[] forwardMs, double[] backwardMs) {
    int steps = losses.length;
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
        + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, HEIGHT, WIDTH, HEIGHT));
    s.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, HEIGHT));
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"28\" font-size=\"16\" font-weight=\"bold\">%s</text>%n",
        LEFT, escape(title)));

    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (float l : losses) {
      if (Float.isFinite(l)) {
        lo = Math.min(lo, l);
        hi = Math.max(hi, l);
      }
    }
    if (!(lo <= hi)) {
      lo = 0;
      hi = 1;
    } else if (hi - lo < 1e-6) {
      lo -= 0.5;
      hi += 0.5;
    }
    s.append(axisTitle("loss (mean cross-entropy) before each step", LOSS_TOP - 8));
    yAxis(s, LOSS_TOP, LOSS_HEIGHT, lo, hi, "%.3f");
    StringBuilder points = new StringBuilder();
    StringBuilder dots = new StringBuilder();
    for (int i = 0; i < steps; i++) {
      if (!Float.isFinite(losses[i])) {
        continue;
      }
      double x = stepX(i, steps);
      double y = LOSS_TOP + LOSS_HEIGHT * (hi - losses[i]) / (hi - lo);
      points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
      dots.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>step %d:"
          + " loss %.4f</title></circle>%n", x, y, FORWARD_COLOUR, i + 1, losses[i]));
    }
    s.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>%n",
        FORWARD_COLOUR, points.toString().trim()));
    s.append(dots);
    xLabels(s, steps, LOSS_TOP + LOSS_HEIGHT);

    double longest = 0;
    for (int i = 0; i < steps; i++) {
      longest = Math.max(longest, forwardMs[i] + backwardMs[i]);
    }
    longest = longest > 0 ? longest : 1;
    s.append(axisTitle("time per step, ms: forward (blue) and backward with the update (orange)", TIME_TOP - 8));
    yAxis(s, TIME_TOP, TIME_HEIGHT, 0, longest, "%.1f");
    double slot = (WIDTH - LEFT - RIGHT) / (double) Math.max(1, steps);
    double bar = Math.max(1, slot * 0.6);
    for (int i = 0; i < steps; i++) {
      double x = stepX(i, steps) - bar / 2;
      double f = TIME_HEIGHT * forwardMs[i] / longest;
      double b = TIME_HEIGHT * backwardMs[i] / longest;
      double base = TIME_TOP + TIME_HEIGHT;
      s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
          + "<title>step %d: forward %.3f ms</title></rect>%n", x, base - f, bar, f, FORWARD_COLOUR, i + 1, forwardMs[i]));
      s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
          + "<title>step %d: backward and update %.3f ms</title></rect>%n", x, base - f - b, bar, b, BACKWARD_COLOUR,
          i + 1, backwardMs[i]));
    }
    xLabels(s, steps, TIME_TOP + TIME_HEIGHT);
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">training step</text>%n",
        (LEFT + WIDTH - RIGHT) / 2, HEIGHT - 8));
    s.append("</svg>\n");
    return s.toString();
  }

  /** Writes {@link #svg} to {@code file}, creating its directory. */
  static void write(Path file, String title, float[] losses, double[] forwardMs, double[] backwardMs)
      throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    Files.writeString(file, svg(title, losses, forwardMs, backwardMs), StandardCharsets.UTF_8);
  }

  private static double stepX(int i, int steps) {
    double slot = (WIDTH - LEFT - RIGHT) / (double) Math.max(1, steps);
    return LEFT + slot * (i + 0.5);
  }

  private static String axisTitle(String text, int y) {
    return String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#333\">%s</text>%n", LEFT, y, escape(text));
  }

  /** The left axis from {@code lo} (bottom) to {@code hi} (top), five labelled grid lines. */
  private static void yAxis(StringBuilder s, int top, int height, double lo, double hi, String format) {
    for (int k = 0; k <= 4; k++) {
      double y = top + height * k / 4.0;
      double value = hi - (hi - lo) * k / 4.0;
      s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
          LEFT, y, WIDTH - RIGHT, y));
      s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">"
          + format + "</text>%n", LEFT - 6, y + 4, value));
    }
    s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n",
        LEFT, top, LEFT, top + height));
  }

  /** Step numbers under an axis at {@code y}: every step up to 20, else about 10 of them. */
  private static void xLabels(StringBuilder s, int steps, int y) {
    s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n",
        LEFT, y, WIDTH - RIGHT, y));
    int every = steps <= 20 ? 1 : (int) Math.ceil(steps / 10.0);
    for (int i = 0; i < steps; i++) {
      if ((i + 1) % every == 0 || i == 0) {
        s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%d</text>%n",
            stepX(i, steps), y + 16, i + 1));
      }
    }
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
