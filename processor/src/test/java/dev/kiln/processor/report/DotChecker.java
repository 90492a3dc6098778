package dev.kiln.processor.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the subset of Graphviz DOT the report writes, strictly: {@code digraph ID { stmt* }} where a
 * statement is {@code graph|node|edge [attrs];}, {@code subgraph ID { stmt* }}, {@code ID [attrs];}
 * or {@code ID -> ID [attrs];}. Quoted strings must close and are decoded as labels are
 * ({@code \"}, {@code \\}, {@code \n}); braces and brackets must balance. Anything else fails.
 */
final class DotChecker {
  /** A node or edge statement, with the cluster it sits in ({@code null} at top level). */
  record Node(String id, String cluster, Map<String, String> attributes) {}

  record Edge(String from, String to, Map<String, String> attributes) {}

  final String name;
  final Map<String, Node> nodes = new LinkedHashMap<>();
  final List<Edge> edges = new ArrayList<>();
  /** Cluster name to its own attributes ({@code graph [..]} inside it). */
  final Map<String, Map<String, String>> clusters = new LinkedHashMap<>();

  private final List<String> tokens = new ArrayList<>();
  /** Parallel to tokens: whether the token was a quoted string. */
  private final List<Boolean> quoted = new ArrayList<>();
  private int at;

  private DotChecker(String dot) {
    tokenize(dot);
    expectWord("digraph");
    name = id();
    block(null);
    if (at != tokens.size()) {
      throw new IllegalArgumentException("tokens after the graph: " + tokens.get(at));
    }
  }

  static DotChecker parse(String dot) {
    return new DotChecker(dot);
  }

  private void block(String cluster) {
    expectWord("{");
    while (!peek().equals("}") || quoted.get(at)) {
      statement(cluster);
    }
    expectWord("}");
  }

  private void statement(String cluster) {
    String head = peek();
    boolean q = quoted.get(at);
    if (!q && head.equals("subgraph")) {
      at++;
      String sub = id();
      if (clusters.containsKey(sub)) {
        throw new IllegalArgumentException("cluster twice: " + sub);
      }
      clusters.put(sub, new LinkedHashMap<>());
      block(sub);
      return;
    }
    if (!q && (head.equals("graph") || head.equals("node") || head.equals("edge"))) {
      at++;
      Map<String, String> attributes = attributes();
      if (head.equals("graph") && cluster != null) {
        clusters.get(cluster).putAll(attributes);
      }
      expectWord(";");
      return;
    }
    String from = id();
    if (peek().equals("->") && !quoted.get(at)) {
      at++;
      String to = id();
      edges.add(new Edge(from, to, peek().equals("[") ? attributes() : Map.of()));
    } else {
      if (nodes.containsKey(from)) {
        throw new IllegalArgumentException("node declared twice: " + from);
      }
      nodes.put(from, new Node(from, cluster, peek().equals("[") ? attributes() : Map.of()));
    }
    expectWord(";");
  }

  private Map<String, String> attributes() {
    Map<String, String> map = new LinkedHashMap<>();
    expectWord("[");
    while (!peek().equals("]") || quoted.get(at)) {
      String key = id();
      expectWord("=");
      map.put(key, id());
      if (peek().equals(",") && !quoted.get(at)) {
        at++;
      }
    }
    expectWord("]");
    return map;
  }

  private String id() {
    String t = next();
    boolean q = quoted.get(at - 1);
    if (!q && !t.matches("[A-Za-z_][A-Za-z0-9_]*|-?[0-9.]+")) {
      throw new IllegalArgumentException("not an ID: " + t);
    }
    return t;
  }

  private void expectWord(String word) {
    String t = next();
    if (quoted.get(at - 1) || !t.equals(word)) {
      throw new IllegalArgumentException("expected " + word + " but got " + t + " (token " + (at - 1) + ")");
    }
  }

  private String peek() {
    if (at >= tokens.size()) {
      throw new IllegalArgumentException("unexpected end of DOT text");
    }
    return tokens.get(at);
  }

  private String next() {
    String t = peek();
    at++;
    return t;
  }

  private void tokenize(String dot) {
    int i = 0;
    while (i < dot.length()) {
      char c = dot.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '"') {
        StringBuilder b = new StringBuilder();
        i++;
        while (true) {
          if (i >= dot.length()) {
            throw new IllegalArgumentException("unterminated string");
          }
          char d = dot.charAt(i++);
          if (d == '"') {
            break;
          }
          if (d == '\n') {
            throw new IllegalArgumentException("raw newline in a string");
          }
          if (d == '\\' && i < dot.length()) {
            char e = dot.charAt(i++);
            b.append(e == 'n' ? '\n' : e);
          } else {
            b.append(d);
          }
        }
        add(b.toString(), true);
      } else if (dot.startsWith("->", i)) {
        add("->", false);
        i += 2;
      } else if ("{}[];,=".indexOf(c) >= 0) {
        add(String.valueOf(c), false);
        i++;
      } else {
        int start = i;
        while (i < dot.length() && (Character.isLetterOrDigit(dot.charAt(i)) || dot.charAt(i) == '_' || dot.charAt(i) == '.')) {
          i++;
        }
        if (i == start) {
          throw new IllegalArgumentException("stray character '" + c + "'");
        }
        add(dot.substring(start, i), false);
      }
    }
  }

  private void add(String token, boolean isQuoted) {
    tokens.add(token);
    quoted.add(isQuoted);
  }
}
