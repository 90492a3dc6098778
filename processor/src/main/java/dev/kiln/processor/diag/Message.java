package dev.kiln.processor.diag;

import javax.tools.Diagnostic;

/**
 * Every diagnostic the processor reports, with a stable id and its severity (an error unless it
 * says otherwise; {@link Reporter} prints each with its own). The id leads the printed message, in
 * brackets, so users can search for it and tests can pin it. Texts are {@link String#format}
 * patterns. Ids are never reused for a different meaning.
 */
public enum Message {
  UNSUPPORTED_STATEMENT(
      "KILN001",
      "%s is not supported in an operator body; supported are local declarations, assignments,"
          + " if/else, for loops and (in elementwise operators) return"),
  UNSUPPORTED_EXPRESSION(
      "KILN002",
      "%s is not supported in an operator; supported are literals, locals, parameters,"
          + " arithmetic, comparisons, ?:, casts, array reads and calls of KMath, Math and"
          + " operators"),
  UNKNOWN_CALL(
      "KILN003",
      "call to %s is not supported: an operator may call only dev.kiln.KMath and java.lang.Math"
          + " functions, dev.kiln.KRandom.uniform and normal and other @Operator methods"),
  RECURSION("KILN004", "operator '%s' calls itself (through %s); recursion is not supported"),
  ALLOCATION_IN_WORKER(
      "KILN005",
      "allocation inside a worker is not supported; workers run in parallel and may not allocate"
          + " (allocate temporaries outside the operator and pass them as @Out arrays)"),
  OBJECT_USE(
      "KILN006",
      "%s: operators work on primitives and arrays only; objects, fields and strings are not"
          + " supported (static final constants are)"),
  WRITE_RACE(
      "KILN007",
      "workers may write the same element of '%s': %s. Each worker must write distinct elements;"
          + " if this is a reduction, declare the parameter @Out @Reduce"),
  INDEX_OUT_OF_BOUNDS(
      "KILN008", "index %s of '%s' is out of bounds for every worker: the array has %s elements"),
  SHAPE_UNKNOWN_DIM(
      "KILN009", "@Shape(\"%s\") names '%s', which is not a @Dim parameter of '%s'%s"),
  OUT_NEVER_WRITTEN("KILN010", "@Out parameter '%s' is never written by '%s'"),
  PARALLEL_LOOP_FORM(
      "KILN011",
      "@Parallel loop is not of the supported form: %s; write for (@Parallel int i = 0; i < N;"
          + " i++) with N a @Dim parameter or a size made of them (4 * H, N1 + N2)"),
  OPERATOR_NOT_STATIC("KILN012", "@Operator method '%s' must be static"),
  UNSUPPORTED_PARAMETER_TYPE(
      "KILN013",
      "parameter '%s' has type %s; operators take float, double, int, long and boolean scalars"
          + " and float[], double[], int[], long[], short[] and byte[] arrays (short[] and byte[] not"
          + " @Reduce)"),
  ARRAY_WITHOUT_SHAPE(
      "KILN014", "array parameter '%s' needs a @Shape, e.g. @Shape(\"N\") or @Shape(\"B, H\")"),
  DIM_NOT_INT("KILN015", "@Dim parameter '%s' must be an int"),
  RETURN_TYPE(
      "KILN016",
      "operator '%s' %s; an elementwise operator returns a float, double, int, long or boolean"
          + " computed from scalar parameters, a grid operator returns void and writes @Out arrays"),
  NOT_PERFECTLY_NESTED(
      "KILN017",
      "%s; @Parallel loops must be perfectly nested: each @Parallel loop's body is exactly the"
          + " next @Parallel loop, and the innermost one's body is the worker"),
  OUT_NOT_ARRAY("KILN018", "@%s parameter '%s' must be an array"),
  WRITE_TO_INPUT(
      "KILN019", "'%s' is an input and may not be written; mark the parameter @Out to write it"),
  READ_OF_OUTPUT(
      "KILN020",
      "worker reads @Out array '%s'; outputs are write-only inside an operator, keep the value in"
          + " a local instead"),
  REDUCE_FORM(
      "KILN021",
      "%s; a @Reduce array is updated only as r[i] += e, r[i] *= e, r[i] = max(r[i], e) or"
          + " r[i] = min(r[i], e), with one operator per array"),
  ASSIGN_TO_PARAMETER(
      "KILN022", "parameter '%s' is assigned; operator parameters are read-only, use a local"),
  SHAPE_SYNTAX(
      "KILN023",
      "@Shape(\"%s\") is malformed: %s; write comma-separated extents made of @Dim names, integer"
          + " literals, +, - and *"),
  UNSUPPORTED_LOCAL_TYPE(
      "KILN024", "local '%s' has type %s; locals are float, double, int, long, boolean or records of them"),
  SEQUENTIAL_LOOP_FORM(
      "KILN025",
      "loop is not of the supported form: %s; write for (int k = lo; k < hi; k++) (or k += c with"
          + " c a positive int literal or constant)"),
  STATEMENT_OUTSIDE_GRID(
      "KILN026",
      "%s outside the @Parallel loops; before the loops only local declarations of sizes and"
          + " constants are allowed, after them nothing"),
  GRID_OPERATOR_CALL(
      "KILN027",
      "call to grid operator '%s' inside a worker or a grid operator; grid operators are called"
          + " from composite operators, whose body (without @Parallel loops) holds only"
          + " temporaries, int sizes and operator calls"),
  ARGUMENT_MISMATCH("KILN028", "call to '%s': %s"),
  ELEMENTWISE_LOOP(
      "KILN030",
      "%s is not supported in an elementwise operator; loops and arrays belong in grid operators"),
  CROSS_MODULE_OPERATOR(
      "KILN031",
      "operator '%s' is compiled in another module or jar, and its Kiln IR cannot be used: %s"),
  DUPLICATE_OPERATOR(
      "KILN032",
      "operator name '%s' is used twice in %s; operators of one class need distinct names (they"
          + " name kernels)"),
  NVCC_FAILED(
      "KILN033", "nvcc could not compile the CUDA source generated for %s%s:\n%s"),
  NVCC_MISSING(Diagnostic.Kind.NOTE, 
      "KILN034",
      "nvcc was not found (set -Akiln.nvcc=<path>, CUDA_HOME or PATH); CUDA sources are written"
          + " without PTX, and will need NVRTC at run time"),
  CUDA_SKIPPED(Diagnostic.Kind.NOTE, "KILN035", "operator '%s' is not compiled for CUDA: %s; it runs on the CPU only"),
  SHARED_LOCAL(
      "KILN036",
      "local '%s' is declared before the @Parallel loops and assigned inside them, so every worker"
          + " would share it; declare it inside the loops"),
  COMPOSITE_STATEMENT(
      "KILN037",
      "%s is not allowed in a composite operator; its body holds temporaries (float[] t = new"
          + " float[n]), int sizes (int n = B * H) and calls of grid operators, in order"),
  COMPOSITE_ARGUMENT("KILN038", "argument '%s' of the call to '%s' (parameter '%s'): %s"),
  COMPOSITE_SHAPE(
      "KILN039",
      "argument '%s' of the call to '%s' has %s elements, but parameter '%s' has @Shape(\"%s\")"
          + " = %s elements in this call"),
  COMPOSITE_WRITES_INPUT(
      "KILN040",
      "the call to '%s' writes '%s', an input of '%s'; only @Out parameters and temporaries may be"
          + " written"),
  COMPOSITE_ALIAS(
      "KILN041",
      "'%s' is passed to '%s' as both '%s' and '%s'; an operator may not read and write one array,"
          + " or write it twice"),
  COMPOSITE_REWRITE(
      "KILN042",
      "the call to '%s' writes '%s' after '%s' read it; in a composite every array is written"
          + " before it is read (write the new values to a new temporary)"),
  GRADIENT_UNAVAILABLE(Diagnostic.Kind.NOTE, 
      "KILN043",
      "'%s' gets no derived gradient: %s. Write one with @Gradient(of = \"%s\") if you need it"),
  GRADIENT_UNKNOWN_TARGET(
      "KILN044",
      "@Gradient(of = \"%s\"): this class has no @Operator named '%s'"),
  GRADIENT_SIGNATURE(
      "KILN045",
      "@Gradient(of = \"%s\"): %s (the forward parameters, then one upstream gradient per floating-point"
          + " output, then one @Out gradient per floating-point input array)"),
  GRADIENT_NAME_TAKEN(Diagnostic.Kind.NOTE, 
      "KILN046",
      "the gradient of '%s' would be named '%s', which another method of this class already has;"
          + " rename one of them, or mark it @Gradient(of = \"%s\")"),
  INDEX_OUT_OF_BOUNDS_AT_EDGE(
      "KILN047",
      "index %s of '%s' is out of bounds for the worker where %s: at every size it reaches %s, where"
          + " the plain method throws. Guard the access so that this worker skips it, e.g. with if (%s)"
          + " or ?: around the read"),
  INDEX_MAY_BE_OUT_OF_BOUNDS(Diagnostic.Kind.WARNING, 
      "KILN049",
      "index %s of '%s' may be out of bounds: over the workers and loops it runs from %s to %s, and '%s'"
          + " has %s elements. Where it is outside, the plain method and the CPU launcher throw"
          + " ArrayIndexOutOfBoundsException, and a CUDA kernel reads 0 and reports it at the next"
          + " synchronisation; guard the access with if or ?: if that can happen"),
  UPDATE_OF_OUTPUT(
      "KILN048",
      "'%s %s= ...' reads @Out array '%s' before writing it, and outputs are write-only inside an"
          + " operator. To add every worker's (or iteration's) contribution into it, declare the"
          + " parameter @Out @Reduce (then '%s' is updated only as r[i] += e, r[i] *= e, or with max or"
          + " min); to compute the value in steps, keep it in a local and store it once"),
  NOT_JAVAC(
      "KILN050",
      "Kiln reads operator bodies through javac's Tree API (com.sun.source), and this compiler's"
          + " processing environment (%s) is not javac's and does not wrap it, so no operator was"
          + " compiled. Build with javac: Maven's maven-compiler-plugin, Gradle's JavaCompile, plain"
          + " javac, or IntelliJ IDEA with its javac compiler; Eclipse's compiler (ECJ) is not supported"),
  IR_DUMP(Diagnostic.Kind.NOTE, "KILN051", "the IR of %2$s after the %1$s pass (-Akiln.dumpIr):\n%3$s"),
  UNKNOWN_OPTION_VALUE(Diagnostic.Kind.WARNING, "KILN052", "%s; the option is ignored"),
  RECORD_FORM(
      "KILN053",
      "record '%s' cannot be used in an operator: %s. Operators hold records whose components are"
          + " float, double, int, long or boolean, build them with new, and call their methods, whose"
          + " bodies (compiled with the operator) Kiln inlines"),
  OFFSET_FORM("KILN055", "@Offset on '%s': %s; an @Offset parameter is an int that names a @Dim of its operator, @Offset(\"B\")"),
  RECORD_VALUE(
      "KILN054",
      "%s: a record value is held in a local of its record type, passed to or returned from the"
          + " record's methods, or read through its components"),
  RECORD_ARRAY_FORM(
      "KILN056",
      "%s; an array of records R[] r (R a record of float, double, int or long components) is an input"
          + " read as r[i], an @Out array written as r[i] = e, or an @Out @Reduce array updated only as"
          + " r[i] = r[i].m(e) or r[i] = R.m(r[i], e), where m combines two R values (associative, with R's"
          + " static no-argument @Identity method as its unit: Kiln combines workers' partial results with it)"),
  INTERNAL_ERROR(
      "KILN999",
      "internal error in Kiln while compiling '%s': %s. This is a bug in Kiln; please report it"
          + " with this operator");

  private final Diagnostic.Kind kind;
  private final String id;
  private final String pattern;

  Message(String id, String pattern) {
    this(Diagnostic.Kind.ERROR, id, pattern);
  }

  Message(Diagnostic.Kind kind, String id, String pattern) {
    this.kind = kind;
    this.id = id;
    this.pattern = pattern;
  }

  public String id() {
    return id;
  }

  /** How javac reports it: an error (the compilation fails), a warning or a note. */
  public Diagnostic.Kind kind() {
    return kind;
  }

  /** The full text: {@code [KILN007] workers may write ...}. */
  public String format(Object... args) {
    return "[" + id + "] " + String.format(pattern, args);
  }
}
