package dev.kiln.processor;

import com.google.auto.service.AutoService;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.javac.TreesAdapter;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedAnnotationTypes;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;

/**
 * Kiln's annotation processor. It only routes: each round's {@code @Operator} and {@code @Gradient}
 * classes go to {@link OperatorProcessingStep}. Under a compiler without javac's Tree API (Eclipse's
 * ECJ) it reports {@code KILN050} once, on the first annotated element. Returns {@code false}, so
 * other processors may see the same annotations.
 */
@AutoService(Processor.class)
@SupportedAnnotationTypes({"dev.kiln.Operator", "dev.kiln.Gradient"})
public final class KilnProcessor extends AbstractProcessor {
  private OperatorProcessingStep step;
  /** The processing environment's class when it is not javac's, else null. */
  private String notJavac;
  private boolean reported;

  @Override
  public synchronized void init(ProcessingEnvironment env) {
    super.init(env);
    try {
      step = new OperatorProcessingStep(env, TreesAdapter.trees(env));
    } catch (IllegalStateException e) {
      notJavac = e.getMessage();
    }
  }

  @Override
  public Set<String> getSupportedOptions() {
    return Set.of("kiln.nvcc", "kiln.cuda.arch", "kiln.cuda.math", OperatorProcessingStep.OPTION_CONTRACTIONS,
        OperatorProcessingStep.OPTION_SIMD, OperatorProcessingStep.OPTION_SIMD_SUMS, ClassPipeline.OPTION_DUMP_IR);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    if (annotations.isEmpty() || round.processingOver()) {
      return false;
    }
    if (step == null) {
      if (!reported) {
        reported = true;
        Element first = annotations.stream().flatMap(a -> round.getElementsAnnotatedWith(a).stream())
            .findFirst().orElse(null);
        processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, Message.NOT_JAVAC.format(notJavac), first);
      }
      return false;
    }
    step.process(round);
    return false;
  }
}
