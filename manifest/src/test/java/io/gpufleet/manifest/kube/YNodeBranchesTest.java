package io.gpufleet.manifest.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.yaml.YNode;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * NonFiniteNumbers and ApiSchema walk a document with instanceof instead of a pattern switch (each
 * of those makes a class at run time), descending into mappings and lists and taking anything else
 * for a leaf; javac no longer checks that, so this fails when YNode permits another record.
 */
class YNodeBranchesTest {

  @Test
  void aNodeIsAMappingAListOrALeaf() {
    assertThat(Set.of(YNode.class.getPermittedSubclasses())).isEqualTo(Set.of(YNode.YMap.class, YNode.YList.class,
        YNode.YScalar.class, YNode.YNull.class));
  }
}
