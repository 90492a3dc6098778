package dev.kiln.sample;

import java.util.HashMap;
import java.util.Map;

/**
 * The sample's command-line flags: sizes of the LSTM, how long to time, the random seed, how many
 * training steps, where to draw them.
 */
record Options(int batch, int input, int hidden, int classes, int steps, int reps, long seed, int train, String plot) {

  /** {@code --plot none}: no picture. */
  static final String NO_PLOT = "none";

  static final Options DEFAULTS = new Options(32, 64, 128, 16, 8, 9, 42L, 10, "kiln-training.svg");

  /** Thrown for a flag the sample does not know or a value it cannot use; the message says which. */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  static String usage() {
    return String.join("\n",
        "usage: java -jar sample-app/target/kiln-sample-app.jar [flags]",
        "",
        "Runs a small LSTM forward pass (affine + lstmCell per time step, then affine + softmax)",
        "as plain Java and as Kiln's generated kernels, checks that they agree within 1e-5 and",
        "prints a timing table. Then trains the LSTM with Kiln's generated gradients: checks them",
        "against finite differences of the plain-Java forward pass and prints the loss of each",
        "gradient-descent step. Exits 1 if a kernel or a gradient disagrees or the loss does not",
        "decrease, 2 on a bad flag.",
        "",
        "flags (--name VALUE or --name=VALUE; positive integers, --train also 0):",
        "  --batch N     rows per time step        (default " + DEFAULTS.batch + ")",
        "  --hidden N    LSTM hidden size H        (default " + DEFAULTS.hidden + ")",
        "  --steps N     time steps T              (default " + DEFAULTS.steps + ")",
        "  --input N     input features per step   (default " + DEFAULTS.input + ")",
        "  --classes N   softmax classes           (default " + DEFAULTS.classes + ")",
        "  --reps N      timed repetitions, median (default " + DEFAULTS.reps + ")",
        "  --seed N      random seed of the data   (default " + DEFAULTS.seed + ")",
        "  --train N     training steps; 0: none   (default " + DEFAULTS.train + ")",
        "  --plot FILE   the training's loss curve and step times as SVG; none: no file",
        "                                          (default " + DEFAULTS.plot + ")",
        "  --help        print this and exit",
        "",
        "system properties: -Dkiln.cpu.threads=N (kernel threads), -Dkiln.device=cpu|cuda");
  }

  /** True when the arguments ask for help. */
  static boolean wantsHelp(String[] args) {
    for (String a : args) {
      if (a.equals("--help") || a.equals("-h")) {
        return true;
      }
    }
    return false;
  }

  static Options parse(String[] args) throws UsageException {
    Map<String, Long> given = new HashMap<>();
    String plot = DEFAULTS.plot;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        throw new UsageException("unexpected argument '" + arg + "'; flags start with --");
      }
      int eq = arg.indexOf('=');
      String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
      if (!isFlag(name)) {
        throw new UsageException("unknown flag --" + name);
      }
      String text;
      if (eq >= 0) {
        text = arg.substring(eq + 1);
      } else if (i + 1 < args.length) {
        text = args[++i];
      } else {
        throw new UsageException("--" + name + " needs a value");
      }
      if (name.equals("plot")) {
        if (text.isBlank()) {
          throw new UsageException("--plot needs a file name (or none)");
        }
        plot = text;
        continue;
      }
      given.put(name, name.equals("train") ? nonNegative(name, text) : positive(name, text));
    }
    Options o = new Options(
        intValue(given, "batch", DEFAULTS.batch),
        intValue(given, "input", DEFAULTS.input),
        intValue(given, "hidden", DEFAULTS.hidden),
        intValue(given, "classes", DEFAULTS.classes),
        intValue(given, "steps", DEFAULTS.steps),
        intValue(given, "reps", DEFAULTS.reps),
        given.getOrDefault("seed", DEFAULTS.seed),
        intValue(given, "train", DEFAULTS.train),
        plot);
    o.checkArraySizes();
    return o;
  }

  /** Width of the affine's input row: the step's input and the previous hidden state, side by side. */
  int concat() {
    return input + hidden;
  }

  private static boolean isFlag(String name) {
    switch (name) {
      case "batch": case "input": case "hidden": case "classes": case "steps": case "reps": case "seed":
      case "train": case "plot":
        return true;
      default:
        return false;
    }
  }

  private static long nonNegative(String name, String text) throws UsageException {
    if (text.trim().equals("0")) {
      return 0;
    }
    try {
      return positive(name, text);
    } catch (UsageException e) {
      throw new UsageException("--" + name + " needs 0 or a positive integer, not '" + text + "'");
    }
  }

  private static long positive(String name, String text) throws UsageException {
    long value;
    try {
      value = Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new UsageException("--" + name + " needs a positive integer, not '" + text + "'");
    }
    if (value < 1) {
      throw new UsageException("--" + name + " needs a positive integer, not " + value);
    }
    return value;
  }

  private static int intValue(Map<String, Long> given, String name, int fallback)
      throws UsageException {
    long value = given.getOrDefault(name, (long) fallback);
    if (value > Integer.MAX_VALUE) {
      throw new UsageException("--" + name + " " + value + " is too large");
    }
    return (int) value;
  }

  /** Every array the sample allocates must fit a Java array (and, in all, a sensible heap). */
  private void checkArraySizes() throws UsageException {
    long k = (long) input + hidden;
    long[][] arrays = {
        {batch, k}, {k, 4L * hidden}, {batch, 4L * hidden}, {hidden, classes}, {batch, classes},
        {steps, batch, input}};
    for (long[] extents : arrays) {
      long n = 1;
      for (long e : extents) {
        n *= e;
        if (n > (1L << 28)) {
          throw new UsageException("these sizes need an array of more than 2^28 floats; use smaller flags");
        }
      }
    }
  }
}
