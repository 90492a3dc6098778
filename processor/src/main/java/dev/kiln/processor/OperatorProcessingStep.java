package dev.kiln.processor;

import com.palantir.javapoet.JavaFile;
import com.sun.source.util.Trees;
import dev.kiln.processor.artifacts.ClassArtifacts;
import dev.kiln.processor.check.IrCheck;
import dev.kiln.processor.codegen.cpu.SimdKernelsWriter;
import dev.kiln.processor.codegen.cuda.CudaWriter;
import dev.kiln.processor.codegen.cuda.Nvcc;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.diag.Reporter;
import dev.kiln.processor.frontend.Annotations;
import dev.kiln.processor.frontend.FrontEnd;
import dev.kiln.processor.frontend.OperatorSource;
import dev.kiln.processor.frontend.TreeRef;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.io.IrResource;
import dev.kiln.processor.ir.io.IrWriter;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.processing.Filer;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * One round's work on {@code @Operator} methods, class by class: validate and lower each operator
 * (front end), check it (races, outputs), and only when the whole class is free of errors,
 * generate its {@code <Class>Kernels}, its IR listing ({@code .ir.txt}), its IR for other modules
 * ({@code <Class>.kir} beside the class file, which the front end reads back from the class path of
 * a later compilation) and its CUDA source. An unexpected exception becomes an internal-error diagnostic on the operator, never a
 * crash of javac.
 */
final class OperatorProcessingStep {
  /** {@code -Akiln.contractions=loops} keeps matrix products as the exact loops (no GEMM leaves). */
  static final String OPTION_CONTRACTIONS = "kiln.contractions";

  /** {@code -Akiln.simd=false} writes no SIMD kernels even when javac resolves the Vector API. */
  static final String OPTION_SIMD = "kiln.simd";

  /**
   * {@code -Akiln.simd.sums=reorder}: SIMD row kernels keep a partial sum per lane and add the
   * lanes at the end, instead of adding every term in the source's order (faster; the floats then
   * differ from the source's within the bound LANGUAGE.md states).
   */
  static final String OPTION_SIMD_SUMS = "kiln.simd.sums";

  /** Starts the part of {@code <Class>.ir.txt} that says which grid kernels have a SIMD form. */
  public static final String SIMD_HEADER = "\n# SIMD forms of the CPU grid kernels (Vector API)\n";

  /** Starts the part of {@code <Class>.ir.txt} that lists the contraction pass's GEMM leaves and epilogues. */
  public static final String CONTRACTIONS_HEADER = "\n# Matrix products as library GEMM leaves (the contraction pass)\n";

  private final Elements elements;
  private final Filer filer;
  private final Trees trees;
  private final Reporter reporter;
  private final Nvcc nvcc;
  private boolean nvccNoted;
  private final boolean contractionsAsLoops;
  /** Whether to write SIMD kernels: javac resolves the Vector API and -Akiln.simd=false is not given. */
  private final boolean simd;
  private final boolean reorderSums;
  /** The passes after which {@code -Akiln.dumpIr} prints the IR. */
  private final java.util.Set<ClassPipeline.Pass> dumpIr;
  /** An option value the processor could not use, reported once (then null). */
  private String optionProblem;

  OperatorProcessingStep(ProcessingEnvironment env, Trees trees) {
    this.nvcc = Nvcc.find(env.getOptions(), System.getenv());
    this.nvccNoted = Nvcc.disabled(env.getOptions()); // no note when the user turned nvcc off
    this.contractionsAsLoops = "loops".equals(env.getOptions().get(OPTION_CONTRACTIONS));
    this.simd = !"false".equals(env.getOptions().get(OPTION_SIMD))
        && env.getElementUtils().getTypeElement(SimdKernelsWriter.FLOAT_VECTOR) != null;
    this.reorderSums = "reorder".equals(env.getOptions().get(OPTION_SIMD_SUMS));
    java.util.Set<ClassPipeline.Pass> dump;
    String problem = null;
    try {
      dump = ClassPipeline.dumped(env.getOptions().get(ClassPipeline.OPTION_DUMP_IR));
    } catch (IllegalArgumentException e) {
      dump = java.util.Set.of();
      problem = e.getMessage();
    }
    this.dumpIr = dump;
    this.optionProblem = problem;
    this.elements = env.getElementUtils();
    this.filer = env.getFiler();
    this.trees = trees;
    this.reporter = new Reporter(env.getMessager(), trees);
  }

  void process(RoundEnvironment round) {
    TypeElement operator = elements.getTypeElement(Annotations.OPERATOR);
    TypeElement gradient = elements.getTypeElement(Annotations.GRADIENT);
    Map<TypeElement, List<ExecutableElement>> byClass = new LinkedHashMap<>();
    for (TypeElement annotation : new TypeElement[] {operator, gradient}) {
      if (annotation == null) {
        continue;
      }
      for (Element e : round.getElementsAnnotatedWith(annotation)) {
        if (e.getKind() == ElementKind.METHOD) {
          List<ExecutableElement> list = byClass.computeIfAbsent((TypeElement) e.getEnclosingElement(), k -> new ArrayList<>());
          if (!list.contains(e)) { // a hand-written gradient is compiled like an operator
            list.add((ExecutableElement) e);
          }
        }
      }
    }
    if (optionProblem != null && !byClass.isEmpty()) {
      reporter.report(byClass.keySet().iterator().next(), Message.UNKNOWN_OPTION_VALUE, optionProblem);
      optionProblem = null;
    }
    FrontEnd frontEnd = new FrontEnd(trees, elements, filer, reporter);
    for (Map.Entry<TypeElement, List<ExecutableElement>> c : byClass.entrySet()) {
      processClass(frontEnd, c.getKey(), c.getValue());
    }
  }

