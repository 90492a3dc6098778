package dev.kiln.processor.frontend;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.kiln.processor.diag.KilnDiagnostic;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.diag.Reporter;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.OperatorKind;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.io.ClasspathOperators;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.processing.Filer;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * The front end: reads {@code @Operator} methods through the Tree API and lowers each into an
 * {@link OperatorIr}. Elementwise operators that other operators call are lowered on demand (and
 * once); a call cycle is reported as recursion. A called operator compiled in another module or
 * jar has no tree here: its IR is read from the class path ({@link #classpath()}).
 */
public final class FrontEnd implements Inliner, CompositeLowering.Callees {
  /** Thrown when a called operator failed to lower; its own errors are already reported. */
  private static final class CalleeFailed extends RuntimeException {
    CalleeFailed() {
      super(null, null, false, false);
    }
  }

  private final Trees trees;
  private final Elements elements;
  private final Reporter reporter;
  private final ExprFactory f = new ExprFactory();
  private final ClasspathOperators classpath;
  private final Map<ExecutableElement, OperatorIr> done = new HashMap<>();
  private final Map<ExecutableElement, Boolean> failed = new HashMap<>();
  private final Deque<ExecutableElement> inProgress = new ArrayDeque<>();
  private final Map<OperatorIr, CompositeIr> composites = new java.util.IdentityHashMap<>();

  /**
   * @param filer the processing environment's, through which operators compiled elsewhere are read
   *     from their IR resources on the class path
   */
  public FrontEnd(Trees trees, Elements elements, Filer filer, Reporter reporter) {
    this.trees = trees;
    this.elements = elements;
    this.reporter = reporter;
    this.classpath = new ClasspathOperators(filer, elements, f);
  }

  /**
   * Operators compiled in other modules or jars, read from the class path into this front end's
   * expression factory, where the IR of {@link #lower} is built: their nodes are shared with it.
   * The front end inlines elementwise ones through it; a later stage that needs the IR of an
   * operator without a source tree here (a composite's callee) asks it too.
   */
  public ClasspathOperators classpath() {
    return classpath;
  }

  /** The source of an operator (or record method) element, or null when it has no tree here (compiled elsewhere). */
  @Override
  public OperatorSource source(ExecutableElement element) {
    TreePath path = trees.getPath(element);
    if (path == null || !(path.getLeaf() instanceof MethodTree tree)) {
      return null;
    }
    return new OperatorSource(element, tree, path.getCompilationUnit(), (TypeElement) element.getEnclosingElement());
  }

  /** The IR of {@code op}, or null after reporting its errors. */
  public OperatorIr lower(OperatorSource op) {
    if (done.containsKey(op.element())) {
      return done.get(op.element());
    }
    if (failed.containsKey(op.element())) {
      return null;
    }
    int before = reporter.errorCount();
    OperatorIr ir = null;
    inProgress.push(op.element());
    try {
      Signature signature = new SignatureReader(reporter).read(op);
      if (signature != null) {
        ir = lowerBody(op, signature);
      }
    } catch (KilnDiagnostic d) {
      reporter.report(d.tree() != null ? d.tree() : op.tree(), op.unit(), d.kilnMessage(), d.args());
    } catch (CalleeFailed calleeFailed) {
      ir = null;
    } finally {
      inProgress.pop();
    }
    if (reporter.errorCount() != before) {
      ir = null;
    }
    if (ir == null) {
      failed.put(op.element(), true);
    } else {
      done.put(op.element(), ir);
    }
    return ir;
  }

  private OperatorIr lowerBody(OperatorSource op, Signature signature) {
    f.startOperator();
    LoweringState state = new LoweringState(f, signature, new NameResolver(elements, op), this, reporter);
    BlockTree body = op.tree().getBody();
    if (body == null) {
      throw new KilnDiagnostic(op.tree(), Message.OPERATOR_NOT_STATIC, op.name());
    }
    if (signature.kind() == OperatorKind.ELEMENTWISE) {
      StatementLowering lowering = new StatementLowering(state, reporter, op, true);
      lowering.statements(body.getStatements());
      return new OperatorIr.Elementwise(op.owner().getQualifiedName().toString(), op.name(),
          signature.params(), signature.resultType(), lowering.result(), state.exprNames);
    }
    if (CompositeLowering.isComposite(body.getStatements(), state.names)) {
      CompositeIr composite = new CompositeLowering(reporter, op, signature, state.names, this, trees).lower(body.getStatements());
      if (composite == null) {
        return null;
      }
      composites.put(composite.signature(), composite);
      return composite.signature();
    }
    GridStructure structure = GridStructure.of(body, signature);
    StatementLowering lowering = new StatementLowering(state, reporter, op, false);
    for (VariableTree v : structure.prologue()) {
      lowering.statement(v);
      String name = v.getName().toString();
      if (state.records.containsKey(name) && !structure.loops().isEmpty()) {
        state.putRecord(name, state.records.get(name), state.record(name), Local.ReadOnly.shared(v.getName()));
      }
      Local declared = state.env.get(name);
      if (declared != null && !structure.loops().isEmpty()) {
        state.env.put(v.getName().toString(), new Local(declared.type(), declared.value(),
            Local.ReadOnly.shared(v.getName())));
      }
    }
    List<GridDim> grid = new ArrayList<>();
    for (GridStructure.Loop loop : structure.loops()) {
      Expr.Var var = f.newVar(loop.var(), ScalarType.INT, Expr.VarKind.GRID);
      grid.add(new GridDim(var, loop.extent(), loop.size()));
      state.env.put(loop.var(), new Local(ScalarType.INT, var, Local.ReadOnly.parallelLoop(loop.var())));
      state.bounds.lowerBounds.put(var.name(), Poly.ZERO);
      state.bounds.sourceNames.put(var.name(), var.sourceName());
      state.bounds.upperBounds.put(var.name(), loop.size().subtract(Poly.ONE));
    }
    lowering.statement(structure.worker());
    for (Signature.RecordArray r : lowering.neverCombined()) {
      reporter.report(op.tree().getParameters().get(r.position()), op.unit(), Message.RECORD_ARRAY_FORM,
          "'" + r.name() + "' is never updated");
    }
    SuppressWarnings suppressed = op.element().getAnnotation(SuppressWarnings.class);
    boolean quiet = suppressed != null && java.util.Arrays.asList(suppressed.value()).contains(Message.INDEX_MAY_BE_OUT_OF_BOUNDS.id());
    for (BoundsCheck.Warning w : quiet ? List.<BoundsCheck.Warning>of() : state.bounds.warnings()) {
      reporter.report(w.at(), op.unit(), Message.INDEX_MAY_BE_OUT_OF_BOUNDS, w.args());
    }
    return new OperatorIr.Grid(op.owner().getQualifiedName().toString(), op.name(),
        signature.params(), grid, state.out, state.exprNames);
  }

  @Override
  public boolean isExplicit(javax.lang.model.element.Element e) {
    return elements.getOrigin(e) == javax.lang.model.util.Elements.Origin.EXPLICIT;
  }

  @Override
  public boolean hasSource(TypeElement type) {
    return trees.getPath(type) != null;
  }

  @Override
  public MethodTree tree(ExecutableElement method) {
    OperatorSource source = source(method);
    return source == null ? null : source.tree();
  }

  /** The composite body of an operator of kind COMPOSITE that this front end lowered. */
  @Override
  public CompositeIr composite(OperatorIr.Composite op) {
    return composites.get(op);
  }

  @Override
  public OperatorIr operator(ExecutableElement operator, Tree callSite) {
    if (inProgress.contains(operator)) {
      String through = inProgress.peek().getSimpleName().toString();
      throw new KilnDiagnostic(callSite, Message.RECURSION, operator.getSimpleName(), through);
    }
    OperatorSource source = source(operator);
    if (source == null) {
      ClasspathOperators.Lookup compiled = classpath.find(operator);
      if (!compiled.found()) {
        throw new KilnDiagnostic(callSite, Message.CROSS_MODULE_OPERATOR,
            operator.getEnclosingElement().getSimpleName() + "." + operator.getSimpleName(),
            compiled.problem() + " (composite operators of another jar are not fused into this one: call their"
                + " generated launcher instead)");
      }
      return compiled.operator();
    }
    OperatorIr ir = f.aside(() -> lower(source));
    if (ir == null) {
      throw new CalleeFailed();
    }
    return ir;
  }

  @Override
  public OperatorIr.Elementwise elementwise(ExecutableElement operator, Tree callSite) {
    if (inProgress.contains(operator)) {
      String through = inProgress.peek().getSimpleName().toString();
      throw new KilnDiagnostic(callSite, Message.RECURSION, operator.getSimpleName(), through);
    }
    if (!operator.getReturnType().getKind().isPrimitive()) {
      throw new KilnDiagnostic(callSite, Message.GRID_OPERATOR_CALL, operator.getSimpleName());
    }
    OperatorSource source = source(operator);
    if (source == null) {
      ClasspathOperators.Lookup compiled = classpath.find(operator);
      if (!compiled.found()) {
        throw new KilnDiagnostic(callSite, Message.CROSS_MODULE_OPERATOR,
            operator.getEnclosingElement().getSimpleName() + "." + operator.getSimpleName(), compiled.problem());
      }
      return map(compiled.operator(), callSite, operator);
    }
    OperatorIr ir = f.aside(() -> lower(source));
    if (ir == null) {
      throw new CalleeFailed();
    }
    return map(ir, callSite, operator);
  }

  /** A call in an expression needs a map: a primitive return type makes one, this says so if not. */
  private static OperatorIr.Elementwise map(OperatorIr ir, Tree callSite, ExecutableElement operator) {
    if (ir instanceof OperatorIr.Elementwise map) {
      return map;
    }
    throw new KilnDiagnostic(callSite, Message.GRID_OPERATOR_CALL, operator.getSimpleName());
  }
}
