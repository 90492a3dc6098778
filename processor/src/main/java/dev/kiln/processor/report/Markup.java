package dev.kiln.processor.report;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;

/**
 * Builds markup that is both HTML5 and well-formed XML (XHTML-compatible, inline SVG): it escapes
 * every text and attribute value, closes what it opens and checks the tag it closes. Only void HTML
 * elements and SVG shapes may be written self-closed; any other empty element gets an end tag, as
 * an HTML parser reads {@code <div/>} as an open tag.
 */
final class Markup {
  private static final Set<String> SELF_CLOSING = Set.of("meta", "br", "input", "rect", "ellipse", "path", "line", "polygon", "circle");

  private final StringBuilder out = new StringBuilder();
  private final Deque<String> open = new ArrayDeque<>();

  /** Starts an HTML5 document. */
  Markup doctype() {
    out.append("<!DOCTYPE html>\n");
    return this;
  }

  /** Opens {@code tag}; {@code attributes} are name, value pairs, a pair with a null value left out. */
  Markup open(String tag, String... attributes) {
    start(tag, attributes);
    out.append('>');
    open.push(tag);
    return this;
  }

  Markup close(String tag) {
    String top = open.poll();
    if (!tag.equals(top)) {
      throw new IllegalStateException("closing <" + tag + "> while <" + top + "> is open");
    }
    out.append("</").append(tag).append('>');
    return this;
  }

  /** A self-closed element: an HTML void element or an SVG shape. */
  Markup leaf(String tag, String... attributes) {
    if (!SELF_CLOSING.contains(tag)) {
      throw new IllegalArgumentException("<" + tag + "/> is not a void element; open and close it");
    }
    start(tag, attributes);
    out.append("/>");
    return this;
  }

  /** {@code <tag attributes>text</tag>}. */
  Markup element(String tag, String text, String... attributes) {
    return open(tag, attributes).text(text).close(tag);
  }

  /**
   * Text written as it is, for a {@code <style>} element, whose content HTML reads without
   * entities: it must hold neither {@code <} nor {@code &}, which XML would need escaped.
   */
  Markup rawText(String text) {
    if (text.indexOf('<') >= 0 || text.indexOf('&') >= 0) {
      throw new IllegalArgumentException("raw text must hold neither < nor &");
    }
    out.append(text);
    return this;
  }

  Markup text(String text) {
    out.append(escape(text));
    return this;
  }

  Markup newline() {
    out.append('\n');
    return this;
  }

  String finish() {
    if (!open.isEmpty()) {
      throw new IllegalStateException("elements left open: " + open);
    }
    return out.toString();
  }

  private void start(String tag, String... attributes) {
    if (attributes.length % 2 != 0) {
      throw new IllegalArgumentException("attributes come in name, value pairs");
    }
    out.append('<').append(tag);
    for (int i = 0; i < attributes.length; i += 2) {
      if (attributes[i + 1] != null) {
        out.append(' ').append(attributes[i]).append("=\"").append(escape(attributes[i + 1])).append('"');
      }
    }
  }

  /**
   * {@code text} escaped for element content and quoted attribute values alike; a character XML 1.0
   * does not allow (a control character other than tab, newline and return, a lone surrogate) becomes
   * U+FFFD. Null is the empty string.
   */
  static String escape(String text) {
    if (text == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&': b.append("&amp;"); break;
        case '<': b.append("&lt;"); break;
        case '>': b.append("&gt;"); break;
        case '"': b.append("&quot;"); break;
        case '\'': b.append("&#39;"); break;
        default:
          if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
            b.append(c).append(text.charAt(++i));
          } else if (Character.isSurrogate(c) || (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
              || c == 0xFFFE || c == 0xFFFF) {
            b.append('\uFFFD');
          } else {
            b.append(c);
          }
      }
    }
    return b.toString();
  }
}
