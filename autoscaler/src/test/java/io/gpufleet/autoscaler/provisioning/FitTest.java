package io.gpufleet.autoscaler.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.ResourceVector;
import io.gpufleet.model.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Fit#fits(ResourceVector, ResourceVector, long, ResourceVector, long)}, the sum of two requests
 * tried without being made, answers as {@link Fit#fits} over their sum, over seeded requests and
 * allocatables that share some extended resources, lack others, and sit near each other's limits.
 */
class FitTest {

  private static final String[] SCALARS = {"nvidia.com/gpu", "nvidia.com/mig-1g.10gb", "example.com/fpga"};

  @Test
  void twoRequestsFitAsTheirSum() {
    SplittableRandom r = new SplittableRandom(7);
    int fits = 0;
    for (int i = 0; i < 20_000; i++) {
      ResourceVector req = vector(r, 4);
      ResourceVector extra = vector(r, 2);
      ResourceVector alloc = vector(r, 12);
      long pods = 1 + r.nextInt(4);
      long maxPods = 1 + r.nextInt(8);
      boolean want = Fit.fits(req.plus(extra), pods, alloc, maxPods);
      assertThat(Fit.fits(req, extra, pods, alloc, maxPods)).as("case %d: %s + %s in %s", i, req, extra, alloc)
          .isEqualTo(want);
      fits += want ? 1 : 0;
    }
    assertThat(fits).as("cases that fit").isBetween(1_000, 19_000);
  }

  /** CPU, memory and storage up to {@code scale} units, and each extended resource present or not. */
  private static ResourceVector vector(SplittableRandom r, int scale) {
    List<String> parts = new ArrayList<>();
    parts.add("cpu");
    parts.add(Integer.toString(r.nextInt(scale + 1)));
    parts.add("memory");
    parts.add(r.nextInt(scale + 1) + "Gi");
    if (r.nextBoolean()) {
      parts.add("ephemeral-storage");
      parts.add(r.nextInt(scale + 1) + "Gi");
    }
    for (String s : SCALARS) {
      if (r.nextInt(3) == 0) {
        parts.add(s);
        parts.add(Integer.toString(r.nextInt(scale + 1)));
      }
    }
    return ResourceVector.of(ResourceList.of(parts.toArray(String[]::new)));
  }
}
