package dev.kiln.processor;

import com.palantir.javapoet.JavaFile;
import com.sun.source.util.Trees;
import dev.kiln.processor.check.OutputCheck;
import dev.kiln.processor.check.RaceCheck;
import dev.kiln.processor.codegen.cpu.KernelsWriter;
import dev.kiln.processor.codegen.cpu.SimdKernelsWriter;
import dev.kiln.processor.codegen.cpu.SimdPlan;
import dev.kiln.processor.contraction.Contraction;
import dev.kiln.processor.contraction.Contractions;
import dev.kiln.processor.codegen.cuda.CudaWriter;
import dev.kiln.processor.codegen.cuda.Nvcc;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.diag.Reporter;
import dev.kiln.processor.frontend.Annotations;
import dev.kiln.processor.frontend.FrontEnd;
import dev.kiln.processor.frontend.OperatorSource;
import dev.kiln.processor.ir.IrPrinter;
import dev.kiln.processor.fusion.FusionPlan;
import dev.kiln.processor.fusion.Recompute;
import dev.kiln.processor.fusion.FusionPrinter;
import dev.kiln.processor.fusion.Merger;
import dev.kiln.processor.fusion.ReportBuilder;
import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.report.FusionReport;
import dev.kiln.processor.report.ReportHtml;
import dev.kiln.processor.report.ReportJson;
import dev.kiln.processor.ir.OperatorKind;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
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

  OperatorProcessingStep(ProcessingEnvironment env, Trees trees) {
    this.nvcc = Nvcc.find(env.getOptions(), System.getenv());
    this.nvccNoted = Nvcc.disabled(env.getOptions()); // no note when the user turned nvcc off
    this.contractionsAsLoops = "loops".equals(env.getOptions().get(OPTION_CONTRACTIONS));
    this.simd = !"false".equals(env.getOptions().get(OPTION_SIMD))
        && env.getElementUtils().getTypeElement(SimdKernelsWriter.FLOAT_VECTOR) != null;
    this.reorderSums = "reorder".equals(env.getOptions().get(OPTION_SIMD_SUMS));
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
    FrontEnd frontEnd = new FrontEnd(trees, elements, filer, reporter);
    for (Map.Entry<TypeElement, List<ExecutableElement>> c : byClass.entrySet()) {
      processClass(frontEnd, c.getKey(), c.getValue());
    }
  }

  private void processClass(FrontEnd frontEnd, TypeElement owner, List<ExecutableElement> methods) {
    List<OperatorIr> operators = new ArrayList<>();
    boolean ok = true;
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (ExecutableElement m : methods) {
      if (!seen.add(m.getSimpleName().toString())) {
        reporter.report(m, Message.DUPLICATE_OPERATOR, m.getSimpleName(), owner.getSimpleName());
        ok = false;
      }
    }
    for (ExecutableElement m : methods) {
      try {
        OperatorIr ir = compile(frontEnd, m);
        if (ir == null) {
          ok = false;
        } else {
          operators.add(ir);
        }
      } catch (RuntimeException | StackOverflowError e) {
        ok = false;
        reporter.report(m, Message.INTERNAL_ERROR, m.getSimpleName(), trace(e));
      }
    }
    Gradients gradients = new Gradients(frontEnd, reporter);
    if (ok) {
      ok = gradients.validate(operators, methods);
    }
    if (!ok) {
      return; // generate nothing for a class with errors
    }
    String pkg = elements.getPackageOf(owner).getQualifiedName().toString();
    String base = KernelsWriter.kernelsName(owner, pkg).simpleName().replaceAll("Kernels$", "");
    String resourceBase = (pkg.isEmpty() ? "" : pkg.replace('.', '/') + "/") + base;
    try {
      List<OperatorIr> compiled = new ArrayList<>();
      List<FusionPlan> plans = new ArrayList<>();
      java.util.Set<String> names = new java.util.HashSet<>();
      operators.forEach(op -> names.add(op.name()));
      for (OperatorIr op : operators) {
        if (op.kind() == OperatorKind.COMPOSITE) {
          FusionPlan plan = Merger.plan(frontEnd.composite(op), k -> kernelName(op.name(), k, names));
          plans.add(plan);
          plan.kernels().forEach(k -> compiled.add(k.ir()));
        } else {
          compiled.add(op);
        }
      }
      Gradients.Result derived = gradients.derive(operators, methods, names);
      compiled.addAll(derived.operators());
      List<CompositeIr> backward = new ArrayList<>(derived.composites());
      Map<String, String> savedGradientOf = new java.util.HashMap<>();
      for (FusionPlan plan : List.copyOf(plans)) {
        SavingForms.Pair pair = SavingForms.of(plan, gradients, names);
        if (pair != null) {
          FusionPlan saving = Merger.plan(pair.forward(), k -> kernelName(pair.forward().signature().name(), k, names));
          plans.add(saving);
          saving.kernels().forEach(k -> compiled.add(k.ir()));
          backward.add(pair.backward());
          savedGradientOf.put(pair.backward().signature().name(), plan.composite().name());
        }
      }
      List<FusionPlan> gradientPlans = new ArrayList<>();
      for (CompositeIr gradient : backward) {
        FusionPlan plan = Merger.plan(gradient, k -> kernelName(gradient.name(), k, names));
        gradientPlans.add(plan);
        plan.kernels().forEach(k -> compiled.add(k.ir()));
      }
      List<Contraction> contractions = new ArrayList<>();
      if (!contractionsAsLoops) {
        Map<String, Map<String, dev.kiln.processor.ir.Poly>> derivedSizes = new java.util.HashMap<>();
        for (FusionPlan plan : plans) {
          plan.kernels().forEach(k -> k.derived().forEach(d ->
              derivedSizes.computeIfAbsent(k.ir().name(), n -> new java.util.HashMap<>()).put(d.param().name(), d.value())));
        }
        for (FusionPlan plan : gradientPlans) {
          plan.kernels().forEach(k -> k.derived().forEach(d ->
              derivedSizes.computeIfAbsent(k.ir().name(), n -> new java.util.HashMap<>()).put(d.param().name(), d.value())));
        }
        for (OperatorIr op : List.copyOf(compiled)) {
          Contraction c = Contractions.lower(op, name -> kernelName(name, "epilogue", names),
              derivedSizes.getOrDefault(op.name(), Map.of()));
          if (c != null) {
            contractions.add(c);
            if (c.epilogue() != null) {
              compiled.add(c.epilogue());
            }
          }
        }
      }
      Map<String, Contraction> byOperator = Contractions.byOperator(contractions);
      // the device compiles a fused kernel in its device form when it has one (Recompute)
      plans.replaceAll(p -> Recompute.forDevice(p, byOperator.keySet()));
      gradientPlans.replaceAll(p -> Recompute.forDevice(p, byOperator.keySet()));
      Map<String, OperatorIr> deviceForms = new java.util.HashMap<>();
      plans.forEach(p -> p.kernels().forEach(k -> deviceForms.put(k.ir().name(), k.onDevice())));
      gradientPlans.forEach(p -> p.kernels().forEach(k -> deviceForms.put(k.ir().name(), k.onDevice())));
      CudaWriter.Result cuda = CudaWriter.write(owner.getQualifiedName().toString(), base,
          compiled.stream().map(op -> deviceForms.getOrDefault(op.name(), op)).toList());
      plans.replaceAll(p -> p.withoutPerWorker(byOperator.keySet()));
      gradientPlans.replaceAll(p -> p.withoutPerWorker(byOperator.keySet()));
      List<FusionPlan> allPlans = new ArrayList<>(plans);
      allPlans.addAll(gradientPlans);
      // the CPU compiles a fused kernel in its per-worker form when it has one (WorkerScratch)
      Map<String, OperatorIr> cpuForms = new java.util.HashMap<>();
      allPlans.forEach(p -> p.kernels().forEach(k -> cpuForms.put(k.ir().name(), k.cpu())));
      Map<String, String> simdVerdicts = new LinkedHashMap<>();
      Map<OperatorIr, List<com.palantir.javapoet.MethodSpec>> vectorised = new LinkedHashMap<>();
      Map<String, String> lines = sourceLines(methods);
      if (simd) {
        for (OperatorIr op : compiled) {
          if (op.kind() == OperatorKind.GRID && !byOperator.containsKey(op.name())) {
            OperatorIr cpuOp = cpuForms.getOrDefault(op.name(), op);
            SimdPlan.Verdict verdict = SimdKernelsWriter.judge(cpuOp, reorderSums);
            simdVerdicts.put(op.name(), verdict.text()
                + (reorderSums && SimdKernelsWriter.reordersSums(op, verdict) ? "; sums reordered (-Akiln.simd.sums=reorder)" : ""));
            if (verdict.simd()) {
              List<com.palantir.javapoet.MethodSpec> simdMethods = SimdKernelsWriter.methods(owner, lines.keySet(), cpuOp, verdict, reorderSums);
              if (simdMethods != null) {
                vectorised.put(cpuOp, simdMethods);
              } else {
                simdVerdicts.put(op.name(), "no, its SIMD form is more than " + SimdKernelsWriter.MAX_CHARS
                    + " characters of Java, too large for one method (the scalar kernel runs)");
              }
            }
          }
        }
      }
      java.util.Set<String> simdNames = new java.util.HashSet<>();
      vectorised.keySet().forEach(op -> simdNames.add(op.name()));
      JavaFile file = KernelsWriter.write(owner, pkg, compiled, allPlans, cuda.kernels(), resourceBase, byOperator,
          simdNames, lines, cpuForms, deviceForms);
      file.writeTo(filer);
      if (!vectorised.isEmpty()) {
        SimdKernelsWriter.write(owner, pkg, vectorised).writeTo(filer);
      }
      writeIr(owner, pkg, operators, plans, contractions, simdVerdicts);
      if (!derived.operators().isEmpty() || !gradientPlans.isEmpty()) {
        write("META-INF/kiln/" + resourceBase + ".gradients.ir.txt", gradientListing(owner, derived.operators(), gradientPlans), owner);
      }
      // composites are not written: another module calls their generated launchers, it does not fuse into them
      writeKir(owner, operators.stream().filter(op -> op.kind() != OperatorKind.COMPOSITE).toList());
      if (!allPlans.isEmpty()) {
        Map<String, String> gradientOf = new java.util.HashMap<>(savedGradientOf);
        for (OperatorIr op : operators) {
          String launcher = dev.kiln.processor.autodiff.GradientNames.launcher(op.name());
          if (gradientPlans.stream().anyMatch(p -> p.composite().name().equals(launcher))) {
            gradientOf.put(launcher, op.name());
          }
        }
        Map<String, String> gemmLeaves = new java.util.HashMap<>();
        contractions.forEach(c -> gemmLeaves.put(c.op().name(), c.reason()));
        FusionReport report = ReportBuilder.of(owner.getQualifiedName().toString(), allPlans, gradientOf, gemmLeaves);
        write("META-INF/kiln/" + resourceBase + ".fusion.json", ReportJson.write(report), owner);
        write("META-INF/kiln/" + resourceBase + ".fusion.html", ReportHtml.write(report), owner);
      }
      writeCuda(owner, resourceBase, cuda);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      reporter.report(owner, Message.INTERNAL_ERROR, owner.getSimpleName(), "interrupted while running nvcc");
    } catch (IOException | RuntimeException e) {
      reporter.report(owner, Message.INTERNAL_ERROR, owner.getSimpleName(), "could not write generated files: " + trace(e));
    }
  }

  /** {@code <composite>_k<n>}, made unique among the class's operator names. */
  private static String kernelName(String composite, int k, java.util.Set<String> names) {
    return kernelName(composite, "k" + k, names);
  }

  /** {@code <operator>_<suffix>}, made unique among the class's operator names. */
  private static String kernelName(String composite, String suffix, java.util.Set<String> names) {
    String name = composite + "_" + suffix;
    while (!names.add(name)) {
      name = name + "_";
    }
    return name;
  }

  /** Each method's {@code File.java:line}, for the messages of the kernels made from it. */
  private Map<String, String> sourceLines(List<ExecutableElement> methods) {
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
  private static String trace(Throwable e) {
    StringBuilder b = new StringBuilder(e.toString());
    StackTraceElement[] frames = e.getStackTrace();
    for (int i = 0; i < Math.min(frames.length, 12); i++) {
      b.append("\n    at ").append(frames[i]);
    }
    return b.toString();
  }

  /** Lowers and checks one operator; null after reporting its errors. */
  private OperatorIr compile(FrontEnd frontEnd, ExecutableElement m) {
    OperatorSource source = frontEnd.source(m);
    if (source == null) {
      reporter.report(m, Message.INTERNAL_ERROR, m.getSimpleName(), "javac gave no source tree for it");
      return null;
    }
    OperatorIr ir = frontEnd.lower(source);
    if (ir == null || ir.kind() != OperatorKind.GRID) {
      return ir;
    }
    boolean ok = true;
    for (RaceCheck.Finding f : RaceCheck.check(ir)) {
      reporter.report(treeOf(f.store(), source), source.unit(), f.message(), f.args());
      ok = false;
    }
    for (Param.Array a : OutputCheck.neverWritten(ir)) {
      reporter.report(source.tree().getParameters().get(a.position()), source.unit(), Message.OUT_NEVER_WRITTEN, a.name(), ir.name());
      ok = false;
    }
    return ok ? ir : null;
  }

  private static com.sun.source.tree.Tree treeOf(Stmt s, OperatorSource source) {
    return s.origin() instanceof com.sun.source.tree.Tree t ? t : source.tree();
  }

  /** Writes {@code <Class>.cu} and, when nvcc is there, {@code <Class>.ptx} beside it. */
  private void writeCuda(TypeElement owner, String resourceBase, CudaWriter.Result cuda) throws IOException, InterruptedException {
    String base = resourceBase.substring(resourceBase.lastIndexOf('/') + 1);
    for (CudaWriter.Skipped s : cuda.skipped()) {
      for (javax.lang.model.element.Element e : owner.getEnclosedElements()) {
        if (e.getSimpleName().contentEquals(s.operator()) && e.getKind() == ElementKind.METHOD) {
          reporter.report(e, Message.CUDA_SKIPPED, s.operator(), s.reason());
        }
      }
    }
    write("META-INF/kiln/" + resourceBase + ".cu", cuda.source(), owner);
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
    write("META-INF/kiln/" + resourceBase + ".ptx", outcome.ptx(), owner);
  }

  private void write(String path, String text, TypeElement owner) throws IOException {
    FileObject file = filer.createResource(StandardLocation.CLASS_OUTPUT, "", path, owner);
    try (Writer w = file.openWriter()) {
      w.write(text);
    }
  }

  /** Writes the class's IR for other modules, {@code <package>/<Class>.kir} (see {@link IrResource}). */
  private void writeKir(TypeElement owner, List<OperatorIr> operators) throws IOException {
    IrResource kir = IrResource.of(owner, elements);
    FileObject file = filer.createResource(StandardLocation.CLASS_OUTPUT, kir.packageName(), kir.fileName(), owner);
    try (Writer w = file.openWriter()) {
      w.write(IrWriter.write(operators));
    }
  }

  /** The derived gradients: elementwise ones as operators, the others as composites before and after fusion. */
  private static String gradientListing(TypeElement owner, List<OperatorIr> elementwise, List<FusionPlan> plans) {
    StringBuilder b = new StringBuilder("# Kiln gradients of " + owner.getQualifiedName() + ", derived by the Kiln processor.\n");
    for (OperatorIr op : elementwise) {
      b.append('\n').append(IrPrinter.print(op));
    }
    for (FusionPlan plan : plans) {
      b.append('\n').append(FusionPrinter.print(plan));
    }
    return b.toString();
  }

  private void writeIr(TypeElement owner, String pkg, List<OperatorIr> operators, List<FusionPlan> plans,
      List<Contraction> contractions, Map<String, String> simdVerdicts) throws IOException {
    String path = "META-INF/kiln/" + (pkg.isEmpty() ? "" : pkg.replace('.', '/') + "/")
        + KernelsWriter.kernelsName(owner, pkg).simpleName().replaceAll("Kernels$", "") + ".ir.txt";
    FileObject file = filer.createResource(StandardLocation.CLASS_OUTPUT, "", path, owner);
    try (Writer w = file.openWriter()) {
      w.write("# Kiln IR of " + owner.getQualifiedName() + ", written by the Kiln processor.\n");
      for (OperatorIr op : operators) {
        if (op.kind() != OperatorKind.COMPOSITE) {
          w.write('\n');
          w.write(IrPrinter.print(op));
        }
      }
      for (FusionPlan plan : plans) {
        w.write('\n');
        w.write(FusionPrinter.print(plan));
      }
      if (!contractions.isEmpty()) {
        w.write(CONTRACTIONS_HEADER);
      }
      for (Contraction c : contractions) {
        w.write('\n');
        w.write(Contractions.describe(c));
        if (c.epilogue() != null) {
          w.write(IrPrinter.print(c.epilogue()));
        }
      }
      if (!simdVerdicts.isEmpty()) {
        w.write(SIMD_HEADER);
        w.write('\n');
      }
      for (Map.Entry<String, String> r : simdVerdicts.entrySet()) {
        w.write("simd " + r.getKey() + ": " + r.getValue() + "\n");
      }
    }
  }
}
