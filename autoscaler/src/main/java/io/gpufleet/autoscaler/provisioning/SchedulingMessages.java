package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import java.util.List;
import java.util.TreeMap;

/**
 * Karpenter's wording for a pod it cannot provision for, as its {@code FailedScheduling} event
 * shows it (reference §1.1, §1.4, §5.5; e.g. https://github.com/aws/karpenter-provider-aws/issues/8068):
 * {@code Failed to schedule pod, <reason per NodePool, joined by "; ">}.
 */
final class SchedulingMessages {
  private SchedulingMessages() {}

  static String failed(List<String> perNodePool) {
    return "Failed to schedule pod, " + String.join("; ", perNodePool);
  }

  /**
   * gpufleet's {@code draRequests: allocate}: the instance types that met everything else had no
   * NVIDIA DRA driver devices to satisfy the pod's claims.
   */
  static final String DRA_UNSATISFIED = "no instance type's NVIDIA DRA driver devices satisfy the pod's "
      + "ResourceClaims (draRequests: allocate, a gpufleet extension)";

  /**
   * Karpenter's allocator ({@code ignoreDRARequests: false}): no instance type of the NodeClaim has
   * devices for the pod's claims. {@code K:pkg/controllers/provisioning/scheduling/nodeclaim.go} wraps
   * {@code K:pkg/scheduling/dynamicresources/allocator.go}'s error.
   */
  static final String DRA_NO_INSTANCE_TYPE = "allocating dynamic resources, no instance type can satisfy the "
      + "allocation";

  /**
   * Karpenter's allocator: the instance types with devices for the claims are not those that meet the
   * pod's other requirements ({@code K:pkg/controllers/provisioning/scheduling/nodeclaim.go}).
   */
  static final String DRA_NOT_BOTH = "no instance type satisfies both scheduling and dynamic resource requirements";

  /**
   * gpufleet's {@code draRequests: allocate}: the NodePool's nodes would run the device plugin, so
   * NVIDIA's DRA driver publishes no devices there for the pod's claims.
   */
  static String draDriverOff(String nodePool) {
    return "nodepool's nodes run the NVIDIA device plugin, not the DRA driver, so no devices for the pod's "
        + "ResourceClaims (label nvidia.com/gpu.deploy.device-plugin: \"false\" in its template leaves their GPUs "
        + "to the driver; draRequests: allocate, a gpufleet extension) (NodePool=" + nodePool + ")";
  }

  static String limitsExceeded(String nodePool) {
    return "all available instance types exceed limits for nodepool (NodePool=" + nodePool + ")";
  }

  static String nodeLimitsExhausted(String nodePool) {
    return "node limits have been exhausted for nodepool (NodePool=" + nodePool + ")";
  }

  /** {@code K:pkg/scheduling/taints.go}: {@code did not tolerate taint (taint=key=value:Effect)}. */
  static String untolerated(Taint t) {
    return "did not tolerate taint (taint=" + t + ")";
  }

  static String incompatibleRequirements(String detail) {
    return "incompatible requirements, " + detail;
  }

  /**
   * No instance type of the NodePool is left for the pod:
   * {@code incompatible with nodepool "gpu", daemonset overhead={...}, <why>, requirements=..., resources={...}}.
   */
  /**
   * Why a NodeClaim cannot take the pod under the Strict MinValuesPolicy
   * ({@code K:pkg/cloudprovider/types.go} SatisfiesMinValues' error, wrapped with its keys).
   */
  static String minValuesNotMet(List<String> keys) {
    return "minValues requirement is not met for label(s) (label(s)=[" + String.join(" ", keys) + "])";
  }

  static String noInstanceType(String nodePool, ResourceList overhead, int overheadPods, String why,
      String requirements, ResourceList total, long totalPods) {
    return "incompatible with nodepool \"" + nodePool + "\", daemonset overhead=" + json(overhead, overheadPods)
        + ", " + why + ", requirements=" + requirements + ", resources=" + json(total, totalPods);
  }

  /** A resource list as Go's JSON encoder writes Karpenter's: keys sorted, quantities as strings. */
  static String json(ResourceList list, long pods) {
    TreeMap<String, String> m = new TreeMap<>();
    list.quantities().forEach((k, v) -> {
      if (!v.isZero()) {
        m.put(k.name(), v.toString());
      }
    });
    if (pods > 0) {
      m.put("pods", Quantity.of(pods).toString());
    }
    StringBuilder b = new StringBuilder("{");
    m.forEach((k, v) -> {
      if (b.length() > 1) {
        b.append(',');
      }
      b.append('"').append(k).append("\":\"").append(v).append('"');
    });
    return b.append('}').toString();
  }

  /**
   * {@code filterResults.FailureReason()} of Karpenter's NodeClaim scheduling
   * ({@code K:pkg/controllers/provisioning/scheduling/nodeclaim.go}): which of requirements,
   * resources and offerings no instance type met, singly or together.
   */
  static String failureReason(boolean requirementsMet, boolean fits, boolean hasOffering, boolean requirementsAndFits,
      boolean requirementsAndOffering, boolean fitsAndOffering) {
    if (!requirementsMet && !fits && !hasOffering) {
      return "no instance type met the scheduling requirements or had enough resources or had a required offering";
    }
    if (!requirementsMet && !fits) {
      return "no instance type met the scheduling requirements or had enough resources";
    }
    if (!requirementsMet && !hasOffering) {
      return "no instance type met the scheduling requirements or had a required offering";
    }
    if (!fits && !hasOffering) {
      return "no instance type had enough resources or had a required offering";
    }
    if (!requirementsMet) {
      return "no instance type met all requirements";
    }
    if (!fits) {
      return "no instance type has enough resources";
    }
    if (!hasOffering) {
      return "no instance type has the required offering";
    }
    if (requirementsAndFits) {
      return "no instance type which met the scheduling requirements and had enough resources, had a required offering";
    }
    if (fitsAndOffering) {
      return "no instance type which had enough resources and the required offering met the scheduling requirements";
    }
    if (requirementsAndOffering) {
      return "no instance type which met the scheduling requirements and the required offering had the required "
          + "resources";
    }
    return "no instance type met the requirements/resources/offering tuple";
  }
}
