package dev.kiln.processor.ir.io;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kiln.processor.ir.ExprFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What the reader says about text it cannot read: the line, and what it expected there. */
class IrReaderErrorsTest {
  /** A small valid text: an elementwise and a grid operator with a loop (line numbers matter below). */
  private static final String VALID = String.join("\n",
      "kiln-ir 1",                                        // 1
      "operators 2",                                      // 2
      "",                                                 // 3
      "operator t.Ops half elementwise",                  // 4
      "  param scalar x 0 f32",                           // 5
      "  result-type f32",                                // 6
      "  n0 = scalar f32 x",                              // 7
      "  n1 = const f32 0x1.0p-1",                        // 8
      "  n2 = mul f32 n0 n1",                             // 9
      "  result n2",                                      // 10
      "end",                                              // 11
      "",                                                 // 12
      "operator t.Ops rowSum grid",                       // 13
      "  param scalar N 0 i32 dim",                       // 14
      "  param scalar K 1 i32 dim",                       // 15
      "  param array x 2 in f32 [N, K] \"N, K\"",         // 16
      "  param array y 3 out f32 [N] \"N\"",              // 17
      "  n0 = var i32 grid i",                            // 18
      "  n1 = var i32 loop_index k",                      // 19
      "  n2 = const i32 0",                               // 20
      "  n3 = scalar i32 K",                              // 21
      "  n4 = var f32 carried acc",                       // 22
      "  n5 = const f32 0x0.0p0",                         // 23
      "  n6 = mul i32 n0 n3",                             // 24
      "  n7 = add i32 n6 n1",                             // 25
      "  n8 = const bool true",                           // 26
      "  n9 = load f32 x n7 n8 @1",                       // 27
      "  n10 = add f32 n4 n9",                            // 28
      "  n11 = var f32 loop_result acc_2",                // 29
      "  grid n0 N",                                      // 30
      "  name n10 acc",                                   // 31
      "  loop 1 n1 n2 n3 step 1 if n8 {",                 // 32
      "    carry n4 init n5 next n10 result n11",         // 33
      "  }",                                              // 34
      "  store y n0 n11 if n8",                           // 35
      "end",                                              // 36
      "");

  private static IrFormatException refused(String text) {
    return assertThrows(IrFormatException.class, () -> new IrReader(new ExprFactory()).read(text));
  }

  /** VALID with line {@code n} (1-based) replaced by {@code replacement} (null: deleted). */
  private static String edit(int n, String replacement) {
    List<String> lines = new ArrayList<>(Arrays.asList(VALID.split("\n", -1)));
    if (replacement == null) {
      lines.remove(n - 1);
    } else {
      lines.set(n - 1, replacement);
    }
    return String.join("\n", lines);
  }

  @Test
  void theValidTextReads() throws IrFormatException {
    assertThat(new IrReader(new ExprFactory()).read(VALID)).hasSize(2);
  }

  @Test
  void anotherVersionIsRefusedNamingBothVersions() {
    IrFormatException e = refused(VALID.replaceFirst("kiln-ir 1", "kiln-ir 2"));
    assertThat(e).isInstanceOf(IrVersionException.class);
    assertThat(((IrVersionException) e).found()).isEqualTo(2);
    assertThat(e.line()).isEqualTo(1);
    assertThat(e.getMessage()).startsWith("line 1: ");
    assertThat(e.getMessage()).contains("kiln-ir 2");
    assertThat(e.getMessage()).contains("kiln-ir 1");
    assertThat(e.getMessage()).contains("rebuild the library with this Kiln");
  }

  @Test
  void textThatIsNotIrIsRefusedOnItsFirstLine() {
    for (String text : List.of("", "<html>", "kiln-ir", "kiln-ir one", "operators 1\nkiln-ir 1")) {
      IrFormatException e = refused(text);
      assertThat(e).isNotInstanceOf(IrVersionException.class);
      assertThat(e.line()).isEqualTo(1);
      assertThat(e.problem()).contains("not Kiln IR: the first line must be 'kiln-ir 1'");
    }
  }

  /** Every prefix that stops before the last 'end' is refused, never read as fewer operators. */
  @Test
  void everyTruncationIsRefusedWithALineNumber() {
    int lines = VALID.split("\n", -1).length;
    int lastEnd = VALID.lastIndexOf("\nend") + 1;
    for (int cut = 0; cut < lastEnd + 3; cut++) {
      IrFormatException e = refused(VALID.substring(0, cut));
      assertWithMessage("cut at %s: %s", cut, e.getMessage()).that(e.line()).isIn(com.google.common.collect.Range.closed(1, lines));
    }
  }

  @Test
  void truncationAtAnOperatorsEndSaysHowManyWereAnnounced() {
    IrFormatException e = refused(VALID.substring(0, VALID.indexOf("\n\noperator t.Ops rowSum")));
    assertThat(e.problem()).isEqualTo("unexpected end of input: 2 operators announced, 1 found (is the file truncated?)");
  }

