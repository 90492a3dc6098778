package dev.kiln.processor.ir.io;

import dev.kiln.processor.diag.Reporter;
import dev.kiln.processor.frontend.FrontEnd;
import dev.kiln.processor.frontend.OperatorSource;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.javac.TreesAdapter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedAnnotationTypes;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/**
 * A test processor that lowers every {@code @Operator} method with Kiln's own front end and keeps
 * the IR in memory, so tests can compare it with what a write and a read give back.
 */
@SupportedAnnotationTypes("dev.kiln.Operator")
final class IrCapture extends AbstractProcessor {
  final List<OperatorIr> operators = new ArrayList<>();

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    if (annotations.isEmpty()) {
      return false;
    }
    var trees = TreesAdapter.trees(processingEnv);
    FrontEnd frontEnd = new FrontEnd(trees, processingEnv.getElementUtils(), processingEnv.getFiler(),
        new Reporter(processingEnv.getMessager(), trees));
    for (Element e : round.getElementsAnnotatedWith(annotations.iterator().next())) {
      if (e.getKind() == ElementKind.METHOD) {
        OperatorSource source = frontEnd.source((ExecutableElement) e);
        OperatorIr ir = frontEnd.lower(source);
        if (ir != null) {
          operators.add(ir);
        }
      }
    }
    return false;
  }
}
