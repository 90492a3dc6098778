package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.codegen.cuda.KernelInfo;
import dev.kiln.processor.codegen.cuda.PartialsKernelWriter;
import dev.kiln.processor.codegen.cuda.ReducingKernelWriter;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ScalarType;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * Writes the device overloads of {@code <Class>Kernels}: each operator's parameters with device
 * arrays in place of host arrays and a stream first. They check arguments exactly as the CPU
 * launchers do, then launch the operator's kernel; no data moves between host and device.
 */
public final class DeviceLauncherWriter {
  static final ClassName CHECKS = ClassName.get("dev.kiln.runtime", "Checks");
  static final ClassName RUNTIME = ClassName.get("dev.kiln.runtime.cuda", "CudaRuntime");
  static final ClassName STREAM = ClassName.get("dev.kiln.runtime.cuda", "CudaStream");
  static final ClassName PARTIAL_RESULTS = ClassName.get("dev.kiln.runtime.cuda", "PartialResults");

  private DeviceLauncherWriter() {}

  static TypeName deviceArray(ScalarType t) {
    switch (t) {
      case FLOAT: return ClassName.get("dev.kiln.runtime.cuda", "DeviceFloatArray");
      case DOUBLE: return ClassName.get("dev.kiln.runtime.cuda", "DeviceDoubleArray");
      case LONG: return ClassName.get("dev.kiln.runtime.cuda", "DeviceLongArray");
      case SHORT: return ClassName.get("dev.kiln.runtime.cuda", "DeviceShortArray");
      case BYTE: return ClassName.get("dev.kiln.runtime.cuda", "DeviceByteArray");
      default: return ClassName.get("dev.kiln.runtime.cuda", "DeviceIntArray");
    }
  }

  /**
   * The device launcher of {@code op}, whose kernel is {@code info}.
   *
   * @param kernels the generated class (its class loader finds the PTX)
   * @param resourceBase {@code <package path>/<Class>}, where the .ptx and .cu lie under META-INF/kiln
   */
  public static MethodSpec write(OperatorIr op, KernelInfo info, DocLinks owner, ClassName kernels, String resourceBase) {
    return info.launch() == KernelInfo.Launch.MAP
        ? map((OperatorIr.Elementwise) op, info, owner, kernels, resourceBase)
        : grid((OperatorIr.Grid) op, info, owner, kernels, resourceBase);
  }

  private static MethodSpec grid(OperatorIr.Grid op, KernelInfo info, DocLinks owner, ClassName kernels, String resourceBase) {
    Names names = Names.forParams(op);
    String stream = names.fresh("stream");
    MethodSpec.Builder m = MethodSpec.methodBuilder(op.name())
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .addJavadoc("CUDA launch of $L on {@code $L}: device arrays in place of arrays; $L.\n", owner.of(op.name()), stream,
            info.launch() == KernelInfo.Launch.PARTIALS
                ? "returns when the stream has finished (it frees the partial results it allocated)"
                : "asynchronous")
        .addParameter(STREAM, stream);
    List<CodeBlock> args = new ArrayList<>();
    for (Param p : op.params()) {
      m.addParameter(p instanceof Param.Array a ? deviceArray(a.elementType()) : JavaTypes.of(((Param.Scalar) p).type()), p.name());
      args.add(CodeBlock.of("$N", p.name()));
    }
    m.addStatement("$T.notNull($S, $S, $N)", CHECKS, op.name(), stream, stream);
    m.addCode(ArgumentChecks.of(op, true));
    m.addCode(launch(op, info, names, stream, kernels, resourceBase, args));
    return m.build();
  }

