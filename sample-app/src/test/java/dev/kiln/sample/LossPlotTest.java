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

  private static Document parse(String svg) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
  }
}
