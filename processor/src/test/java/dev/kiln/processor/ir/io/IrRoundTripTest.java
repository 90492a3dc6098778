package dev.kiln.processor.ir.io;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.kiln.processor.KilnProcessor;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.io.IrPrinter;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.OperatorKind;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every operator the processor tests compile, and those of the {@code tests} module, written as IR
 * text and read back: the same IR, field by field, the same printed listing, the same text again.
 */
class IrRoundTripTest {
  private static final List<String> PROCESSOR_SOURCES =
      List.of("ir/Cells.java", "ir/RaceFree.java", "ir/LateCallee.java", "ir/io/Edges.java", "ir/io/MonoidOps.java");

  private static Compilation compilation;
  private static IrCapture capture;
  /** The classes compiled: the processor's fixtures and every operator class of the tests module. */
  private static int sourceCount;

  @BeforeAll
  static void compile() throws IOException, URISyntaxException {
    List<JavaFileObject> sources = new ArrayList<>();
    PROCESSOR_SOURCES.forEach(s -> sources.add(JavaFileObjects.forResource(s)));
    Path ops = Paths.get(IrRoundTripTest.class.getResource("/tests-ops/dev/kiln/tests/ops").toURI());
    try (Stream<Path> files = Files.list(ops)) {
      for (Path p : files.sorted().toList()) {
        sources.add(JavaFileObjects.forResource(p.toUri().toURL()));
      }
    }
    assertThat(sources.size()).isAtLeast(PROCESSOR_SOURCES.size() + 10);
    sourceCount = sources.size();
    capture = new IrCapture();
    compilation = javac().withProcessors(new KilnProcessor(), capture).compile(sources);
    assertThat(compilation).succeeded();
  }

  @Test
  void everyOperatorReadsBackAsTheSameIr() throws IrFormatException {
    assertThat(capture.operators.size()).isAtLeast(60);
    for (OperatorIr op : capture.operators) {
      String text = IrWriter.write(List.of(op));
      List<OperatorIr> back = new IrReader(new ExprFactory()).read(text);
      assertThat(back).hasSize(1);
      assertThat(IrPrinter.print(back.get(0))).isEqualTo(IrPrinter.print(op));
      IrAssert.assertSameIr(op, back.get(0));
      assertThat(IrWriter.write(back)).isEqualTo(text);
    }
  }

  @Test
  void theSourcesCoverEveryKindOfStatementAndNode() {
    List<String> texts = capture.operators.stream().map(op -> IrWriter.write(List.of(op))).toList();
    for (String needle : List.of(" elementwise\n", " grid\n", "  store ", "  accumulate sum ",
        "  accumulate product ", "  accumulate max ", "  accumulate min ", "  loop ", "    loop ",
        "  carry ", " step 2 ", " = load ", " = select ", " = cast ", " = call f64 fma ", " = neg ",
        " = not ", " = bitnot ", " = ushr ", " = div i32 ", " @1\n", " = var i32 grid ",
        " = var f32 carried ", " = var f32 loop_result ", " = const f32 NaN", " = const f64 -0x0.0p0",
        " = const f32 -Infinity", " = const i64 -9223372036854775808", "  name ", " dim\n",
        " reduce f64 [B] ", " [M, 2*K + 1] ", " size [4*H]", "  monoid 0 Stats combine 3 components n mean m2 ",
        "  monoid 1 Best better 2 components value index ", " gradient gradient total ", "  combine 0 s s_n s_mean s_m2 ",
        "    combine 0 ", "  combine 1 m m_value m_index ")) {
      assertWithMessage("some operator's IR contains '%s'", needle)
          .that(texts.stream().anyMatch(t -> t.contains(needle))).isTrue();
    }
  }