  /**
   * The launch of grid kernel {@code op} ({@code info}) on {@code stream} with {@code args} (its
   * parameters), as its kind of kernel needs: the grid (fewer threads for a vector kernel), rows,
   * columns, or a reduction with its fold. Also what a contraction's launcher runs for its prologues
   * and epilogue.
   */
  static CodeBlock launch(OperatorIr.Grid op, KernelInfo info, Names names, String stream, ClassName kernels,
      String resourceBase, List<CodeBlock> args) {
    CodeBlock.Builder code = CodeBlock.builder();
    CodeBlock kernel = kernel(kernels, resourceBase, info.kernel());
    if (info.launch() == KernelInfo.Launch.GRID) {
      List<CodeBlock> extents = new ArrayList<>();
      for (GridDim g : op.grid()) {
        extents.add(CodeBlock.of("$N", g.extentText()));
      }
      if (info.lanes() > 1) {
        extents.set(0, threadsForLanes(op.grid().get(0).extentText(), info));
      }
      List<CodeBlock> all = new ArrayList<>(args);
      all.addAll(checkedReads(info));
      code.addStatement("$L.launchGrid($N, new long[] {$L}, $L)", kernel, stream, CodeBlock.join(extents, ", "), CodeBlock.join(all, ", "));
    } else if (info.launch() == KernelInfo.Launch.ROWS && info.shortRows() != null) {
      // rows of at most maxLength elements: the short-row form, more rows to a multiprocessor
      KernelInfo.ShortRows rows = info.shortRows();
      CodeBlock all = CodeBlock.join(withCheckedReads(args, info), ", ");
      code.beginControlFlow("if ((long) $L - (long) $L <= $L)", rows.hi(), rows.lo(), rows.maxLength())
          .addStatement("$L.launchRows($N, $L, $L, $L)", kernel(kernels, resourceBase, rows.kernel()), stream,
              workers(op), rows.threads(), all)
          .nextControlFlow("else")
          .addStatement("$L.launchReducing($N, $L, $L)", kernel, stream, workers(op), all)
          .endControlFlow();
    } else if (info.launch() == KernelInfo.Launch.ROWS || info.launch() == KernelInfo.Launch.COLUMNS) {
      code.addStatement("$L.$L($N, $L, $L)", kernel, info.launch() == KernelInfo.Launch.ROWS ? "launchReducing" : "launchColumns",
          stream, workers(op), CodeBlock.join(withCheckedReads(args, info), ", "));
    } else if (info.launch() == KernelInfo.Launch.PARTIALS) {
      code.add(partials(op, info, names, stream, kernels, resourceBase, args));
    } else {
      code.add(reducing(op, info, names, stream, kernels, resourceBase, args));
    }
    return code.build();
  }

  /**
   * Launches a reducing kernel over the kept points, each split into {@code
   * PartialResults.segments} stretches of its reduced points (one when there are many kept points or
   * few reduced ones); with several, the blocks' totals go to partial-result arrays that {@code
   * <op>_fold} folds into the outputs: the stream's temporaries, given back once both launches are
   * enqueued.
   */
  private static CodeBlock reducing(OperatorIr.Grid op, KernelInfo info, Names names, String stream, ClassName kernels,
      String resourceBase, List<CodeBlock> args) {
    String kept = names.fresh("kept");
    String reduced = names.fresh("reduced");
    String segments = names.fresh("segments");
    CodeBlock keptPoints = CodeBlock.of("1L");
    CodeBlock reducedPoints = CodeBlock.of("1L");
    for (GridDim g : op.grid()) {
      boolean isKept = info.kept().stream().anyMatch(k -> k.var().name().equals(g.var().name()));
      if (isKept) {
        keptPoints = CodeBlock.of("$T.mul($L, $N)", CHECKS, keptPoints, g.extentText());
      } else {
        reducedPoints = CodeBlock.of("$T.mul($L, $N)", CHECKS, reducedPoints, g.extentText());
      }
    }
    CodeBlock.Builder code = CodeBlock.builder()
        .addStatement("final long $N = $L", kept, keptPoints)
        .addStatement("final long $N = $L", reduced, reducedPoints)
        .addStatement("final long $N = $T.segments($N, $N)", segments, PARTIAL_RESULTS, kept, reduced);
    List<CodeBlock> resources = new ArrayList<>();
    List<CodeBlock> all = new ArrayList<>(args);
    all.add(CodeBlock.of("$N", segments));
    for (Param.Array a : info.partials()) {
      String totals = names.fresh(a.name() + "Totals");
      resources.add(CodeBlock.of("$T $N = $N.$L($N == 1 ? 0L : $T.mul($N, $N))", deviceArray(a.elementType()),
          totals, stream, DeviceCompositeWriter.temporary(a.elementType()), segments, CHECKS, kept, segments));
      all.add(CodeBlock.of("$N", totals));
    }
    // The totals are the stream's temporaries: given back once the launches are enqueued, no wait.
    return code.beginControlFlow("try ($L)", CodeBlock.join(resources, "; "))
        .addStatement("$L.launchReducing($N, $T.mul($N, $N), $L)", kernel(kernels, resourceBase, info.kernel()), stream,
            CHECKS, kept, segments, CodeBlock.join(withCheckedReads(all, info), ", "))
        .beginControlFlow("if ($N > 1)", segments)
        .addStatement("$L.launchGrid($N, new long[] {$N}, $L)", kernel(kernels, resourceBase,
            ReducingKernelWriter.foldKernel(op.name())), stream, kept, CodeBlock.join(all, ", "))
        .endControlFlow()
        .endControlFlow()
        .build();
  }

