package dev.kiln.processor.frontend;

import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import dev.kiln.processor.ir.MathFn;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.Elements;

/**
 * Resolves the names an operator body uses that are not locals or parameters: called methods,
 * types, and static constants. Operator bodies are read before javac attributes them, so this
 * follows Java's rules for the cases the DSL allows: members of the enclosing class, single and
 * on-demand (static) imports, the same package, and {@code java.lang}.
 */
final class NameResolver {
  static final String KMATH = "dev.kiln.KMath";
  static final String KRANDOM = "dev.kiln.KRandom";
  static final String JAVA_MATH = "java.lang.Math";

  private final Elements elements;
  private final OperatorSource op;

  NameResolver(Elements elements, OperatorSource op) {
    this.elements = elements;
    this.op = op;
  }

  /** A resolver for the body of {@code other}, in its own class and compilation unit. */
  NameResolver in(OperatorSource other) {
    return new NameResolver(elements, other);
  }

  Callee callee(MethodInvocationTree call) {
    ExpressionTree select = call.getMethodSelect();
    if (select instanceof IdentifierTree id) {
      return unqualified(id.getName().toString(), call.getArguments().size());
    }
    if (select instanceof MemberSelectTree member) {
      String name = member.getIdentifier().toString();
      TypeElement type = type(member.getExpression());
      if (type == null) {
        return new Callee.Unknown("method '" + name + "' of '" + member.getExpression() + "'");
      }
      return member(type, name, call.getArguments().size());
    }
    return new Callee.Unknown("'" + select + "'");
  }

  private Callee unqualified(String name, int arity) {
    Callee own = operatorIn(op.owner(), name);
    if (own != null) {
      return own;
    }
    for (ImportTree imp : imports()) {
      if (!imp.isStatic()) {
        continue;
      }
      Tree id = imp.getQualifiedIdentifier();
      if (!(id instanceof MemberSelectTree ms)) {
        continue;
      }
      String member = ms.getIdentifier().toString();
      if (!member.equals("*") && !member.equals(name)) {
        continue;
      }
      TypeElement type = elements.getTypeElement(ms.getExpression().toString());
      if (type == null) {
        continue;
      }
      Callee c = member(type, name, arity);
      if (!(c instanceof Callee.Unknown)) {
        return c;
      }
    }
    for (Element e : op.owner().getEnclosedElements()) {
      if (e.getKind() == ElementKind.METHOD && e.getSimpleName().contentEquals(name)) {
        return new Callee.Unknown(
            "method '" + name + "', which is not annotated @Operator (annotate it to inline it)");
      }
    }
    return new Callee.Unknown("method '" + name + "'");
  }

  private Callee member(TypeElement type, String name, int arity) {
    String qualified = type.getQualifiedName().toString();
    if (qualified.equals(KMATH) || qualified.equals(JAVA_MATH) || qualified.equals(KRANDOM)) {
      MathFn fn = MathFn.byJavaName(name);
      boolean kmath = qualified.equals(KMATH);
      if (fn != null && fn.arity() == arity
          && (kmath ? fn.inKMath() : qualified.equals(KRANDOM) ? fn.random() : fn.inJavaMath())) {
        return new Callee.Math(fn, kmath);
      }
      return new Callee.Unknown(type.getSimpleName() + "." + name);
    }
    Callee c = operatorIn(type, name);
    return c != null ? c : new Callee.Unknown(type.getSimpleName() + "." + name);
  }

  /** The {@code @Operator} method of {@code type} named {@code name}, or null. */
  static Callee operatorIn(TypeElement type, String name) {
    for (Element e : type.getEnclosedElements()) {
      if (e.getKind() == ElementKind.METHOD
          && e.getSimpleName().contentEquals(name)
          && Annotations.has(e, Annotations.OPERATOR)) {
        return new Callee.Operator((ExecutableElement) e);
      }
    }
    return null;
  }

  /** The constant value of a static final field named by {@code tree}, or null. */
  Object constant(ExpressionTree tree) {
    VariableElement field = null;
    if (tree instanceof IdentifierTree id) {
      field = fieldIn(op.owner(), id.getName().toString());
      if (field == null) {
        for (ImportTree imp : imports()) {
          if (imp.isStatic() && imp.getQualifiedIdentifier() instanceof MemberSelectTree ms) {
            String member = ms.getIdentifier().toString();
            TypeElement type = elements.getTypeElement(ms.getExpression().toString());
            if (type != null && (member.equals("*") || member.contentEquals(id.getName()))) {
              field = fieldIn(type, id.getName().toString());
              if (field != null) {
                break;
              }
            }
          }
        }
      }
    } else if (tree instanceof MemberSelectTree ms) {
      TypeElement type = type(ms.getExpression());
      if (type != null) {
        field = fieldIn(type, ms.getIdentifier().toString());
      }
    }
    return field == null ? null : field.getConstantValue();
  }

  private static VariableElement fieldIn(TypeElement type, String name) {
    for (Element e : type.getEnclosedElements()) {
      if (e.getKind() == ElementKind.FIELD
          && e.getSimpleName().contentEquals(name)
          && e.getModifiers().contains(Modifier.STATIC)) {
        return (VariableElement) e;
      }
    }
    return null;
  }

  /** The type a (possibly qualified) name in this compilation unit refers to, or null. */
  TypeElement type(ExpressionTree tree) {
    String text = tree.toString();
    if (text.contains(".")) {
      TypeElement t = elements.getTypeElement(text);
      if (t != null) {
        return t;
      }
      // Outer.Inner written relative to an import
      int dot = text.indexOf('.');
      TypeElement outer = simpleType(text.substring(0, dot));
      return outer == null ? null : elements.getTypeElement(outer.getQualifiedName() + text.substring(dot));
    }
    return simpleType(text);
  }

  private TypeElement simpleType(String name) {
    // the class itself, its member types, then those of each enclosing class outwards
    for (Element scope = op.owner(); scope instanceof TypeElement type; scope = scope.getEnclosingElement()) {
      if (type.getSimpleName().contentEquals(name)) {
        return type;
      }
      for (Element e : type.getEnclosedElements()) {
        if (e instanceof TypeElement t && t.getSimpleName().contentEquals(name)) {
          return t;
        }
      }
    }
    // Java's order: single-type imports, the same package, on-demand imports, java.lang.
    List<String> candidates = new ArrayList<>();
    List<String> onDemand = new ArrayList<>();
    for (ImportTree imp : imports()) {
      if (imp.isStatic()) {
        continue;
      }
      String q = imp.getQualifiedIdentifier().toString();
      if (q.endsWith("." + name)) {
        candidates.add(q);
      } else if (q.endsWith(".*")) {
        onDemand.add(q.substring(0, q.length() - 1) + name);
      }
    }
    PackageElement pkg = elements.getPackageOf(op.owner());
    candidates.add(pkg.isUnnamed() ? name : pkg.getQualifiedName() + "." + name);
    candidates.addAll(onDemand);
    candidates.add("java.lang." + name);
    for (String c : candidates) {
      TypeElement t = elements.getTypeElement(c);
      if (t != null) {
        return t;
      }
    }
    return null;
  }

  private List<? extends ImportTree> imports() {
    return op.unit().getImports();
  }
}
