package dev.kiln.processor;

import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import dev.kiln.processor.artifacts.ClassArtifacts.Resource;
import dev.kiln.processor.artifacts.ClassArtifacts;
import dev.kiln.processor.artifacts.Namespace;
import dev.kiln.processor.autodiff.GradientNames;
import dev.kiln.processor.autodiff.WorkerStatistics;
import dev.kiln.processor.codegen.cpu.KernelsWriter;
import dev.kiln.processor.codegen.cpu.SimdKernelsWriter;
import dev.kiln.processor.codegen.cpu.SimdPlan;
import dev.kiln.processor.codegen.cuda.CudaWriter;
import dev.kiln.processor.contraction.Contraction;
import dev.kiln.processor.contraction.Contractions;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.frontend.FrontEnd;
import dev.kiln.processor.fusion.FusionPlan;
import dev.kiln.processor.fusion.FusionPrinter;
import dev.kiln.processor.fusion.Merger;
import dev.kiln.processor.fusion.Recompute;
import dev.kiln.processor.fusion.ReportBuilder;
import dev.kiln.processor.fusion.SiblingLoops;
import dev.kiln.processor.ir.ClassIr;
import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.io.IrPrinter;
import dev.kiln.processor.ir.transform.IndexWidening;
import dev.kiln.processor.report.FusionReport;
import dev.kiln.processor.report.ReportHtml;
import dev.kiln.processor.report.ReportJson;
import dev.kiln.processor.report.ShardJson;
import dev.kiln.processor.report.ShardReport;
import dev.kiln.processor.shard.Sharding;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/**
 * The compilation of one operator class, as the named passes of {@link Pass} run in order by
 * {@link #run}. Each pass reads what the passes before it made (the fields below) and adds its own;
 * the first two stop the class at an error, so that nothing is generated for a class with errors.
 * With {@code -Akiln.dumpIr=<pass>[,<pass>...]} (or {@code all}) the IR after each named pass is
 * printed as a note on the class.
 */
final class ClassPipeline {
  /** The passes, in the order they run. */
  enum Pass {
    /** The front end: each method's body as IR, its races and unwritten outputs refused; duplicate names refused. */
    LOWER,
    /** Hand-written gradients' signatures and targets checked against their operators. */
    CHECK,
    /** Composites' calls merged into kernels (the merger, {@code fusion.Merger}). */
    FUSE,
    /** Derived gradients, training forms ({@code fSaving}/{@code fGradSaved}), and the backward composites fused. */
    DIFFERENTIATE,
    /** Which size each grid and composite operator can be split along, for sharded runners ({@code shard.Sharding}). */
    SHARD,
    /** Matrix products as library GEMM leaves with their epilogues (the contraction pass). */
    CONTRACT,
    /** Per target: the device and CPU forms of fused kernels, the CUDA C, and which kernels get SIMD forms. */
    PLAN,
    /** The generated files: Java kernels, SIMD kernels, IR listings and {@code .kir}, the fusion report, CUDA C and PTX. */
    EMIT;

    /** The name {@code -Akiln.dumpIr} takes. */
    String id() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** {@code -Akiln.dumpIr=<pass>[,<pass>...]} or {@code all}: print the IR after those passes. */
  static final String OPTION_DUMP_IR = "kiln.dumpIr";

  /**
   * The passes {@code -Akiln.dumpIr}'s value names (none for null); an unknown name is an
   * IllegalArgumentException that lists the passes.
   */
  static Set<Pass> dumped(String option) {
    Set<Pass> passes = java.util.EnumSet.noneOf(Pass.class);
    if (option == null || option.isBlank()) {
      return passes;
    }
    for (String name : option.split(",")) {
      String n = name.trim().toLowerCase(Locale.ROOT);
      if (n.equals("all")) {
        passes.addAll(java.util.EnumSet.allOf(Pass.class));
        continue;
      }
      Pass found = null;
      for (Pass p : Pass.values()) {
        if (p.id().equals(n)) {
          found = p;
        }
      }
      if (found == null) {
        List<String> ids = new ArrayList<>();
        for (Pass p : Pass.values()) {
          ids.add(p.id());
        }
        throw new IllegalArgumentException("-A" + OPTION_DUMP_IR + "=" + option + ": '" + name.trim()
            + "' is not a pass; the passes are " + String.join(", ", ids) + " (or all)");
      }
      passes.add(found);
    }
    return passes;
  }

