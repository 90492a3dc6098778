package dev.kiln.processor.ir.io;

import dev.kiln.processor.codegen.cpu.KernelsWriter;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * Where the IR of a class's operators lies, in its module's class output and so on the classpath
 * of its users: {@code META-INF/kiln/<package path>/<Base>.kir}, beside the class's {@code .ir.txt}
 * and {@code .cu}, with {@code <Base>} the name of its {@code <Base>Kernels} class.
 */
public final class IrResource {
  /** The extension of IR resources. */
  public static final String EXTENSION = ".kir";

  private IrResource() {}

  /** The resource path of {@code owner}'s IR, relative to a classpath root. */
  public static String path(TypeElement owner, Elements elements) {
    String pkg = elements.getPackageOf(owner).getQualifiedName().toString();
    String base = KernelsWriter.kernelsName(owner, pkg).simpleName().replaceAll("Kernels$", "");
    return "META-INF/kiln/" + (pkg.isEmpty() ? "" : pkg.replace('.', '/') + "/") + base + EXTENSION;
  }
}