  /**
   * Allocates a private copy of every {@code @Reduce} output a chunk of workers ({@code
   * PartialResults.chunks}), launches {@code <op>_partials} over the chunks and {@code <op>_fold}
   * over the outputs, and frees the copies once the stream is done.
   */
  private static CodeBlock partials(OperatorIr.Grid op, KernelInfo info, Names names, String stream, ClassName kernels,
      String resourceBase, List<CodeBlock> args) {
    String workers = names.fresh("workers");
    String perChunk = names.fresh("perChunk");
    String chunks = names.fresh("chunks");
    CodeBlock points = workers(op);
    CodeBlock lengths = CodeBlock.of("0L");
    CodeBlock longest = null;
    for (Param.Array a : info.partials()) {
      lengths = CodeBlock.of("$T.add($L, $N.length())", CHECKS, lengths, a.name());
      longest = longest == null ? CodeBlock.of("$N.length()", a.name()) : CodeBlock.of("Math.max($L, $N.length())", longest, a.name());
    }
    CodeBlock.Builder code = CodeBlock.builder()
        .addStatement("final long $N = $L", workers, points)
        .addStatement("final long $N = $L", perChunk, lengths)
        .addStatement("final long $N = $T.chunks($N, $N)", chunks, PARTIAL_RESULTS, workers, perChunk);
    String errors = names.fresh("indexErrors");
    List<CodeBlock> resources = new ArrayList<>();
    resources.add(CodeBlock.of("$T $N = $N.device().allocInts(1)", deviceArray(ScalarType.INT), errors, stream));
    List<CodeBlock> partialsArgs = new ArrayList<>(args);
    partialsArgs.add(CodeBlock.of("$N", chunks));
    partialsArgs.add(CodeBlock.of("$N", errors));
    // with statements after every worker, the fold kernel takes the operator's arguments first (PartialsKernelWriter)
    List<CodeBlock> foldArgs = new ArrayList<>(op.finishes() ? args : List.of());
    foldArgs.add(CodeBlock.of("$N", chunks));
    List<String> arrayNames = new ArrayList<>();
    for (Param.Array a : info.partials()) {
      String copies = names.fresh(a.name() + "Partials");
      resources.add(CodeBlock.of("$T $N = $N.device().$L($T.mul($N, $N.length()))",
          deviceArray(a.elementType()), copies, stream, DeviceCompositeWriter.alloc(a.elementType()), CHECKS, chunks,
          a.name()));
      partialsArgs.add(CodeBlock.of("$N", copies));
      partialsArgs.add(CodeBlock.of("$N.length()", a.name()));
      if (!op.finishes()) {
        foldArgs.add(CodeBlock.of("$N", a.name()));
      }
      foldArgs.add(CodeBlock.of("$N", copies));
      foldArgs.add(CodeBlock.of("$N.length()", a.name()));
      arrayNames.add("'" + a.name() + "'");
    }
    return code.beginControlFlow("try ($L)", CodeBlock.join(resources, "; "))
        .beginControlFlow("try")
        .addStatement("$N.zero()", errors)
        .addStatement("$L.launchGrid($N, new long[] {$N}, $L)", kernel(kernels, resourceBase,
            PartialsKernelWriter.partialsKernel(op.name())), stream, chunks,
            CodeBlock.join(withCheckedReads(partialsArgs, info), ", "))
        .addStatement("$N.synchronize()", stream)
        .beginControlFlow("if ($N.download()[0] != 0)", errors)
        .addStatement("throw $T.deviceIndexOutOfBounds($S, $S)", CHECKS, op.name(), String.join(" or ", arrayNames))
        .endControlFlow()
        .addStatement("$L.launchGrid($N, new long[] {$L}, $L)", kernel(kernels, resourceBase,
            PartialsKernelWriter.foldKernel(op.name())), stream, longest, CodeBlock.join(foldArgs, ", "))
        .nextControlFlow("finally")
        .addStatement("$N.synchronize()", stream) // the copies are freed only after the stream has finished
        .endControlFlow()
        .endControlFlow()
        .build();
  }

