package io.gpufleet.engine.mig;

import io.gpufleet.model.gpu.MigInstance;
import java.util.List;

/** The planner's answer for one GPU: where each instance goes, or why the layout cannot exist. */
public sealed interface MigPlan {

  record Placed(List<MigInstance> instances) implements MigPlan {
    public Placed {
      instances = instances.stream().sorted().toList();
    }
  }

  record Rejected(String reason) implements MigPlan {}
}
