package io.gpufleet.lint.rules;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.GpuTarget;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.PodSite;
import io.gpufleet.lint.Severity;
import io.gpufleet.model.gpu.GpuModel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** A GPU pod that may land on more than one GPU model because it selects none. */
public final class GpuModelUnselected implements LintRule {

  @Override
  public String id() {
    return "gpu-model-unselected";
  }

  @Override
  public Severity severity() {
    return Severity.INFO;
  }

  @Override
  public String summary() {
    return "a GPU pod may land on several GPU models because nothing in it selects one";
  }

  @Override
  public String why() {
    return "The scheduler sees only the integer nvidia.com/gpu: a pod sized for one card's memory and speed lands on "
        + "whichever model has a free GPU, and its latency and out-of-memory behaviour change with it.";
  }

  @Override
  public String fix() {
    return "Select the model: nodeSelector on GFD's nvidia.com/gpu.product for existing nodes, or on "
        + "karpenter.k8s.aws/instance-gpu-name (or an instance family) for nodes Karpenter launches.";
  }

  @Override
  public List<Finding> check(LintInput input) {
    List<Finding> out = new ArrayList<>();
    // Pods of equal constraints share one list of admitting targets: its models are found once, not per pod.
    Map<List<GpuTarget>, TreeSet<String>> modelsOf = new IdentityHashMap<>();
    for (PodSite s : input.gpuPodSites()) {
      TreeSet<String> models = modelsOf.computeIfAbsent(input.targetsAdmitting(s), GpuModelUnselected::models);
      if (models.size() > 1) {
        out.add(finding(s.owner(), s.field("nodeSelector"), "may run on " + models.size() + " GPU models: "
            + Offerings.names(List.copyOf(models))));
      }
    }
    return out;
  }

  /** The targets' models' product labels: distinct models first (by identity: one catalogue value per model). */
  private static TreeSet<String> models(List<GpuTarget> targets) {
    Set<GpuModel> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
    for (GpuTarget t : targets) {
      t.gpu().ifPresent(distinct::add);
    }
    TreeSet<String> models = new TreeSet<>();
    distinct.forEach(g -> models.add(g.productLabel()));
    return models;
  }
}