  static Stream<Arguments> garbled() {
    return Stream.of(
        Arguments.of(9, "  n2 = mul f32 n0 n7", 9, "node n7 is used before it is defined"),
        Arguments.of(9, "  n2 = frob f32 n0 n1", 9, "unknown node kind 'frob'"),
        Arguments.of(9, "  n2 = mul i32 n0 n1", 9, "node n2 is declared i32 but is f32"),
        Arguments.of(9, "  n3 = mul f32 n0 n1", 9, "node n3 is out of order: the next node is n2"),
        Arguments.of(9, "  n2 = mul f32 n0", 9, "the line ends where a node (n<number>) was expected"),
        Arguments.of(9, "  n2 = mul f32 n0 n1 n1", 9, "expected a loop scope (@k), found 'n1'"),
        Arguments.of(9, "  n2 = neg f32 n0 n1", 9, "unexpected 'n1' at the end of the line"),
        Arguments.of(8, "  n1 = const f32 0.5", 8, "expected a floating literal in Java's hexadecimal form"),
        Arguments.of(8, "  n1 = const f32 0x1.999999999999ap-4", 8, "literal 0x1.999999999999ap-4 is not a float value"),
        Arguments.of(5, "  param scalar x 1 f32", 5, "parameter 'x' is at position 1, expected 0"),
        Arguments.of(7, "  n0 = scalar f32 z", 7, "'z' is not a scalar parameter of this operator"),
        Arguments.of(6, "  result-type f16", 6, "unknown type 'f16'"),
        Arguments.of(10, null, 10, "operator 'half' (line 4) is elementwise but has no result"),
        Arguments.of(16, "  param array x 2 in f32 [N, K] \"N, K", 16, "a string opened with '\"' is not closed"),
        Arguments.of(16, "  param array x 2 in f32 [N, 2*] \"N, K\"", 16, "malformed polynomial '2*'"),
        Arguments.of(16, "  param array x 2 inout f32 [N, K] \"N, K\"", 16, "unknown array role 'inout'"),
        Arguments.of(27, "  n9 = load f32 x n7 n8", 27, "the line ends where a loop scope (@k) was expected"),
        Arguments.of(27, "  n9 = load f32 x n8 n7 @1", 27, "an index must be i32, but it is bool"),
        Arguments.of(29, "  n11 = var f32 loop_result acc", 29, "variable 'acc' is defined twice in this operator"),
        Arguments.of(30, "  grid n2 N", 30, "a grid variable must be a variable node"),
        Arguments.of(33, "    carry n4 init n5 next n10", 33, "the line ends where 'result' was expected"),
        Arguments.of(34, null, 35, "the loop opened on line 32 is not closed"),
        Arguments.of(35, "  store x n0 n11 if n8", 35, "'x' is an array of role in, here one of role out is expected"),
        Arguments.of(35, "  store z n0 n11 if n8", 35, "'z' is not an array parameter of this operator"),
        Arguments.of(35, "  store y n0 n11 when n8", 35, "expected 'if', found 'when'"),
        Arguments.of(35, "  } ", 35, "'}' closes no loop"),
        Arguments.of(35, "  combine 0 s y n0 n11 if n8", 35, "monoid 0 is not defined before this combine"),
        Arguments.of(35, "  monoid 1 R m 1 components v left n4 right n11 combined n10 identity n5", 35,
            "monoid 1 is out of order: the next monoid is 0"),
        Arguments.of(35, "  monoid 0 R m 1 components v left n4 right n11 combined n10 identity n9", 35,
            "a monoid's identity is a constant per component"),
        Arguments.of(35, "  monoid 0 R m 1 components v left n5 right n11 combined n10 identity n5", 35,
            "a monoid's operand must be a variable node"),
        Arguments.of(17, "  param array y 3 out f32 [N] \"N\" record s p.R v 1 1", 17,
            "component 1 of a record of 1 components"),
        Arguments.of(36, "end\noperator t.Ops extra grid", 37, "unexpected line after the last of the 2 operators announced"),
        Arguments.of(13, "operator t.Ops rowSum composite", 13, "unknown operator kind (elementwise or grid) 'composite'"),
        Arguments.of(2, "operators two", 2, "expected the number of operators (an integer), found 'two'"));
  }

  @ParameterizedTest(name = "line {0} -> {3}")
  @MethodSource("garbled")
  void garbledLinesAreRefusedOnTheirLine(int line, String replacement, int expectedLine, String expected) {
    IrFormatException e = refused(edit(line, replacement));
    assertWithMessage(e.getMessage()).that(e.line()).isEqualTo(expectedLine);
    assertThat(e.problem()).contains(expected);
    assertThat(e.getMessage()).isEqualTo("line " + expectedLine + ": " + e.problem());
  }

  /** Whatever a single line's loss or damage does, the reader answers with text, never a crash. */
  @Test
  void damagedLinesGiveAFormatErrorOrValidIrNeverAnotherException() {
    String[] lines = VALID.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      List<String> variants = new ArrayList<>();
      variants.add(edit(i + 1, null));
      String[] tokens = lines[i].strip().split(" ");
      for (int t = 0; t + 1 < tokens.length; t++) {
        String[] swapped = tokens.clone();
        swapped[t] = tokens[t + 1];
        swapped[t + 1] = tokens[t];
        variants.add(edit(i + 1, "  " + String.join(" ", swapped)));
      }
      for (String v : variants) {
        try {
          new IrReader(new ExprFactory()).read(v);
        } catch (IrFormatException expected) {
          assertThat(expected.line()).isAtLeast(1);
        } catch (RuntimeException bug) {
          throw new AssertionError("line " + (i + 1) + " damaged as:\n" + v, bug);
        }
      }
    }
  }
}