  private final OperatorProcessingStep step;
  private final FrontEnd frontEnd;
  private final TypeElement owner;
  private final List<ExecutableElement> methods;
  private final Gradients gradients;
  private final Namespace names = new Namespace();

  // lower: the class's operators and composite bodies, complete (null until lower succeeds)
  private ClassIr classIr;
  // fuse
  private final List<OperatorIr> compiled = new ArrayList<>();
  private final List<FusionPlan> plans = new ArrayList<>();
  // differentiate
  private Gradients.Result derived;
  private final Map<String, String> savedGradientOf = new HashMap<>();
  /** Per method, its {@code @Offset} parameters and the {@code @Dim} each offsets. */
  private final Map<String, Map<String, String>> offsets = new HashMap<>();
  private final List<ShardReport.Operator> shards = new ArrayList<>();
  private static final String OFFSET = "dev.kiln.Offset";
  private final List<FusionPlan> gradientPlans = new ArrayList<>();
  // contract
  private final List<Contraction> contractions = new ArrayList<>();
  private Map<String, Contraction> byOperator = Map.of();
  // plan
  private final Map<String, OperatorIr.Grid> deviceForms = new HashMap<>();
  private CudaWriter.Result cuda;
  private final List<FusionPlan> allPlans = new ArrayList<>();
  private final Map<String, OperatorIr.Grid> cpuForms = new HashMap<>();
  private final Map<String, String> simdVerdicts = new LinkedHashMap<>();
  /** The kernels whose SIMD forms add sums in another order than their scalar forms (-Akiln.simd.sums=reorder). */
  private final Set<String> simdReordersSums = new HashSet<>();
  private final Map<OperatorIr.Grid, List<MethodSpec>> vectorised = new LinkedHashMap<>();
  private Map<String, String> lines = Map.of();

  ClassPipeline(OperatorProcessingStep step, FrontEnd frontEnd, TypeElement owner, List<ExecutableElement> methods) {
    this.step = step;
    this.frontEnd = frontEnd;
    this.owner = owner;
    this.methods = methods;
    this.gradients = new Gradients(frontEnd::source, step.reporter());
  }

  /** Runs every pass in order, printing the IR after those in {@code dump}; stops at a pass that reports errors. */
  void run(Set<Pass> dump) {
    for (Pass pass : Pass.values()) {
      boolean ok;
      try {
        ok = run(pass);
      } catch (RuntimeException | StackOverflowError e) {
        // lower reports its own per operator; an exception here is a bug in a later pass
        step.reporter().report(owner, Message.INTERNAL_ERROR, owner.getSimpleName(),
            "in the " + pass.id() + " pass: " + OperatorProcessingStep.trace(e));
        return;
      }
      if (!ok) {
        return;
      }
      if (dump.contains(pass)) {
        step.reporter().report(owner, Message.IR_DUMP, pass.id(), owner.getQualifiedName(), dump(pass));
      }
    }
  }

  private boolean run(Pass pass) {
    switch (pass) {
      case LOWER: return lower();
      case CHECK: return gradients.validate(classIr, methods) & offsetsValid();
      case FUSE: fuse(); return true;
      case DIFFERENTIATE: differentiate(); return true;
      case SHARD: shard(); return true;
      case CONTRACT: contract(); return true;
      case PLAN: plan(); return true;
      case EMIT: emit(); return true;
      default: throw new AssertionError(pass);
    }
  }

