package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * What a Gradle build of a user's project reads of {@code kiln-runtime}: its POM and its parent's,
 * with the properties they declare and none of their profiles (Gradle activates no OS profile).
 * Every dependency must resolve to concrete coordinates that way, and JCuda's natives, which
 * JCuda's own POM names with a classifier only its OS profiles set ({@code
 * ${jcuda.os}-${jcuda.arch}}, the error Gradle users of JCuda meet), must be excluded where JCuda
 * is declared and named by Kiln with a concrete classifier, optional (a CPU-only user resolves none
 * of them; a program for a GPU names them, as the README says). No Gradle could be had on the
 * project's machines (README, "Building with Gradle"): this and {@code PlainJavacTest} (one
 * processor jar on the processor path, as Gradle's {@code annotationProcessor} configuration hands
 * javac) test what such a build relies on.
 */
class GradleMetadataTest {
  private static final Pattern PROPERTY = Pattern.compile("\\$\\{([^}]+)}");

  private static Document read(Path pom) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
  }

  private static Element child(Element e, String name) {
    for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element c && c.getTagName().equals(name)) {
        return c;
      }
    }
    return null;
  }

  private static String text(Element e, String name) {
    Element c = child(e, name);
    return c == null ? null : c.getTextContent().trim();
  }

  private static List<Element> dependencies(Element container) {
    List<Element> out = new ArrayList<>();
    Element deps = container == null ? null : child(container, "dependencies");
    if (deps != null) {
      NodeList list = deps.getElementsByTagName("dependency");
      for (int i = 0; i < list.getLength(); i++) {
        if (list.item(i).getParentNode() == deps) {
          out.add((Element) list.item(i));
        }
      }
    }
    return out;
  }

  private static void properties(Document pom, Map<String, String> into) {
    Element props = child(pom.getDocumentElement(), "properties");
    if (props == null) {
      return;
    }
    for (Node n = props.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element p) {
        into.put(p.getTagName(), p.getTextContent().trim());
      }
    }
  }

  private static String resolve(String value, Map<String, String> properties) {
    if (value == null) {
      return null;
    }
    String v = value;
    for (int round = 0; round < 5 && v.contains("${"); round++) {
      Matcher m = PROPERTY.matcher(v);
      StringBuilder sb = new StringBuilder();
      while (m.find()) {
        String p = properties.get(m.group(1));
        m.appendReplacement(sb, Matcher.quoteReplacement(p == null ? m.group() : p));
      }
      m.appendTail(sb);
      v = sb.toString();
    }
    return v;
  }

  @Test
  void runtimeDependenciesResolveWithoutProfiles() throws Exception {
    Document runtime = read(Path.of("pom.xml"));
    Document parent = read(Path.of("../pom.xml"));
    assertEquals("kiln-runtime", text(runtime.getDocumentElement(), "artifactId"));
    Map<String, String> properties = new HashMap<>();
    properties(parent, properties);
    properties(runtime, properties);
    properties.put("project.version", text(parent.getDocumentElement(), "version"));
    Map<String, Element> managed = new HashMap<>();
    for (Element d : dependencies(child(parent.getDocumentElement(), "dependencyManagement"))) {
      managed.put(text(d, "groupId") + ":" + text(d, "artifactId") + ":" + (text(d, "classifier") == null ? "" : "c"), d);
    }
    int jcuda = 0;
    for (Element d : dependencies(runtime.getDocumentElement())) {
      String scope = text(d, "scope");
      if ("test".equals(scope) || "provided".equals(scope)) {
        continue;
      }
      String key = text(d, "groupId") + ":" + text(d, "artifactId") + ":" + (text(d, "classifier") == null ? "" : "c");
      Element m = managed.get(key);
      String version = text(d, "version") != null ? text(d, "version") : m == null ? null : text(m, "version");
      String coordinates = resolve(text(d, "groupId"), properties) + ":" + resolve(text(d, "artifactId"), properties) + ":"
          + resolve(version, properties) + (text(d, "classifier") == null ? "" : ":" + resolve(text(d, "classifier"), properties));
      assertFalse(coordinates.contains("${") || coordinates.contains("null"),
          "kiln-runtime's dependency " + coordinates + " does not resolve without profiles");
      if (text(d, "groupId").equals("org.jcuda") && text(d, "artifactId").endsWith("-natives")) {
        assertEquals("true", text(d, "optional"), coordinates + ": CPU-only users must not resolve JCuda's natives");
      }
      if (text(d, "groupId").equals("org.jcuda") && !text(d, "artifactId").endsWith("-natives")) {
        jcuda++;
        Element declared = m != null ? m : d;
        Element exclusions = child(declared, "exclusions");
        String natives = text(d, "artifactId") + "-natives";
        assertTrue(exclusions != null && exclusions.getTextContent().contains("jcuda-natives")
                && exclusions.getTextContent().contains(natives),
            coordinates + " must exclude JCuda's natives, which its own POM names with an OS profile's classifier");
      }
    }
    assertTrue(jcuda >= 2, "JCuda and JCublas are runtime dependencies");
    // A profile may build (the JNI shim's, on Unix), but never add or change a dependency or a
    // property: Gradle activates none of them.
    Element profiles = child(runtime.getDocumentElement(), "profiles");
    if (profiles != null) {
      NodeList inside = profiles.getElementsByTagName("*");
      for (int i = 0; i < inside.getLength(); i++) {
        String tag = inside.item(i).getNodeName();
        assertFalse(tag.equals("dependencies") || tag.equals("dependencyManagement")
                || tag.equals("properties"),
            "kiln-runtime's POM declares " + tag + " in a profile, which Gradle never activates");
      }
    }
  }

  /** The reason for the exclusions, where JCuda's POM is in the local Maven repository. */
  @Test
  void jcudasOwnPomNamesItsNativesOnlyThroughOsProfiles() throws Exception {
    Path pom = Path.of(System.getProperty("user.home"), ".m2/repository/org/jcuda/jcuda/12.6.0/jcuda-12.6.0.pom");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(pom), "JCuda's POM is not in ~/.m2 here");
    String text = Files.readString(pom);
    assertTrue(text.contains("<classifier>${jcuda.os}-${jcuda.arch}</classifier>"), "JCuda's POM changed: recheck the exclusions");
  }
}
