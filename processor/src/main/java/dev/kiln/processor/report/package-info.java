/**
 * The fusion report: what the merger decided for each composite operator, written beside the
 * generated kernels under {@code META-INF/kiln/<package>/}.
 *
 * <p>{@link dev.kiln.processor.report.FusionReport} is the model. One writer per format renders it:
 * {@link dev.kiln.processor.report.ReportJson} (the {@code .fusion.json} resource, for tools and
 * tests), {@link dev.kiln.processor.report.ReportDot} (Graphviz text of a composite before and after
 * fusion) and {@link dev.kiln.processor.report.ReportHtml} (one standalone page with both pictures
 * drawn as inline SVG). The pictures come from one package-private model, {@code Dag}, so DOT and
 * SVG show the same nodes and edges; {@code DagLayout} and {@code EdgeRouter} place them.
 */
package dev.kiln.processor.report;
