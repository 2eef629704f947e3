package io.gpufleet.manifest.kube;

import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.pod.TopologySpreadConstraint;
import io.gpufleet.model.pod.TopologySpreadConstraint.NodeInclusionPolicy;
import io.gpufleet.model.pod.TopologySpreadConstraint.WhenUnsatisfiable;
import io.gpufleet.model.wire.WireEnum;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads a pod spec's {@code topologySpreadConstraints}. The enum fields are checked here, as the
 * API server's {@code field.NotSupported} words them, since the model cannot hold a value outside
 * them; the other checks run with the rest of the pod's validation (TopologySpreadValidation).
 */
final class SpreadConstraintDecoder {

  private static final Set<String> FIELDS = Set.of("maxSkew", "topologyKey", "whenUnsatisfiable", "labelSelector",
      "minDomains", "nodeAffinityPolicy", "nodeTaintsPolicy", "matchLabelKeys");

  private final KubeDecoder kube;

  SpreadConstraintDecoder(KubeDecoder kube) {
    this.kube = kube;
  }

  List<TopologySpreadConstraint> constraints(Cursor spec) {
    List<TopologySpreadConstraint> out = new ArrayList<>();
    for (Cursor c : spec.list("topologySpreadConstraints")) {
      out.add(constraint(c));
    }
    return out;
  }

  private TopologySpreadConstraint constraint(Cursor c) {
    c.checkKnown(FIELDS, false);
    int maxSkew = c.integer("maxSkew", 0);
    String topologyKey = c.string("topologyKey", "");
    WhenUnsatisfiable when = wireEnum(c, "whenUnsatisfiable", WhenUnsatisfiable.class, true)
        .orElse(WhenUnsatisfiable.DO_NOT_SCHEDULE);
    Optional<LabelSelector> selector = c.get("labelSelector").map(kube::labelSelector);
    OptionalInt minDomains = c.optInt("minDomains");
    NodeInclusionPolicy affinity = wireEnum(c, "nodeAffinityPolicy", NodeInclusionPolicy.class, false).orElse(null);
    NodeInclusionPolicy taints = wireEnum(c, "nodeTaintsPolicy", NodeInclusionPolicy.class, false).orElse(null);
    return new TopologySpreadConstraint(maxSkew, topologyKey, when, selector, minDomains, affinity, taints,
        c.stringList("matchLabelKeys"));
  }

  /** The constant written under {@code key}; upstream's "Unsupported value" when it is none of them. */
  private static <E extends Enum<E> & WireEnum> Optional<E> wireEnum(Cursor c, String key, Class<E> type,
      boolean required) {
    Optional<Cursor> at = c.get(key);
    String text = at.map(Cursor::asString).orElse("");
    if (at.isEmpty() && !required) {
      return Optional.empty();
    }
    Optional<E> value = WireEnum.fromWire(type, text);
    if (value.isEmpty()) {
      String supported = Arrays.stream(type.getEnumConstants()).map(e -> "\"" + e.wireName() + "\"").sorted()
          .collect(Collectors.joining(", "));
      at.orElse(c).error("Unsupported value: \"" + text + "\": supported values: " + supported);
    }
    return value;
  }
}
