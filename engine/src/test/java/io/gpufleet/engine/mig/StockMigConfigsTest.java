package io.gpufleet.engine.mig;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigInstance;
import io.gpufleet.model.gpu.MigLayout;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The stock layouts as NVIDIA's default-mig-parted-config has them, planned on the catalogue's GPUs. */
class StockMigConfigsTest {

  private static GpuModel gpu(String id) {
    return GpuCatalog.builtIn().byId(id).orElseThrow();
  }

  private static LayoutPlan plan(String gpu, String config, int count) {
    return MigConfigPlanner.plan(StockMigConfigs.stock(), config, new GpuInventory("n", gpu(gpu), count),
        MigLayout.NONE);
  }

  private static Map<String, Integer> profiles(MigLayout layout, int gpu) {
    Map<String, Integer> counts = new TreeMap<>();
    for (MigInstance m : layout.instances(gpu)) {
      counts.merge(m.profile().name(), 1, Integer::sum);
    }
    return counts;
  }

  // The all-balanced entries of NVIDIA/gpu-operator assets/state-mig-manager/0400_configmap.yaml.
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "H100-80GB       | 1g.10gb=2 2g.20gb=1 3g.40gb=1",
      "H100-PCIe       | 1g.10gb=2 2g.20gb=1 3g.40gb=1",
      "A100-80GB       | 1g.10gb=2 2g.20gb=1 3g.40gb=1",
      "A100-80GB-PCIe  | 1g.10gb=2 2g.20gb=1 3g.40gb=1",
      "A100-40GB       | 1g.5gb=2 2g.10gb=1 3g.20gb=1",
      "H100-NVL        | 1g.12gb=2 2g.24gb=1 3g.47gb=1",
      "H200-141GB      | 1g.18gb=2 2g.35gb=1 3g.71gb=1",
      "H200-NVL        | 1g.18gb=2 2g.35gb=1 3g.71gb=1",
      "GH200-96GB      | 1g.12gb=2 2g.24gb=1 3g.48gb=1",
      "GH200-144GB     | 1g.18gb=2 2g.36gb=1 3g.72gb=1",
      "B200            | 1g.23gb=2 2g.45gb=1 3g.90gb=1",
      "GB200           | 1g.23gb=2 2g.47gb=1 3g.93gb=1",
      "A30             | 1g.6gb=2 2g.12gb=1",
      "RTX-PRO-6000    | 1g.24gb=2 2g.48gb=1"})
  void allBalancedAppliesOnEveryGpuItNames(String gpu, String expected) {
    LayoutPlan p = plan(gpu, "all-balanced", 8);
    assertThat(p).isInstanceOf(LayoutPlan.Planned.class);
    MigLayout layout = ((LayoutPlan.Planned) p).layout();
    Map<String, Integer> want = new TreeMap<>();
    for (String kv : expected.split(" ")) {
      want.put(kv.split("=")[0], Integer.parseInt(kv.split("=")[1]));
    }
    for (int g = 0; g < 8; g++) {
      assertThat(profiles(layout, g)).as("GPU %d", g).isEqualTo(want);
    }
    assertThat(StockMigConfigs.layoutsFor(gpu(gpu))).containsKey("all-balanced");
  }

  @ParameterizedTest
  @CsvSource({
      // A profile the GPU lacks fails at apply, as mig-parted does.
      "H100-80GB, all-1g.5gb",
      "H200-141GB, all-1g.10gb.me",
      "GB200, all-7g.180gb",
      "H100-80GB, all-1g.12gb"})
  void aLayoutForAnotherGpuFails(String gpu, String config) {
    assertThat(plan(gpu, config, 1)).isInstanceOf(LayoutPlan.Rejected.class);
    assertThat(StockMigConfigs.layoutsFor(gpu(gpu))).doesNotContainKey(config);
  }

  @ParameterizedTest
  @CsvSource({
      // all-1g.10gb is 7 x 1g.10gb on the 80GB parts and 4 x the two-slice 1g.10gb on the A100-40GB.
      "A100-40GB, all-1g.10gb, 1g.10gb, 4",
      "H100-80GB, all-1g.10gb, 1g.10gb, 7",
      "GB200, all-1g.23gb.me, 1g.23gb+me, 1",
      "GH200-96GB, all-7g.96gb, 7g.96gb, 1",
      "RTX-PRO-6000, all-1g.24gb.gfx, 1g.24gb+gfx, 4"})
  void uniformLayouts(String gpu, String config, String profile, int n) {
    LayoutPlan p = plan(gpu, config, 1);
    assertThat(p).isInstanceOf(LayoutPlan.Planned.class);
    assertThat(profiles(((LayoutPlan.Planned) p).layout(), 0)).isEqualTo(Map.of(profile, n));
  }

  @ParameterizedTest
  @CsvSource({
      // all-1g.35gb's only entries filter on the H200 141GB (0x233510DE) and GB300: an H200 NVL is untouched.
      "H200-NVL, all-1g.35gb"})
  void aLayoutWhoseFiltersSelectNoGpuChangesNothing(String gpu, String config) {
    assertThat(plan(gpu, config, 2)).isEqualTo(new LayoutPlan.Planned(MigLayout.NONE));
  }
}