  /** The .kir and .ir.txt resources the processor wrote for each class agree. */
  @Test
  void theProcessorsIrResourceReadsBackToItsListing() throws IOException, IrFormatException {
    int classes = 0;
    for (JavaFileObject kir : compilation.generatedFiles()) {
      String path = kir.toUri().getPath();
      if (!path.endsWith(".kir")) {
        continue;
      }
      classes++;
      String prefix = "/" + StandardLocation.CLASS_OUTPUT.getName() + "/";
      String resource = "META-INF/kiln/" + path.substring(prefix.length()).replaceAll("\\.kir$", ".ir.txt");
      String listing = compilation.generatedFile(StandardLocation.CLASS_OUTPUT, resource).orElseThrow()
          .getCharContent(true).toString();
      // the operators' part: not the training forms the processor makes of them (composites
      // `fSaving`, which no source declares), nor the listing's later sections
      for (String section : List.of("\ncomposite ", "\n# Matrix products as library GEMM leaves", "\n# SIMD forms of the CPU grid kernels")) {
        int at = listing.indexOf(section);
        listing = at < 0 ? listing : listing.substring(0, at);
      }
      List<OperatorIr> ops = new IrReader(new ExprFactory()).read(kir.getCharContent(true).toString());
      StringBuilder printed = new StringBuilder("# Kiln IR of " + ops.get(0).owner() + ", written by the Kiln processor.\n");
      ops.forEach(op -> printed.append('\n').append(IrPrinter.print(op)));
      assertThat(printed.toString()).isEqualTo(listing);
    }
    assertThat(classes).isEqualTo(sourceCount); // one IR resource per class
  }

  @Test
  void aClassReadTwiceIntoOneFactorySharesItsNodesButNotItsVariables() throws IOException, IrFormatException {
    String text = compilation.generatedFile(StandardLocation.CLASS_OUTPUT, "ir/Cells.kir").orElseThrow()
        .getCharContent(true).toString();
    ExprFactory f = new ExprFactory();
    Map<String, OperatorIr> first = byName(new IrReader(f).read(text));
    Map<String, OperatorIr> second = byName(new IrReader(f).read(text));
    OperatorIr.Elementwise sigmoid = (OperatorIr.Elementwise) first.get("sigmoid");
    assertThat(((OperatorIr.Elementwise) second.get("sigmoid")).result()).isSameInstanceAs(sigmoid.result());
    Expr x = f.scalar((Param.Scalar) sigmoid.params().get(0));
    assertThat(x).isSameInstanceAs(((Expr.Unary) sigmoid.result().operands().get(1).operands().get(1).operands().get(0)).operand());
    Expr.Var i1 = ((OperatorIr.Grid) first.get("saxpy")).grid().get(0).var();
    Expr.Var i2 = ((OperatorIr.Grid) second.get("saxpy")).grid().get(0).var();
    assertThat(i2).isNotSameInstanceAs(i1);
    assertThat(i2.name()).isEqualTo(i1.name());
    Stmt.Store store = (Stmt.Store) ((OperatorIr.Grid) second.get("saxpy")).body().get(0);
    assertThat(store.origin()).isNull();
  }

  @Test
  void floatingLiteralsKeepTheirBits() throws IrFormatException {
    double[] doubles = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
        Double.MIN_VALUE, Double.MAX_VALUE, 0.1, -1e-310, Math.PI};
    float[] floats = {Float.NaN, -0.0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
        Float.MIN_VALUE, Float.MAX_VALUE, 0.1f, 1e-40f};
    ExprFactory f = new ExprFactory();
    OperatorIr d = sumOf(f, ScalarType.DOUBLE, doubles);
    double[] asDoubles = new double[floats.length];
    for (int i = 0; i < floats.length; i++) {
      asDoubles[i] = floats[i];
    }
    OperatorIr s = sumOf(f, ScalarType.FLOAT, asDoubles);
    String text = IrWriter.write(List.of(d, s));
    assertThat(text).contains(" = const f64 -0x0.0p0\n");
    assertThat(text).contains(" = const f32 NaN\n");
    assertThat(text).contains(" = const f32 0x1.99999ap-4\n");
    List<OperatorIr> back = new IrReader(new ExprFactory()).read(text);
    IrAssert.assertSameIr(d, back.get(0));
    IrAssert.assertSameIr(s, back.get(1));
  }

  /** An elementwise operator adding the literals one by one to its parameter. */
  private static OperatorIr sumOf(ExprFactory f, ScalarType type, double[] values) {
    Param.Scalar x = new Param.Scalar("x", 0, type, false);
    Expr e = f.scalar(x);
    for (double v : values) {
      e = f.binary(BinaryOp.ADD, e, f.constant(type, v), -1);
    }
    return new OperatorIr.Elementwise("t.Literals", "sum" + type.irName(), List.of(x), type, e, Map.of(e, "total"));
  }

  private static Map<String, OperatorIr> byName(List<OperatorIr> ops) {
    Map<String, OperatorIr> out = new java.util.HashMap<>();
    ops.forEach(op -> out.put(op.name(), op));
    return out;
  }
}
