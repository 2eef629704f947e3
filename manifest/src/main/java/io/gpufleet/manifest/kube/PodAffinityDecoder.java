package io.gpufleet.manifest.kube;

import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.model.affinity.PodAffinity;
import io.gpufleet.model.affinity.PodAffinityTerm;
import io.gpufleet.model.affinity.WeightedPodAffinityTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads {@code spec.affinity.podAffinity} and {@code podAntiAffinity}; their checks run with the
 * rest of the pod's validation (PodAffinityValidation).
 */
final class PodAffinityDecoder {

  private static final Set<String> AFFINITY_FIELDS = Set.of("requiredDuringSchedulingIgnoredDuringExecution",
      "preferredDuringSchedulingIgnoredDuringExecution");
  private static final Set<String> TERM_FIELDS = Set.of("labelSelector", "namespaces", "topologyKey",
      "namespaceSelector", "matchLabelKeys", "mismatchLabelKeys");
  private static final Set<String> WEIGHTED_FIELDS = Set.of("weight", "podAffinityTerm");

  private final KubeDecoder kube;

  PodAffinityDecoder(KubeDecoder kube) {
    this.kube = kube;
  }

  /** The affinity under {@code key} ({@code podAffinity} or {@code podAntiAffinity}) of an {@code affinity}. */
  PodAffinity read(Optional<Cursor> affinity, String key) {
    Optional<Cursor> a = affinity.flatMap(c -> c.get(key));
    if (a.isEmpty()) {
      return PodAffinity.NONE;
    }
    a.get().checkKnown(AFFINITY_FIELDS, false);
    List<PodAffinityTerm> required = new ArrayList<>();
    for (Cursor t : a.get().list("requiredDuringSchedulingIgnoredDuringExecution")) {
      required.add(term(t));
    }
    List<WeightedPodAffinityTerm> preferred = new ArrayList<>();
    for (Cursor w : a.get().list("preferredDuringSchedulingIgnoredDuringExecution")) {
      w.checkKnown(WEIGHTED_FIELDS, false);
      int weight = w.require("weight").map(Cursor::asInt).orElse(0);
      PodAffinityTerm term = w.require("podAffinityTerm").map(this::term)
          .orElse(PodAffinityTerm.of(null, ""));
      preferred.add(new WeightedPodAffinityTerm(weight, term));
    }
    return new PodAffinity(required, preferred);
  }

  private PodAffinityTerm term(Cursor t) {
    t.checkKnown(TERM_FIELDS, false);
    return new PodAffinityTerm(t.get("labelSelector").map(kube::labelSelector), t.stringList("namespaces"),
        t.string("topologyKey", ""), t.get("namespaceSelector").map(kube::labelSelector), t.stringList("matchLabelKeys"),
        t.stringList("mismatchLabelKeys"));
  }
}
