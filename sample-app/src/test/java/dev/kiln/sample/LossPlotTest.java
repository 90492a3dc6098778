package dev.kiln.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The sample's training picture: well-formed SVG with the loss line and the step bars, and the run writes it. */
class LossPlotTest {
  @Test
  void theSvgIsWellFormedWithOnePointAndTwoBarsPerStep() throws Exception {
    float[] losses = {2.7f, 2.1f, Float.NaN, 1.2f, 0.5f};
    double[] forward = {3, 2.5, 2.4, 2.6, 2.5};
    double[] backward = {5, 4, 4.2, 3.9, 4.1};
    Document doc = parse(LossPlot.svg("a <title> & more", losses, forward, backward));
    Element root = doc.getDocumentElement();
    assertEquals("svg", root.getTagName());
    assertEquals(String.valueOf(LossPlot.WIDTH), root.getAttribute("width"));
    NodeList lines = doc.getElementsByTagName("polyline");
    assertEquals(1, lines.getLength());
    String[] points = ((Element) lines.item(0)).getAttribute("points").trim().split(" ");
    assertEquals(4, points.length, "the NaN loss is left out of the line");
    // the highest loss at the top of the panel, the lowest at its bottom
    double firstY = Double.parseDouble(points[0].split(",")[1]);
    double lastY = Double.parseDouble(points[3].split(",")[1]);
    assertTrue(firstY < lastY, firstY + " vs " + lastY);
    assertEquals(4, doc.getElementsByTagName("circle").getLength());
    assertEquals(1 + 2 * losses.length, doc.getElementsByTagName("rect").getLength(), "background and two bars a step");
    assertTrue(doc.getElementsByTagName("text").item(0).getTextContent().equals("a <title> & more"));
  }

  @Test
  void theTrainingRunDrawsItsLossCurveWhereToldAndNotWithNone(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("plots/run.svg");
    Options options = Options.parse(new String[] {"--batch", "4", "--hidden", "8", "--input", "4", "--steps", "3",
        "--classes", "3", "--reps", "1", "--train", "4", "--plot", file.toString()});
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    StringBuilder failures = new StringBuilder();
    new TrainingRun(options, new PrintStream(text, true, StandardCharsets.UTF_8)).run(false, failures);
    String out = text.toString(StandardCharsets.UTF_8);
    assertTrue(out.contains("loss curve and step times drawn in " + file.toAbsolutePath()), out);
    Document doc = parse(Files.readString(file, StandardCharsets.UTF_8));
    assertEquals(4, doc.getElementsByTagName("circle").getLength());

    Options none = Options.parse(new String[] {"--batch", "4", "--hidden", "8", "--input", "4", "--steps", "3",
        "--classes", "3", "--reps", "1", "--train", "2", "--plot", "none"});
    ByteArrayOutputStream quiet = new ByteArrayOutputStream();
    new TrainingRun(none, new PrintStream(quiet, true, StandardCharsets.UTF_8)).run(false, new StringBuilder());
    assertTrue(!quiet.toString(StandardCharsets.UTF_8).contains("drawn in"));
  }

  /**
   * A headless browser (Chromium, where installed: {@code .ci/run} installs it) draws the picture: the
   * loss line in the upper panel and both colours of bars in the lower one, in a screenshot of the
   * SVG file as the sample writes it.
   */
  @Test
  void aHeadlessBrowserDrawsThePlot(@TempDir Path dir) throws Exception {
    Path browser = null;
    for (String name : new String[] {"chromium", "chromium-browser", "google-chrome"}) {
      for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
        if (browser == null && !d.isEmpty() && Files.isExecutable(Path.of(d, name))) {
          browser = Path.of(d, name);
        }
      }
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(browser != null,
        "no headless browser here (chromium is not installed; .ci/run installs Debian's)");
    float[] losses = {2.7f, 2.1f, 1.6f, 1.2f, 0.5f};
    double[] forward = {3, 2.5, 2.4, 2.6, 2.5};
    double[] backward = {5, 4, 4.2, 3.9, 4.1};
    Path svg = dir.resolve("plot.svg");
    Files.writeString(svg, LossPlot.svg("a picture for the browser", losses, forward, backward), StandardCharsets.UTF_8);
    Path png = dir.resolve("plot.png");
    Process p = new ProcessBuilder(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
        "--window-size=" + LossPlot.WIDTH + "," + LossPlot.HEIGHT, "--screenshot=" + png, svg.toUri().toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("browser.txt").toFile()).start();
    assertTrue(p.waitFor(2, java.util.concurrent.TimeUnit.MINUTES), "the browser did not finish");
    assertTrue(Files.exists(png), Files.readString(dir.resolve("browser.txt")));
    java.awt.image.BufferedImage image = javax.imageio.ImageIO.read(png.toFile());
    int half = image.getHeight() / 2;
    int[] blueAbove = {0};
    int[] blueBelow = {0};
    int[] orangeBelow = {0};
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        int rgb = image.getRGB(x, y) & 0xffffff;
        if (near(rgb, 0x2b6cb0)) {
          (y < half ? blueAbove : blueBelow)[0]++;
        } else if (near(rgb, 0xdd6b20) && y >= half) {
          orangeBelow[0]++;
        }
      }
    }
    assertTrue(blueAbove[0] > 200, "the loss line: " + blueAbove[0] + " pixels");
    assertTrue(blueBelow[0] > 1000 && orangeBelow[0] > 1000, "the bars: " + blueBelow[0] + " and " + orangeBelow[0] + " pixels");
  }

  private static boolean near(int rgb, int colour) {
    for (int shift = 0; shift < 24; shift += 8) {
      if (Math.abs(((rgb >> shift) & 0xff) - ((colour >> shift) & 0xff)) > 24) {
        return false;
      }
    }
    return true;
  }

  private static Document parse(String svg) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
  }
}
