package io.gpufleet.model.advise;

import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.List;

/**
 * The role advise needs from a cloud catalogue: which node types carry a GPU model, how many GPUs
 * each, and at what price. {@link #aws()} reads them off the built-in AWS instance catalogue, the same
 * table the autoscaler launches from.
 */
@FunctionalInterface
public interface GpuNodeOffers {

  /** Every offer for the GPU catalogue id, in a stable order; empty when none carries it. */
  List<GpuNodeOffer> offers(String gpuModel);

  /** The built-in AWS instance catalogue (us-east-1 on-demand, k8s-gpu-semantics §6). */
  static GpuNodeOffers aws() {
    return from(InstanceCatalog.builtIn(), GpuCatalog.builtIn());
  }

  /**
   * The GPU instance types of an instance catalogue with an on-demand price, each under the GPU
   * catalogue id of its GPUs (Karpenter's GPU names are aliases there); types whose GPU the
   * catalogue does not know are left out.
   */
  static GpuNodeOffers from(InstanceCatalog instances, GpuCatalog gpus) {
    List<GpuNodeOffer> all = new ArrayList<>();
    var attached = instances.instanceTypeGpus();
    for (InstanceType t : instances.types()) {
      if (t.gpu().isEmpty() || !(t.onDemandPrice() > 0)) {
        continue;
      }
      attached.gpus(t.name()).flatMap(a -> gpus.find(a.model())).ifPresent(model -> all.add(new GpuNodeOffer(
          t.name(), model.id(), t.gpuCount(),
          t.allocatable().getOrZero(ResourceName.CPU).milliValue(),
          t.allocatable().getOrZero(ResourceName.MEMORY).value() >> 20,
          t.onDemandPrice())));
    }
    return of(all);
  }

  /** A fixed list, for tests and user catalogues. */
  static GpuNodeOffers of(List<GpuNodeOffer> offers) {
    List<GpuNodeOffer> copy = List.copyOf(offers);
    return gpu -> copy.stream().filter(o -> o.gpuModel().equals(gpu)).toList();
  }
}
