package dev.kiln.processor.artifacts;

import static com.google.common.truth.Truth.assertThat;

import dev.kiln.processor.artifacts.ClassArtifacts.Resource;
import org.junit.jupiter.api.Test;

/** Every generated file's name and path comes from {@link ClassArtifacts}. */
class ClassArtifactsTest {
  @Test
  void resourcesFollowThePackage() {
    ClassArtifacts a = new ClassArtifacts("dev.kiln.samples", "LstmOps");
    assertThat(a.path(Resource.FUSION_JSON)).isEqualTo("META-INF/kiln/dev/kiln/samples/LstmOps.fusion.json");
    assertThat(a.path(Resource.FUSION_HTML)).isEqualTo("META-INF/kiln/dev/kiln/samples/LstmOps.fusion.html");
    assertThat(a.path(Resource.IR_LISTING)).isEqualTo("META-INF/kiln/dev/kiln/samples/LstmOps.ir.txt");
    assertThat(a.path(Resource.GRADIENT_LISTING)).isEqualTo("META-INF/kiln/dev/kiln/samples/LstmOps.gradients.ir.txt");
    assertThat(a.path(Resource.SHARDS_JSON)).isEqualTo("META-INF/kiln/dev/kiln/samples/LstmOps.shards.json");
    assertThat(a.path(Resource.CUDA)).isEqualTo("META-INF/kiln/dev/kiln/samples/LstmOps.cu");
    assertThat(a.path(Resource.PTX)).isEqualTo("META-INF/kiln/dev/kiln/samples/LstmOps.ptx");
    assertThat(a.resourceBase()).isEqualTo("dev/kiln/samples/LstmOps");
  }

  @Test
  void theUnnamedPackageHasNoDirectory() {
    ClassArtifacts a = new ClassArtifacts("", "Top");
    assertThat(a.path(Resource.FUSION_JSON)).isEqualTo("META-INF/kiln/Top.fusion.json");
    assertThat(a.kirPath()).isEqualTo("Top.kir");
  }

  @Test
  void classesAndTheIrAreNamedAfterTheBase() {
    ClassArtifacts a = new ClassArtifacts("lib", "Lib_Nested");
    assertThat(a.kernelsClass()).isEqualTo("Lib_NestedKernels");
    assertThat(a.simdKernelsClass()).isEqualTo("Lib_NestedSimdKernels");
    assertThat(a.kirFileName()).isEqualTo("Lib_Nested.kir");
    assertThat(a.kirPath()).isEqualTo("lib/Lib_Nested.kir");
  }
}
