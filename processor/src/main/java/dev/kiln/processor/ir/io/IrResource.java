package dev.kiln.processor.ir.io;

import dev.kiln.processor.artifacts.ClassArtifacts;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * Where the IR of a class's operators lies, in its module's class output and so on the class path
 * of its users: beside the class file, in the class's package, named after its {@code <Base>Kernels}
 * class: {@code lib/Lib.kir} for {@code lib.Lib}, {@code lib/Lib_Nested.kir} for {@code
 * lib.Lib.Nested}. Written and read through the {@link javax.annotation.processing.Filer} with a
 * package and a relative name; the names are {@link ClassArtifacts}'s.
 *
 * <p>Not under {@code META-INF/kiln/} like the class's other resources: javac's file manager indexes
 * a jar on the class path by the directories that are Java identifiers (package directories) and
 * does not see a resource under {@code META-INF} there, so {@code Filer.getResource(CLASS_PATH,
 * ...)} would find a library's IR in a classes directory but never in its jar.
 *
 * @param packageName the class's package, {@code ""} for the unnamed one
 * @param fileName the resource's name in that package, {@code <Base>.kir}
 */
public record IrResource(String packageName, String fileName) {
  /** The extension of IR resources. */
  public static final String EXTENSION = ClassArtifacts.KIR_EXTENSION;

  /** The IR resource of {@code owner}'s operators. */
  public static IrResource of(TypeElement owner, Elements elements) {
    ClassArtifacts artifacts = ClassArtifacts.of(owner, elements);
    return new IrResource(artifacts.packageName(), artifacts.kirFileName());
  }

  /** The path relative to a class-path root, for messages: {@code lib/Lib.kir}. */
  public String path() {
    return (packageName.isEmpty() ? "" : packageName.replace('.', '/') + "/") + fileName;
  }
}
