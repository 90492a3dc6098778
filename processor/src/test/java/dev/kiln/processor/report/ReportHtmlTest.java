package dev.kiln.processor.report;

import static com.google.common.truth.Truth.assertThat;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/** The HTML page: well-formed XML under its doctype, self-contained, one SVG per picture, all text escaped. */
class ReportHtmlTest {
  private static final String DOCTYPE = "<!DOCTYPE html>\n";

  private static Document parse(String html) throws Exception {
    assertThat(html).startsWith(DOCTYPE);
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return f.newDocumentBuilder().parse(new InputSource(new StringReader(html.substring(DOCTYPE.length()))));
  }

  private static List<Element> elements(Document doc, String tag) {
    NodeList list = doc.getElementsByTagName(tag);
    List<Element> out = new ArrayList<>();
    for (int i = 0; i < list.getLength(); i++) {
      out.add((Element) list.item(i));
    }
    return out;
  }

  private static List<Element> withClass(Document doc, String tag, String cls) {
    return elements(doc, tag).stream().filter(e -> List.of(e.getAttribute("class").split(" ")).contains(cls)).toList();
  }

  @Test
  void everyCompositeHasTwoPicturesATableAndItsDot() throws Exception {
    FusionReport report = Fixtures.both();
    String html = ReportHtml.write(report);
    Document doc = parse(html);
    assertThat(doc.getDocumentElement().getTagName()).isEqualTo("html");
    assertThat(elements(doc, "svg")).hasSize(4);
    assertThat(withClass(doc, "section", "composite")).hasSize(2);
    assertThat(elements(doc, "title").get(0).getTextContent()).isEqualTo("Kiln fusion report: dev.kiln.samples.Mixed");

    List<Element> details = elements(doc, "details");
    assertThat(details).hasSize(2);
    List<String> pres = elements(doc, "pre").stream().map(Element::getTextContent).toList();
    assertThat(pres).containsExactly(ReportDot.before(Fixtures.lstm()), ReportDot.after(Fixtures.lstm()),
        ReportDot.before(Fixtures.softmax()), ReportDot.after(Fixtures.softmax())).inOrder();

    String text = doc.getDocumentElement().getTextContent();
    assertThat(text).contains("10 \u2192 1 ");
    assertThat(text).contains("8: 0 allocated, 8 elided");
    assertThat(text).contains("4 \u2192 2 ");
    assertThat(text).contains("3: 1 allocated, 2 elided");
  }

  @Test
  void thePageNeedsNothingFromOutside() {
    String html = ReportHtml.write(Fixtures.both());
    assertThat(html.toLowerCase()).doesNotContain("http");
    assertThat(html.toLowerCase()).doesNotContain("<script");
    assertThat(html.toLowerCase()).doesNotContain("<link");
    assertThat(html.toLowerCase()).doesNotContain(" src=");
    assertThat(html.toLowerCase()).doesNotContain("@import");
    String css = html.substring(html.indexOf("<style>"), html.indexOf("</style>"));
    assertThat(css).doesNotContain("&");
    Matcher url = Pattern.compile("url\\((.)").matcher(html);
    while (url.find()) {
      assertThat(url.group(1)).isEqualTo("#");
    }
  }

  @Test
  void idsAreUniqueAndEveryLocalReferenceResolves() throws Exception {
    String html = ReportHtml.write(Fixtures.both());
    Document doc = parse(html);
    Set<String> ids = new HashSet<>();
    NodeList all = doc.getElementsByTagName("*");
    for (int i = 0; i < all.getLength(); i++) {
      String id = ((Element) all.item(i)).getAttribute("id");
      if (!id.isEmpty()) {
        assertThat(ids.add(id)).isTrue();
      }
    }
    Matcher ref = Pattern.compile("(?:url\\(#|href=\"#)([^)\"]+)").matcher(html);
    int refs = 0;
    while (ref.find()) {
      assertThat(ids).contains(ref.group(1));
      refs++;
    }
    assertThat(refs).isGreaterThan(20);
  }

  @Test
  void theReasonIsEscapedAndReadsBackUnchanged() throws Exception {
    String html = ReportHtml.write(Fixtures.softmaxReport());
    assertThat(html).doesNotContain("<&>");
    assertThat(html).contains("&lt;&amp;&gt;");
    Document doc = parse(html);
    List<String> cells = elements(doc, "td").stream().map(Element::getTextContent).toList();
    assertThat(cells).contains(Fixtures.REASON);
    List<String> edgeTitles = withClass(doc, "g", "materialised").stream()
        .map(g -> ((Element) g.getElementsByTagName("title").item(0)).getTextContent()).toList();
    assertThat(edgeTitles).containsExactly("m: " + Fixtures.REASON);
  }

  @Test
  void theAfterPictureFramesEachKernelAndDrawsEveryNode() throws Exception {
    Document doc = parse(ReportHtml.write(Fixtures.softmaxReport()));
    List<Element> svgs = elements(doc, "svg");
    assertThat(svgs).hasSize(2);
    Element before = svgs.get(0);
    Element after = svgs.get(1);
    assertThat(before.getAttribute("aria-label")).isEqualTo("softmax: before fusion");
    assertThat(after.getAttribute("aria-label")).isEqualTo("softmax: after fusion");
    assertThat(count(before, "kernel")).isEqualTo(0);
    assertThat(count(after, "kernel")).isEqualTo(2);
    assertThat(count(before, "node")).isEqualTo(4 + 5);
    assertThat(count(after, "node")).isEqualTo(4 + 5);
    assertThat(count(after, "fused")).isEqualTo(3);
    assertThat(count(after, "materialised")).isEqualTo(1);
    assertThat(after.getTextContent()).contains("softmax_k0");
    assertThat(after.getTextContent()).contains("softmax_k1");
    assertThat(before.getElementsByTagName("ellipse").getLength()).isEqualTo(5);
    assertThat(before.getElementsByTagName("rect").getLength()).isEqualTo(4);
    assertThat(after.getElementsByTagName("rect").getLength()).isEqualTo(4 + 2);
  }

  private static int count(Element svg, String cls) {
    NodeList groups = svg.getElementsByTagName("g");
    int n = 0;
    for (int i = 0; i < groups.getLength(); i++) {
      n += List.of(((Element) groups.item(i)).getAttribute("class").split(" ")).contains(cls) ? 1 : 0;
    }
    return n;
  }

  @Test
  void anEmptyReportIsAValidPageWithoutPictures() throws Exception {
    String html = ReportHtml.write(Fixtures.empty());
    Document doc = parse(html);
    assertThat(elements(doc, "svg")).isEmpty();
    assertThat(elements(doc, "details")).isEmpty();
    assertThat(doc.getDocumentElement().getTextContent()).contains("no composite operators");
  }

  @Test
  void controlCharactersCannotBreakTheMarkup() throws Exception {
    Document doc = parse(ReportHtml.write(new FusionReport("p.\u0001C<\uD800>", List.of(Fixtures.softmax()))));
    assertThat(elements(doc, "code").get(0).getTextContent()).isEqualTo("p.\uFFFDC<\uFFFD>");
  }
}