  private boolean lower() {
    boolean ok = true;
    Set<String> seen = new HashSet<>();
    for (ExecutableElement m : methods) {
      if (!seen.add(m.getSimpleName().toString())) {
        step.reporter().report(m, Message.DUPLICATE_OPERATOR, m.getSimpleName(), owner.getSimpleName());
        ok = false;
      }
    }
    List<OperatorIr> operators = new ArrayList<>();
    for (ExecutableElement m : methods) {
      try {
        OperatorIr ir = step.compile(frontEnd, m);
        if (ir == null) {
          ok = false;
        } else {
          operators.add(ir);
        }
      } catch (RuntimeException | StackOverflowError e) {
        ok = false;
        step.reporter().report(m, Message.INTERNAL_ERROR, m.getSimpleName(), OperatorProcessingStep.trace(e));
      }
    }
    operators.forEach(op -> names.claim(op.name()));
    if (ok) {
      // the class's IR, complete: the passes after this one ask the front end for nothing
      Map<String, CompositeIr> composites = new LinkedHashMap<>();
      for (OperatorIr op : operators) {
        if (op instanceof OperatorIr.Composite composite) {
          composites.put(op.name(), frontEnd.composite(composite));
        }
      }
      classIr = new ClassIr(owner.getQualifiedName().toString(), operators, composites);
    }
    return ok;
  }

  private void fuse() {
    for (OperatorIr op : classIr.operators()) {
      if (op instanceof OperatorIr.Composite composite) {
        FusionPlan plan = Merger.plan(classIr.composite(composite), k -> kernelName(op.name(), k));
        plans.add(plan);
        plan.kernels().forEach(k -> compiled.add(k.ir()));
      } else {
        compiled.add(op);
      }
    }
  }

  private void differentiate() {
    derived = gradients.derive(methods, names);
    compiled.addAll(derived.operators());
    List<CompositeIr> backward = new ArrayList<>(derived.composites());
    for (FusionPlan plan : List.copyOf(plans)) {
      SavingForms.Pair pair = SavingForms.of(plan, gradients, names);
      if (pair != null) {
        FusionPlan saving = Merger.plan(pair.forward(), k -> kernelName(pair.forward().signature().name(), k));
        plans.add(saving);
        saving.kernels().forEach(k -> compiled.add(k.ir()));
        backward.add(pair.backward());
        savedGradientOf.put(pair.backward().signature().name(), plan.composite().name());
      }
    }
    for (OperatorIr op : classIr.operators()) {
      if (op instanceof OperatorIr.Grid grid) {
        String forwardName = SavingForms.savingName(op.name());
        String backwardName = SavingForms.gradSavedName(op.name());
        if (!gradients.derived(grid) || names.taken(forwardName) || names.taken(backwardName)) {
          continue;
        }
        WorkerStatistics.Forms forms = gradients.statistics(grid);
        if (forms != null) {
          names.claim(forwardName);
          names.claim(backwardName);
          FusionPlan saving = Merger.plan(forms.forward(), k -> kernelName(forwardName, k));
          plans.add(saving);
          saving.kernels().forEach(k -> compiled.add(k.ir()));
          backward.add(forms.backward());
          savedGradientOf.put(backwardName, op.name());
        }
      }
    }
    for (CompositeIr gradient : backward) {
      FusionPlan plan = Merger.plan(gradient, k -> kernelName(gradient.name(), k));
      gradientPlans.add(plan);
      plan.kernels().forEach(k -> compiled.add(k.ir()));
    }
  }

  /**
   * Reads each method's {@code @Offset} parameters ({@link #offsets}); reports one that is not an
   * {@code int}, is a {@code @Dim}, or names no {@code @Dim} of its operator.
   */
  private boolean offsetsValid() {
    boolean ok = true;
    for (ExecutableElement m : methods) {
      Map<String, String> own = new HashMap<>();
      Set<String> dims = new HashSet<>();
      for (var p : m.getParameters()) {
        if (dev.kiln.processor.frontend.Annotations.has(p, dev.kiln.processor.frontend.Annotations.DIM)) {
          dims.add(p.getSimpleName().toString());
        }
      }
      for (var p : m.getParameters()) {
        var mirror = dev.kiln.processor.frontend.Annotations.mirror(p, OFFSET);
        if (mirror == null) {
          continue;
        }
        String dim = dev.kiln.processor.frontend.Annotations.stringValue(mirror, "value");
        String why = !p.asType().toString().equals("int") ? "it is a " + p.asType() + ", not an int"
            : dims.contains(p.getSimpleName().toString()) ? "it is a @Dim itself"
            : !dims.contains(dim) ? "'" + dim + "' is no @Dim of " + m.getSimpleName() + " (its @Dims: " + new java.util.TreeSet<>(dims) + ")"
            : null;
        if (why != null) {
          step.reporter().report(p, Message.OFFSET_FORM, p.getSimpleName(), why);
          ok = false;
        } else {
          own.put(p.getSimpleName().toString(), dim);
        }
      }
      offsets.put(m.getSimpleName().toString(), own);
    }
    return ok;
  }

