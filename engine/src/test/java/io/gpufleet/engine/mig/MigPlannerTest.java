package io.gpufleet.engine.mig;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigInstance;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MigPlannerTest {

  private static GpuModel gpu(String id) {
    return GpuCatalog.builtIn().byId(id).orElseThrow();
  }

  /** "a=1 b=2" → {a: 1, b: 2}. */
  private static Map<String, Integer> layout(String spec) {
    Map<String, Integer> m = new LinkedHashMap<>();
    for (String part : spec.trim().split("\\s+")) {
      String[] kv = part.split("=");
      m.merge(kv[0], Integer.parseInt(kv[1]), Integer::sum);
    }
    return m;
  }

  /** The fit examples of k8s-gpu-semantics §4, on the 8x7 class. */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "1g.10gb=7                              | 1g.10gb@0 1g.10gb@1 1g.10gb@2 1g.10gb@3 1g.10gb@4 1g.10gb@5 1g.10gb@6",
      "3g.40gb=2                              | 3g.40gb@0 3g.40gb@4",
      "4g.40gb=1 3g.40gb=1                    | 4g.40gb@0 3g.40gb@4",
      "2g.20gb=2 3g.40gb=1                    | 2g.20gb@0 2g.20gb@2 3g.40gb@4",
      "3g.40gb=1 2g.20gb=1 1g.10gb=1          | 3g.40gb@0 2g.20gb@4 1g.10gb@6",
      "1g.10gb=4 3g.40gb=1                    | 1g.10gb@0 1g.10gb@1 1g.10gb@2 1g.10gb@3 3g.40gb@4",
      "4g.40gb=1 2g.20gb=1 1g.10gb=1          | 4g.40gb@0 2g.20gb@4 1g.10gb@6",
      "7g.80gb=1                              | 7g.80gb@0",
      "1g.20gb=4                              | 1g.20gb@0 1g.20gb@2 1g.20gb@4 1g.20gb@6"})
  void placesTheDocumentedLayouts(String spec, String expected) {
    MigPlan plan = MigPlanner.plan(gpu("A100-80GB"), layout(spec));
    assertThat(plan).isInstanceOf(MigPlan.Placed.class);
    assertThat(((MigPlan.Placed) plan).instances()).map(MigInstance::toString)
        .containsExactlyInAnyOrder(expected.trim().split(" "));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "A100-80GB | 3g.40gb=1 4g.40gb=1 1g.10gb=1 | 1g.10gb + 3g.40gb + 4g.40gb needs 8 compute slices; NVIDIA A100-SXM4-80GB has 7",
      "A100-80GB | 1g.10gb=8                     | NVIDIA A100-SXM4-80GB holds at most 7 × 1g.10gb, asked for 8",
      "A100-80GB | 7g.80gb=1 1g.10gb=1           | 1g.10gb + 7g.80gb needs 8 compute slices; NVIDIA A100-SXM4-80GB has 7",
      "A100-80GB | 1g.20gb=4 1g.10gb=1           | 1g.10gb + 4 × 1g.20gb needs 9 memory slices; NVIDIA A100-SXM4-80GB has 8",
      "A100-80GB | 1g.5gb=1                      | MIG profile 1g.5gb does not exist on NVIDIA A100-SXM4-80GB",
      "A10G      | 1g.10gb=1                     | MIG is not supported on NVIDIA A10G",
      "L4        | 1g.5gb=1                      | MIG is not supported on NVIDIA L4"})
  void rejectsImpossibleLayoutsWithTheReason(String id, String spec, String reason) {
    MigPlan plan = MigPlanner.plan(gpu(id.trim()), layout(spec));
    assertThat(plan).isInstanceOf(MigPlan.Rejected.class);
    assertThat(((MigPlan.Rejected) plan).reason()).contains(reason.trim());
  }

  /** 3g@0 leaves no room for two 2g (a 2g cannot start at 6): the planner must backtrack to 3g@4. */
  @Test
  void searchesPlacementsNotJustTheFirstStart() {
    MigPlan plan = MigPlanner.plan(gpu("A100-80GB"), layout("3g.40gb=1 2g.20gb=2"));
    assertThat(plan).isInstanceOf(MigPlan.Placed.class);
    assertThat(((MigPlan.Placed) plan).instances()).map(MigInstance::toString)
        .containsExactly("2g.20gb@0", "2g.20gb@2", "3g.40gb@4");
  }

  @Test
  void a30HasFourSlices() {
    assertThat(MigPlanner.plan(gpu("A30"), layout("2g.12gb=1 1g.6gb=2"))).isInstanceOf(MigPlan.Placed.class);
    assertThat(MigPlanner.plan(gpu("A30"), layout("4g.24gb=1 1g.6gb=1"))).isInstanceOf(MigPlan.Rejected.class);
  }
}
