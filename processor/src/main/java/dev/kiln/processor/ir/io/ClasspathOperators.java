package dev.kiln.processor.ir.io;

import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.OperatorIr;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.processing.Filer;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * The IR of operators compiled in another module or jar: read from their class's IR resource
 * ({@link IrResource}, written by the processor that compiled them) on the compilation's class path,
 * through the processing environment's {@link Filer} ({@code getResource(CLASS_PATH, ...)}), once
 * per class, into one {@link ExprFactory}, so the nodes are the caller's own.
 *
 * <p>The front end has one that reads into its factory ({@code FrontEnd.classpath()}); a stage
 * with a factory of its own makes its own: {@code new ClasspathOperators(env.getFiler(),
 * env.getElementUtils(), factory)}. Not thread-safe, like the factory.
 */
public final class ClasspathOperators {
  /** The outcome of a lookup: the operator's IR, or a plain reason why there is none. */
  public record Lookup(OperatorIr operator, String problem) {
    /** Whether the IR was found; else {@link #problem()} says why not. */
    public boolean found() {
      return operator != null;
    }

    static Lookup failed(String problem) {
      return new Lookup(null, problem);
    }
  }

  /** A class's operators by name, or why they could not be read. */
  private record LoadedClass(Map<String, OperatorIr> operators, String problem) {}

  private final Filer filer;
  private final Elements elements;
  private final ExprFactory factory;
  private final Map<String, LoadedClass> classes = new HashMap<>();

  /** Reads through {@code filer}; builds the IR in {@code factory}. */
  public ClasspathOperators(Filer filer, Elements elements, ExprFactory factory) {
    this.filer = filer;
    this.elements = elements;
    this.factory = factory;
  }

  /**
   * The IR of the {@code @Operator} method {@code operator}, checked against the method's
   * signature in its class file (a stale resource is not used).
   */
  public Lookup find(ExecutableElement operator) {
    Lookup found = find((TypeElement) operator.getEnclosingElement(), operator.getSimpleName().toString());
    if (!found.found()) {
      return found;
    }
    String mismatch = SignatureMatch.mismatch(operator, found.operator());
    return mismatch == null ? found : Lookup.failed("the Kiln IR of " + found.operator().owner() + "."
        + found.operator().name() + " does not match its class: " + mismatch + "; rebuild the class"
        + " with this Kiln" + KilnVersion.suffix());
  }

  /** The IR of the operator {@code name} of {@code owner}. */
  public Lookup find(TypeElement owner, String name) {
    LoadedClass c = classes.computeIfAbsent(owner.getQualifiedName().toString(), k -> load(owner));
    if (c.problem() != null) {
      return Lookup.failed(c.problem());
    }
    OperatorIr op = c.operators().get(name);
    if (op == null) {
      return Lookup.failed("the Kiln IR of class " + owner.getQualifiedName() + " (" + IrResource.of(owner, elements).path()
          + ") has no operator '" + name + "'; rebuild the class with this Kiln" + KilnVersion.suffix());
    }
    return new Lookup(op, null);
  }

  private LoadedClass load(TypeElement owner) {
    String cls = owner.getQualifiedName().toString();
    IrResource resource = IrResource.of(owner, elements);
    String path = resource.path();
    String text;
    try {
      FileObject file = filer.getResource(StandardLocation.CLASS_PATH, resource.packageName(), resource.fileName());
      text = file.getCharContent(true).toString();
    } catch (FileNotFoundException | NoSuchFileException e) {
      return failed("class " + cls + " has no Kiln IR on the classpath (" + path + "): compile it with"
          + " the Kiln processor" + KilnVersion.suffix());
    } catch (IOException | RuntimeException e) {
      // RuntimeException: a Filer that cannot read the class path says so with IllegalArgumentException
      return failed("the Kiln IR of class " + cls + " (" + path + ") cannot be read: " + e);
    }
    return factory.aside(() -> parse(cls, path, text));
  }

  private LoadedClass parse(String cls, String path, String text) {
    try {
      Map<String, OperatorIr> byName = new LinkedHashMap<>();
      List<OperatorIr> ops = new IrReader(factory).read(text);
      for (OperatorIr op : ops) {
        if (!op.owner().equals(cls)) {
          return failed("the Kiln IR " + path + " holds operators of " + op.owner() + ", not of " + cls);
        }
        byName.put(op.name(), op);
      }
      return new LoadedClass(byName, null);
    } catch (IrVersionException e) {
      return failed("class " + cls + " was compiled by another Kiln: its IR (" + path + ") is kiln-ir "
          + e.found() + ", but this Kiln" + KilnVersion.suffix() + " reads " + IrWriter.HEADER
          + "; rebuild it with this Kiln");
    } catch (IrFormatException e) {
      return failed("the Kiln IR of class " + cls + " (" + path + ") is unreadable at line " + e.line()
          + ": " + e.problem() + "; rebuild the class with this Kiln" + KilnVersion.suffix());
    }
  }

  private static LoadedClass failed(String problem) {
    return new LoadedClass(Map.of(), problem);
  }
}