  /** The number of workers, {@code Checks.mul} of the grid's extents (1 for no grid). */
  private static CodeBlock workers(OperatorIr.Grid op) {
    CodeBlock points = CodeBlock.of("1L");
    for (GridDim g : op.grid()) {
      points = CodeBlock.of("$T.mul($L, $N)", CHECKS, points, g.extentText());
    }
    return points;
  }

  /**
   * The last arguments of a kernel with reads at data-dependent indices ({@link CheckedReads}): the
   * length of each array read so, and the device's index-error flag, which the runtime checks at the
   * next synchronising call.
   */
  static List<CodeBlock> checkedReads(KernelInfo info) {
    List<CodeBlock> args = new ArrayList<>();
    if (info.checkedReads().isEmpty()) {
      return args;
    }
    for (Param.Array a : info.checkedReads()) {
      args.add(CodeBlock.of("$N.length()", a.name()));
    }
    args.add(CodeBlock.of("$T.device().indexErrors()", RUNTIME));
    return args;
  }

  /** {@code CudaRuntime.device().kernel(<Kernels>.class, "<resource base>", "<name>")}. */
  static CodeBlock kernel(ClassName kernels, String resourceBase, String name) {
    return CodeBlock.of("$T.device().kernel($T.class, $S, $S)", RUNTIME, kernels, resourceBase, name);
  }

  private static List<CodeBlock> withCheckedReads(List<CodeBlock> args, KernelInfo info) {
    List<CodeBlock> all = new ArrayList<>(args);
    all.addAll(checkedReads(info));
    return all;
  }

  private static MethodSpec map(OperatorIr.Elementwise op, KernelInfo info, DocLinks owner, ClassName kernels, String resourceBase) {
    Names names = Names.forParams(op);
    String stream = names.fresh("stream");
    String out = names.fresh("out");
    String n = names.fresh("n");
    MethodSpec.Builder m = MethodSpec.methodBuilder(op.name())
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .addJavadoc("CUDA map of $L on {@code $L}: {@code $N[i] = $L(...)}, inputs of length 1 broadcast; asynchronous.\n",
            owner.of(op.name()), stream, out, op.name())
        .addParameter(STREAM, stream);
    List<CodeBlock> args = new ArrayList<>();
    for (Param p : op.params()) {
      m.addParameter(deviceArray(((Param.Scalar) p).type()), p.name());
    }
    m.addParameter(deviceArray(op.resultType()), out);
    m.addStatement("$T.notNull($S, $S, $N)", CHECKS, op.name(), stream, stream);
    m.addStatement("$T.notNull($S, $S, $N)", CHECKS, op.name(), out, out);
    m.addStatement("final long $N = $N.length()", n, out);
    args.add(CodeBlock.of("$N", n));
    for (Param p : op.params()) {
      m.addStatement("$T.notNull($S, $S, $N)", CHECKS, op.name(), p.name(), p.name());
      m.addStatement("$T.broadcast($S, $S, $N.length(), $N)", CHECKS, op.name(), p.name(), p.name(), n);
      args.add(CodeBlock.of("$N", p.name()));
      args.add(CodeBlock.of("$N.length()", p.name()));
    }
    args.add(CodeBlock.of("$N", out));
    m.addStatement("$L.launchMap($N, $L, $L)", kernel(kernels, resourceBase, info.kernel()), stream,
        threadsForLanes(n, info), CodeBlock.join(args, ", "));
    return m.build();
  }

  /**
   * The workers to launch for {@code extent} elements: {@code extent} itself, or for a vector kernel
   * (each thread takes {@code info.lanes()} neighbouring elements) that many fewer, rounded up.
   */
  private static CodeBlock threadsForLanes(String extent, KernelInfo info) {
    return info.lanes() > 1
        ? CodeBlock.of("($N + $LL) / $LL", extent, info.lanes() - 1, info.lanes())
        : CodeBlock.of("$N", extent);
  }
}
