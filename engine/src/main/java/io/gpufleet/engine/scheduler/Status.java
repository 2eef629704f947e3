package io.gpufleet.engine.scheduler;

import java.util.List;

/**
 * A plugin's verdict on one node. {@code UNSCHEDULABLE} may be resolved by preemption;
 * {@code UNSCHEDULABLE_AND_UNRESOLVABLE} (taints, affinity, a request larger than the node) may not.
 */
public record Status(Code code, String plugin, List<String> reasons) {

  public enum Code { SUCCESS, UNSCHEDULABLE, UNSCHEDULABLE_AND_UNRESOLVABLE }

  public static final Status SUCCESS = new Status(Code.SUCCESS, "", List.of());

  public Status {
    reasons = List.copyOf(reasons);
  }

  public static Status unschedulable(String plugin, String... reasons) {
    return new Status(Code.UNSCHEDULABLE, plugin, List.of(reasons));
  }

  public static Status unresolvable(String plugin, String... reasons) {
    return new Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, plugin, List.of(reasons));
  }

  public boolean isSuccess() {
    return code == Code.SUCCESS;
  }
}
