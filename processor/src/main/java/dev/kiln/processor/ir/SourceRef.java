package dev.kiln.processor.ir;

/**
 * Where in the operator's source an IR element came from, for diagnostics: opaque to every stage.
 * The front end makes them from javac's trees ({@code frontend.TreeRef}); only the driver, which
 * reports, looks inside. An element Kiln made up (a gradient's loop, IR read from another module)
 * has none (null).
 */
public interface SourceRef {}