  /** The {@code @Offset} parameters of {@code op}, or of the source operator whose derived form it is ({@code fGrad}). */
  private Map<String, String> offsetsOf(String op) {
    String best = null;
    for (String name : offsets.keySet()) {
      if (op.startsWith(name) && (best == null || name.length() > best.length())) {
        best = name;
      }
    }
    return best == null ? Map.of() : offsets.get(best);
  }

  private void shard() {
    Map<String, FusionPlan> byComposite = new HashMap<>();
    plans.forEach(p -> byComposite.put(p.composite().name(), p));
    gradientPlans.forEach(p -> byComposite.put(p.composite().name(), p));
    List<OperatorIr> all = new ArrayList<>(classIr.operators());
    all.addAll(derived.operators());
    Set<String> seen = new HashSet<>();
    for (OperatorIr operator : all) {
      if (operator instanceof OperatorIr.Grid op && seen.add(op.name())) {
        shards.add(Sharding.grid(op, offsetsOf(op.name())));
      }
    }
    for (FusionPlan p : byComposite.values().stream().sorted(java.util.Comparator.comparing(p -> p.composite().name())).toList()) {
      if (seen.add(p.composite().name())) {
        shards.add(Sharding.composite(p, offsetsOf(p.composite().name())));
      }
    }
  }

  private void contract() {
    if (!step.contractionsAsLoops()) {
      Map<String, Map<String, Poly>> derivedSizes = new HashMap<>();
      for (List<FusionPlan> list : List.of(plans, gradientPlans)) {
        for (FusionPlan plan : list) {
          plan.kernels().forEach(k -> k.derived().forEach(d ->
              derivedSizes.computeIfAbsent(k.ir().name(), n -> new HashMap<>()).put(d.param().name(), d.value())));
        }
      }
      for (OperatorIr operator : List.copyOf(compiled)) {
        if (operator instanceof OperatorIr.Grid op) {
          lowerProducts(op, op.name(), derivedSizes.getOrDefault(op.name(), Map.of()), 1, Map.of());
        }
      }
    }
    byOperator = Contractions.byOperator(contractions);
  }

  /**
   * Lowers {@code op}'s products; its epilogue, when it has products of its own (a second,
   * independent sum of products in the same worker: a gradient's {@code dq} and {@code dk}), is
   * lowered in turn. Kernels are named after {@code root}: {@code root_prologue}, {@code
   * root_epilogue}, then {@code root_prologue2}, {@code root_epilogue2}; a second prologue of one
   * level {@code root_prologue_2}.
   */
  private void lowerProducts(OperatorIr.Grid op, String root, Map<String, Poly> sizes, int level,
      Map<String, OperatorIr.Grid> available) {
    String at = level == 1 ? "" : Integer.toString(level);
    int[] prologues = {0};
    Contraction c = Contractions.lower(op, name -> kernelName(root, "epilogue" + at),
        name -> kernelName(root, "prologue" + at + (prologues[0]++ == 0 ? "" : "_" + prologues[0])), sizes, available);
    if (c == null) {
      return;
    }
    contractions.add(c);
    compiled.addAll(c.prologues());
    if (c.epilogue() != null) {
      compiled.add(c.epilogue());
      Map<String, OperatorIr.Grid> written = new HashMap<>(available);
      c.prologues().forEach(p -> written.put(Contraction.operand(p).name(), p));
      lowerProducts(c.epilogue(), root, sizes, level + 1, written);
    }
  }