  private void processClass(FrontEnd frontEnd, TypeElement owner, List<ExecutableElement> methods) {
    new ClassPipeline(this, frontEnd, owner, methods).run(dumpIr);
  }

  Reporter reporter() {
    return reporter;
  }

  boolean contractionsAsLoops() {
    return contractionsAsLoops;
  }

  boolean simd() {
    return simd;
  }

  boolean reorderSums() {
    return reorderSums;
  }

  String packageName(TypeElement owner) {
    return elements.getPackageOf(owner).getQualifiedName().toString();
  }

  /** The names and paths of what Kiln generates for {@code owner}. */
  ClassArtifacts artifacts(TypeElement owner) {
    return ClassArtifacts.of(owner, packageName(owner));
  }

  void writeJava(JavaFile file) throws IOException {
    file.writeTo(filer);
  }

  /** Each method's {@code File.java:line}, for the messages of the kernels made from it. */
  Map<String, String> sourceLines(List<ExecutableElement> methods) {
    Map<String, String> lines = new java.util.HashMap<>();
    for (ExecutableElement m : methods) {
      com.sun.source.util.TreePath path = trees.getPath(m);
      if (path == null) {
        continue;
      }
      com.sun.source.tree.CompilationUnitTree unit = path.getCompilationUnit();
      com.sun.source.tree.Tree at = path.getLeaf() instanceof com.sun.source.tree.MethodTree mt && mt.getReturnType() != null
          ? mt.getReturnType() : path.getLeaf(); // the signature's line, not its annotations'
      long pos = trees.getSourcePositions().getStartPosition(unit, at);
      String file = unit.getSourceFile().getName();
      file = file.substring(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
      lines.putIfAbsent(m.getSimpleName().toString(), pos < 0 ? file : file + ":" + unit.getLineMap().getLineNumber(pos));
    }
    return lines;
  }

  /** An exception and the top of its stack, for an internal-error report. */
  static String trace(Throwable e) {
    StringBuilder b = new StringBuilder(e.toString());
    StackTraceElement[] frames = e.getStackTrace();
    for (int i = 0; i < Math.min(frames.length, 12); i++) {
      b.append("\n    at ").append(frames[i]);
    }
    return b.toString();
  }

  /** Lowers and checks one operator; null after reporting its errors. */
  OperatorIr compile(FrontEnd frontEnd, ExecutableElement m) {
    OperatorSource source = frontEnd.source(m);
    if (source == null) {
      reporter.report(m, Message.INTERNAL_ERROR, m.getSimpleName(), "javac gave no source tree for it");
      return null;
    }
    OperatorIr lowered = frontEnd.lower(source);
    if (!(lowered instanceof OperatorIr.Grid ir)) {
      return lowered;
    }
    boolean ok = true;
    for (IrCheck check : IrCheck.ALL) {
      for (IrCheck.Finding f : check.check(ir)) {
        reporter.report(treeOf(f.at(), source), source.unit(), f.message(), f.args());
        ok = false;
      }
    }
    return ok ? ir : null;
  }

  /** The tree a finding is reported at: its statement's, its parameter's, else the method's. */
  private static com.sun.source.tree.Tree treeOf(IrCheck.Site at, OperatorSource source) {
    if (at instanceof IrCheck.Site.Parameter p) {
      return source.tree().getParameters().get(p.position());
    }
    com.sun.source.tree.Tree t = TreeRef.tree(((IrCheck.Site.Statement) at).origin());
    return t != null ? t : source.tree();
  }

  /** Writes {@code <Class>.cu} and, when nvcc is there, {@code <Class>.ptx} beside it. */
  void writeCuda(TypeElement owner, ClassArtifacts artifacts, CudaWriter.Result cuda) throws IOException, InterruptedException {
    String base = artifacts.baseName();
    for (CudaWriter.Skipped s : cuda.skipped()) {
      for (javax.lang.model.element.Element e : owner.getEnclosedElements()) {
        if (e.getSimpleName().contentEquals(s.operator()) && e.getKind() == ElementKind.METHOD) {
          reporter.report(e, Message.CUDA_SKIPPED, s.operator(), s.reason());
        }
      }
    }
    write(artifacts.path(ClassArtifacts.Resource.CUDA), cuda.source(), owner);
    if (nvcc == null) {
      if (!nvccNoted) {
        nvccNoted = true;
        reporter.report(owner, Message.NVCC_MISSING);
      }
      return;
    }
    Nvcc.Outcome outcome = nvcc.compile(base, cuda.source());
    if (!outcome.ok()) {
      String where = outcome.operator() == null ? "" : " (operator " + outcome.operator() + ")";
      reporter.report(owner, Message.NVCC_FAILED, owner.getQualifiedName(), where, outcome.diagnostics());
      return;
    }
    write(artifacts.path(ClassArtifacts.Resource.PTX), outcome.ptx(), owner);
  }

  void write(String path, String text, TypeElement owner) throws IOException {
    FileObject file = filer.createResource(StandardLocation.CLASS_OUTPUT, "", path, owner);
    try (Writer w = file.openWriter()) {
      w.write(text);
    }
  }

  /** Writes the class's IR for other modules, {@code <package>/<Class>.kir} (see {@link IrResource}). */
  void writeKir(TypeElement owner, List<OperatorIr> operators) throws IOException {
    IrResource kir = IrResource.of(owner, elements);
    FileObject file = filer.createResource(StandardLocation.CLASS_OUTPUT, kir.packageName(), kir.fileName(), owner);
    try (Writer w = file.openWriter()) {
      w.write(IrWriter.write(operators));
    }
  }
}
