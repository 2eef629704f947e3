package io.gpufleet.cli.nvidiaconformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.mig.LayoutPlan;
import io.gpufleet.engine.mig.MigConfigPlanner;
import io.gpufleet.engine.mig.StockMigConfigs;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigInstance;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.gpu.MigProfile;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * MIG layouts per GPU: the stock {@code all-balanced} of NVIDIA/gpu-operator
 * {@code assets/state-mig-manager/0400_configmap.yaml} applied to each GPU its device filters name,
 * and the profile lists with max counts of NVIDIA/mig-parted {@code pkg/mig/builder/builder_test.go}
 * (gpuProfiles, after the MIG user guide) against the catalogue.
 */
final class MigLayoutCases {
  private MigLayoutCases() {}

  static final String AREA = "MIG layouts";
  static final String STOCK = "gpu-operator: assets/state-mig-manager/0400_configmap.yaml";
  static final String BUILDER = "pkg/mig/builder/builder_test.go";

  private static GpuModel gpu(String id) {
    return GpuCatalog.builtIn().byId(id).orElseThrow();
  }

  private static UpstreamCase balanced(String gpu, String expected) {
    return UpstreamCase.of(AREA, STOCK, "all-balanced on " + gpu, () -> {
      LayoutPlan p = MigConfigPlanner.plan(StockMigConfigs.stock(), "all-balanced", new GpuInventory("n", gpu(gpu), 2),
          MigLayout.NONE);
      assertThat(p).isInstanceOf(LayoutPlan.Planned.class);
      Map<String, Integer> want = counts(expected);
      for (int g = 0; g < 2; g++) {
        Map<String, Integer> got = new TreeMap<>();
        for (MigInstance m : ((LayoutPlan.Planned) p).layout().instances(g)) {
          got.merge(m.profile().name(), 1, Integer::sum);
        }
        assertThat(got).isEqualTo(want);
      }
    });
  }

  private static UpstreamCase profiles(String name, String gpu, String expected) {
    return UpstreamCase.of(AREA, BUILDER, "gpuProfiles/" + name, () -> {
      Map<String, Integer> got = new TreeMap<>();
      for (MigProfile p : gpu(gpu).migProfiles()) {
        got.put(p.name(), p.maxInstances());
      }
      assertThat(got).isEqualTo(counts(expected));
    });
  }

  private static Map<String, Integer> counts(String spec) {
    Map<String, Integer> m = new TreeMap<>();
    for (String kv : spec.split(" ")) {
      m.put(kv.substring(0, kv.indexOf('=')), Integer.parseInt(kv.substring(kv.indexOf('=') + 1)));
    }
    return m;
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    c.add(balanced("GB200", "1g.23gb=2 2g.47gb=1 3g.93gb=1"));
    c.add(balanced("RTX-PRO-6000", "1g.24gb=2 2g.48gb=1"));
    c.add(balanced("B200", "1g.23gb=2 2g.45gb=1 3g.90gb=1"));
    c.add(balanced("GH200-144GB", "1g.18gb=2 2g.36gb=1 3g.72gb=1"));
    c.add(balanced("H200-141GB", "1g.18gb=2 2g.35gb=1 3g.71gb=1"));
    c.add(balanced("H200-NVL", "1g.18gb=2 2g.35gb=1 3g.71gb=1"));
    c.add(balanced("H100-NVL", "1g.12gb=2 2g.24gb=1 3g.47gb=1"));
    c.add(balanced("H100-80GB", "1g.10gb=2 2g.20gb=1 3g.40gb=1"));
    c.add(balanced("H100-PCIe", "1g.10gb=2 2g.20gb=1 3g.40gb=1"));
    c.add(balanced("A100-80GB", "1g.10gb=2 2g.20gb=1 3g.40gb=1"));
    c.add(balanced("A100-80GB-PCIe", "1g.10gb=2 2g.20gb=1 3g.40gb=1"));
    c.add(balanced("A100-40GB", "1g.5gb=2 2g.10gb=1 3g.20gb=1"));
    c.add(balanced("A30", "1g.6gb=2 2g.12gb=1"));
    c.add(balanced("GH200-96GB", "1g.12gb=2 2g.24gb=1 3g.48gb=1"));
    c.add(profiles("A30-24GB", "A30", "1g.6gb=4 1g.6gb+me=1 2g.12gb=2 2g.12gb+me=1 4g.24gb=1"));
    c.add(profiles("A100-40GB", "A100-40GB", "1g.5gb=7 1g.5gb+me=1 1g.10gb=4 2g.10gb=3 3g.20gb=2 4g.20gb=1 7g.40gb=1"));
    c.add(profiles("A100-80GB", "A100-80GB",
        "1g.10gb=7 1g.10gb+me=1 1g.20gb=4 2g.20gb=3 3g.40gb=2 4g.40gb=1 7g.80gb=1"));
    c.add(profiles("H100-80GB", "H100-80GB",
        "1g.10gb=7 1g.10gb+me=1 1g.20gb=4 2g.20gb=3 3g.40gb=2 4g.40gb=1 7g.80gb=1"));
    c.add(profiles("H100-94GB", "H100-NVL", "1g.12gb=7 1g.12gb+me=1 1g.24gb=4 2g.24gb=3 3g.47gb=2 4g.47gb=1 7g.94gb=1"));
    c.add(profiles("H100-96GB", "GH200-96GB",
        "1g.12gb=7 1g.12gb+me=1 1g.24gb=4 2g.24gb=3 3g.48gb=2 4g.48gb=1 7g.96gb=1"));
    c.add(profiles("H200-141GB", "H200-141GB",
        "1g.18gb=7 1g.18gb+me=1 1g.35gb=4 2g.35gb=3 3g.71gb=2 4g.71gb=1 7g.141gb=1"));
    c.add(profiles("B200-180GB", "B200", "1g.23gb=7 1g.23gb+me=1 1g.45gb=4 2g.45gb=3 3g.90gb=2 4g.90gb=1 7g.180gb=1"));
    c.add(profiles("RTX-PRO-6000", "RTX-PRO-6000", "1g.24gb=4 1g.24gb+me=1 1g.24gb+gfx=4 1g.24gb+me.all=1 "
        + "1g.24gb-me=4 2g.48gb=2 2g.48gb+gfx=2 2g.48gb+me.all=1 2g.48gb-me=2 4g.96gb=1 4g.96gb+gfx=1"));
    return c;
  }
}