  private void plan() {
    // the device compiles a fused kernel in its device form when it has one (Recompute)
    plans.replaceAll(p -> Recompute.forDevice(p, byOperator.keySet()));
    gradientPlans.replaceAll(p -> Recompute.forDevice(p, byOperator.keySet()));
    plans.forEach(p -> p.kernels().forEach(k -> deviceForms.put(k.ir().name(), k.onDevice())));
    gradientPlans.forEach(p -> p.kernels().forEach(k -> deviceForms.put(k.ir().name(), k.onDevice())));
    // the device computes array indices in 64 bits (IndexWidening), the CPU in Java's ints
    List<OperatorIr> forDevice = new ArrayList<>();
    for (OperatorIr op : compiled) {
      // an operator compiled on its own joins its independent folding loops too (SiblingLoops)
      OperatorIr form = deviceForms.containsKey(op.name()) ? deviceForms.get(op.name())
          : op instanceof OperatorIr.Grid grid ? SiblingLoops.join(grid) : op;
      forDevice.add(form instanceof OperatorIr.Grid grid ? IndexWidening.apply(grid) : form);
    }
    cuda = CudaWriter.write(owner.getQualifiedName().toString(), step.artifacts(owner).baseName(), forDevice);
    plans.replaceAll(p -> p.withoutPerWorker(byOperator.keySet()));
    gradientPlans.replaceAll(p -> p.withoutPerWorker(byOperator.keySet()));
    allPlans.addAll(plans);
    allPlans.addAll(gradientPlans);
    // the CPU compiles a fused kernel in its per-worker form when it has one (WorkerScratch)
    allPlans.forEach(p -> p.kernels().forEach(k -> cpuForms.put(k.ir().name(), k.cpu())));
    lines = step.sourceLines(methods);
    if (!step.simd()) {
      return;
    }
    for (OperatorIr operator : compiled) {
      if (operator instanceof OperatorIr.Grid op && !byOperator.containsKey(op.name())) {
        OperatorIr.Grid cpuOp = cpuForms.getOrDefault(op.name(), op);
        SimdPlan.Verdict verdict = SimdKernelsWriter.judge(cpuOp, step.reorderSums());
        boolean reorders = step.reorderSums() && SimdKernelsWriter.reordersSums(cpuOp, verdict);
        if (reorders) {
          simdReordersSums.add(op.name());
        }
        simdVerdicts.put(op.name(), verdict.text() + (reorders ? "; sums reordered (-Akiln.simd.sums=reorder)" : ""));
        if (verdict.simd()) {
          List<MethodSpec> simdMethods = SimdKernelsWriter.methods(owner, lines.keySet(), cpuOp, verdict, step.reorderSums());
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

  private void emit() {
    ClassArtifacts artifacts = step.artifacts(owner);
    String pkg = artifacts.packageName();
    String resourceBase = artifacts.resourceBase();
    try {
      Set<String> simdNames = new HashSet<>();
      vectorised.keySet().forEach(op -> simdNames.add(op.name()));
      JavaFile file = KernelsWriter.write(owner, pkg, compiled, allPlans, cuda.kernels(), resourceBase, byOperator,
          simdNames, simdReordersSums, lines, cpuForms, deviceForms);
      step.writeJava(file);
      if (!vectorised.isEmpty()) {
        step.writeJava(SimdKernelsWriter.write(owner, pkg, vectorised));
      }
      step.write(artifacts.path(Resource.IR_LISTING), irListing(), owner);
      if (!derived.operators().isEmpty() || !gradientPlans.isEmpty()) {
        step.write(artifacts.path(Resource.GRADIENT_LISTING),
            gradientListing(owner, derived.operators(), gradientPlans), owner);
      }
      // composites are not written: another module calls their generated launchers, it does not fuse into them
      step.writeKir(owner, classIr.operators().stream().filter(op -> !(op instanceof OperatorIr.Composite)).toList());
      if (!allPlans.isEmpty()) {
        Map<String, String> gradientOf = new HashMap<>(savedGradientOf);
        for (OperatorIr op : classIr.operators()) {
          String launcher = GradientNames.launcher(op.name());
          if (gradientPlans.stream().anyMatch(p -> p.composite().name().equals(launcher))) {
            gradientOf.put(launcher, op.name());
          }
        }
        Map<String, String> gemmLeaves = new HashMap<>();
        contractions.forEach(c -> gemmLeaves.put(c.op().name(), c.reason()));
        Map<String, ShardReport.Operator> shardsByName = new HashMap<>();
        shards.forEach(op -> shardsByName.put(op.name(), op));
        FusionReport report = ReportBuilder.of(owner.getQualifiedName().toString(), allPlans, gradientOf, gemmLeaves)
            .withShards(shardsByName);
        step.write(artifacts.path(Resource.FUSION_JSON), ReportJson.write(report), owner);
        step.write(artifacts.path(Resource.FUSION_HTML), ReportHtml.write(report), owner);
      }
      if (!shards.isEmpty()) {
        step.write(artifacts.path(Resource.SHARDS_JSON),
            ShardJson.write(new ShardReport(owner.getQualifiedName().toString(), shards)), owner);
      }
      step.writeCuda(owner, artifacts, cuda);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      step.reporter().report(owner, Message.INTERNAL_ERROR, owner.getSimpleName(), "interrupted while running nvcc");
    } catch (IOException e) {
      step.reporter().report(owner, Message.INTERNAL_ERROR, owner.getSimpleName(),
          "could not write generated files: " + OperatorProcessingStep.trace(e));
    }
  }

  /** The class's IR as the passes so far left it, for {@code -Akiln.dumpIr}. */
  private String dump(Pass pass) {
    StringBuilder b = new StringBuilder();
    switch (pass) {
      case LOWER:
      case CHECK:
        for (OperatorIr op : classIr.operators()) {
          b.append('\n').append(op instanceof OperatorIr.Composite composite
              ? FusionPrinter.before(classIr.composite(composite)) : IrPrinter.print(op));
        }
        break;
      case FUSE:
        plans.forEach(p -> b.append('\n').append(FusionPrinter.print(p)));
        if (plans.isEmpty()) {
          b.append("\n(no composites)\n");
        }
        break;
      case DIFFERENTIATE:
        b.append(gradientListing(owner, derived.operators(), gradientPlans));
        break;
      case SHARD:
        b.append('\n').append(ShardJson.write(new ShardReport(owner.getQualifiedName().toString(), shards)));
        break;
      case CONTRACT:
      case PLAN:
      case EMIT:
        b.append(irListing());
        break;
      default:
        throw new AssertionError(pass);
    }
    return b.toString();
  }

  /** {@code <Class>.ir.txt}: the operators, the composites before and after fusion, the GEMM leaves, the SIMD verdicts. */
  private String irListing() {
    StringBuilder w = new StringBuilder("# Kiln IR of " + owner.getQualifiedName() + ", written by the Kiln processor.\n");
    for (OperatorIr op : classIr.operators()) {
      if (!(op instanceof OperatorIr.Composite)) {
        w.append('\n').append(IrPrinter.print(op));
      }
    }
    for (FusionPlan plan : plans) {
      w.append('\n').append(FusionPrinter.print(plan));
    }
    if (!contractions.isEmpty()) {
      w.append(OperatorProcessingStep.CONTRACTIONS_HEADER);
    }
    for (Contraction c : contractions) {
      w.append('\n').append(Contractions.describe(c));
      c.prologues().forEach(p -> w.append(IrPrinter.print(p)));
      if (c.epilogue() != null) {
        w.append(IrPrinter.print(c.epilogue()));
      }
    }
    if (!simdVerdicts.isEmpty()) {
      w.append(OperatorProcessingStep.SIMD_HEADER).append('\n');
    }
    for (Map.Entry<String, String> r : simdVerdicts.entrySet()) {
      w.append("simd ").append(r.getKey()).append(": ").append(r.getValue()).append('\n');
    }
    return w.toString();
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

  /** {@code <composite>_k<n>}, made unique among the class's operator names. */
  private String kernelName(String composite, int k) {
    return kernelName(composite, "k" + k);
  }

  /** {@code <operator>_<suffix>}, made unique among the class's operator names. */
  private String kernelName(String composite, String suffix) {
    return names.fresh(composite, suffix);
  }
}
