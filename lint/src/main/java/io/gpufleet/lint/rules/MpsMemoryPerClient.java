package io.gpufleet.lint.rules;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.GpuTarget;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.PodSite;
import io.gpufleet.lint.Severity;
import io.gpufleet.model.deviceplugin.ReplicatedResource;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.QuantityFormatException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A pod that declares the GPU memory it needs ({@value #MEMORY_ANNOTATION}) and may be scheduled
 * to MPS-shared GPUs whose replicas leave each client less than that.
 */
public final class MpsMemoryPerClient implements LintRule {

  /** gpufleet's annotation for the GPU memory one pod needs (weights, KV cache, activations), e.g. {@code 12Gi}. */
  public static final String MEMORY_ANNOTATION = "gpufleet.io/gpu-memory";

  private static final long MIB = 1L << 20;

  @Override
  public String id() {
    return "mps-memory-per-client";
  }

  @Override
  public Severity severity() {
    return Severity.ERROR;
  }

  @Override
  public String summary() {
    return "MPS replicas leave each client less GPU memory than the pod declares in " + MEMORY_ANNOTATION;
  }

  @Override
  public String why() {
    return "Under MPS the device plugin pins each client's device memory to the card's memory divided by the "
        + "replicas (the control daemon's set_default_device_pinned_mem_limit); a pod that needs more fails its "
        + "allocations with CUDA out-of-memory however idle the card is.";
  }

  @Override
  public String fix() {
    return "Lower the MPS replicas of that config so memory / replicas covers the pod, move the pod to a card with "
        + "more memory, or give it an exclusive GPU.";
  }

  @Override
  public List<Finding> check(LintInput input) {
    List<Finding> out = new ArrayList<>();
    for (PodSite s : input.gpuPodSites()) {
      Optional<PodSite.Declared> declared = s.declared(MEMORY_ANNOTATION);
      if (declared.isEmpty()) {
        continue;
      }
      Quantity need;
      try {
        need = Quantity.parse(declared.get().value());
      } catch (QuantityFormatException e) {
        out.add(finding(s.owner(), declared.get().field(), "expected a quantity such as 12Gi, found \""
            + declared.get().value() + "\""));
        continue;
      }
      for (GpuTarget t : input.targetsAdmitting(s)) {
        Optional<ReplicatedResource> r = t.mps() ? t.config().mps().flatMap(m -> m.resource("nvidia.com/gpu"))
            : Optional.empty();
        if (r.isEmpty() || t.gpu().isEmpty() || t.gpu().get().memoryMiB().isEmpty()) {
          continue;
        }
        long perClientMiB = t.gpu().get().memoryMiB().getAsLong() / r.get().replicas();
        if (perClientMiB * MIB < need.value()) {
          out.add(finding(s.owner(), declared.get().field(), "needs " + need + " of GPU memory, but MPS with "
              + r.get().replicas() + " replicas on " + t.gpu().get().productLabel() + " ("
              + t.gpu().get().memoryMiB().getAsLong() + " MiB) pins " + perClientMiB + " MiB per client on "
              + t.source().ref() + " (device-plugin config " + t.plugin().name() + ")"));
          break;
        }
      }
    }
    return out;
  }
}
