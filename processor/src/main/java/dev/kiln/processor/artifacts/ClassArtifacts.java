package dev.kiln.processor.artifacts;

import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * The name and path of everything Kiln generates for one class of operators, in one place: the
 * {@code <Base>Kernels} and {@code <Base>SimdKernels} classes, the resources under {@code
 * META-INF/kiln/<package path>/} ({@link Resource}), and the IR other modules read ({@code
 * <package path>/<Base>.kir}, beside the class files: see {@code ir.io.IrResource} for why not
 * under {@code META-INF}).
 *
 * <p>{@code <Base>} is the class's name in its package, nested classes joined by {@code _}
 * ({@code Lib_Nested} for {@code lib.Lib.Nested}).
 *
 * @param packageName the class's package, {@code ""} for the unnamed one
 * @param baseName the name every generated file of the class starts with
 */
public record ClassArtifacts(String packageName, String baseName) {
  /** Where a class's resources lie in the class output (and on the class path). */
  public static final String RESOURCES = "META-INF/kiln/";

  /** The extension of the IR other modules read. */
  public static final String KIR_EXTENSION = ".kir";

  /** A resource generated for the class, by its file name's ending. */
  public enum Resource {
    /** Every operator's IR as text. */
    IR_LISTING(".ir.txt"),
    /** The derived gradients' IR as text. */
    GRADIENT_LISTING(".gradients.ir.txt"),
    /** The fusion report, as JSON. */
    FUSION_JSON(".fusion.json"),
    /** The fusion report, as a page with pictures. */
    FUSION_HTML(".fusion.html"),
    /** How each operator can be split (the shard pass). */
    SHARDS_JSON(".shards.json"),
    /** The CUDA C of the class's kernels. */
    CUDA(".cu"),
    /** Their PTX, when nvcc was there. */
    PTX(".ptx");

    private final String suffix;

    Resource(String suffix) {
      this.suffix = suffix;
    }

    public String suffix() {
      return suffix;
    }
  }

  /** The artifacts of {@code owner}. */
  public static ClassArtifacts of(TypeElement owner, Elements elements) {
    return of(owner, elements.getPackageOf(owner).getQualifiedName().toString());
  }

  /** The artifacts of {@code owner}, declared in {@code packageName}. */
  public static ClassArtifacts of(TypeElement owner, String packageName) {
    String qualified = owner.getQualifiedName().toString();
    String simple = packageName.isEmpty() ? qualified : qualified.substring(packageName.length() + 1);
    return new ClassArtifacts(packageName, simple.replace('.', '_'));
  }

  /** The simple name of the generated class of launchers and kernels. */
  public String kernelsClass() {
    return baseName + "Kernels";
  }

  /** The simple name of the generated class of SIMD kernels. */
  public String simdKernelsClass() {
    return baseName + "SimdKernels";
  }

  /** {@code <package path>/<Base>}: where the resources lie under {@link #RESOURCES}. */
  public String resourceBase() {
    return packagePath() + baseName;
  }

  /** The path of {@code resource} in the class output: {@code META-INF/kiln/a/b/C.fusion.json}. */
  public String path(Resource resource) {
    return RESOURCES + resourceBase() + resource.suffix();
  }

  /** The IR resource's name in the class's package: {@code <Base>.kir}. */
  public String kirFileName() {
    return baseName + KIR_EXTENSION;
  }

  /** The IR resource's path relative to a class-path root: {@code a/b/C.kir}. */
  public String kirPath() {
    return packagePath() + kirFileName();
  }

  private String packagePath() {
    return packageName.isEmpty() ? "" : packageName.replace('.', '/') + "/";
  }
}
