package dev.kiln.processor.diag;

import static com.google.common.truth.Truth.assertThat;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import org.junit.jupiter.api.Test;

/** Each message carries its severity; the few that do not stop the build are named here, so a change is deliberate. */
class MessageKindsTest {
  @Test
  void everyMessageIsAnErrorButTheseNotesAndWarnings() {
    Set<Message> notes = EnumSet.of(Message.GRADIENT_NAME_TAKEN, Message.GRADIENT_UNAVAILABLE, Message.CUDA_SKIPPED,
        Message.NVCC_MISSING, Message.IR_DUMP);
    Set<Message> warnings = EnumSet.of(Message.INDEX_MAY_BE_OUT_OF_BOUNDS, Message.UNKNOWN_OPTION_VALUE);
    for (Message m : Message.values()) {
      Diagnostic.Kind want = notes.contains(m) ? Diagnostic.Kind.NOTE
          : warnings.contains(m) ? Diagnostic.Kind.WARNING : Diagnostic.Kind.ERROR;
      assertThat(m.name() + " " + m.kind()).isEqualTo(m.name() + " " + want);
    }
  }

  @Test
  void idsAreUnique() {
    Set<String> ids = EnumSet.allOf(Message.class).stream().map(Message::id).collect(Collectors.toSet());
    assertThat(ids).hasSize(Message.values().length);
  }
}
