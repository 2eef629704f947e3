package io.gpufleet.k8s;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Drops what a snapshot does not need and would only make two imports of an unchanged cluster
 * differ: the server's bookkeeping ({@code managedFields}, {@code resourceVersion},
 * {@code generation}, {@code selfLink}), kubectl's last-applied copy of the object, a node's image
 * list and its conditions' heartbeat times (the kubelet rewrites them every few seconds). Map keys
 * are sorted, so the bytes do not depend on the order the server or the client wrote them.
 */
final class Noise {
  private Noise() {}

  private static final Set<String> METADATA_NOISE = Set.of("managedFields", "resourceVersion", "generation", "selfLink");
  private static final Set<String> ANNOTATION_NOISE = Set.of("kubectl.kubernetes.io/last-applied-configuration");

  /** A cleaned, key-sorted copy of one object as the API returned it. */
  static Map<String, Object> clean(Map<String, Object> object) {
    Map<String, Object> copy = sorted(object);
    if (copy.get("metadata") instanceof Map<?, ?> md) {
      @SuppressWarnings("unchecked")
      Map<String, Object> metadata = (Map<String, Object>) md;
      METADATA_NOISE.forEach(metadata::remove);
      if (metadata.get("annotations") instanceof Map<?, ?> an) {
        ANNOTATION_NOISE.forEach(an::remove);
        if (an.isEmpty()) {
          metadata.remove("annotations");
        }
      }
    }
    if ("Node".equals(copy.get("kind")) && copy.get("status") instanceof Map<?, ?> status) {
      status.remove("images");
      if (status.get("conditions") instanceof List<?> conditions) {
        for (Object c : conditions) {
          if (c instanceof Map<?, ?> condition) {
            condition.remove("lastHeartbeatTime");
          }
        }
      }
    }
    return copy;
  }

  @SuppressWarnings("unchecked")
  private static <T> T sortedValue(T value) {
    return switch (value) {
      case Map<?, ?> m -> (T) sorted((Map<String, Object>) m);
      case List<?> l -> {
        List<Object> out = new ArrayList<>(l.size());
        for (Object o : l) {
          out.add(sortedValue(o));
        }
        yield (T) out;
      }
      case null -> null;
      default -> value;
    };
  }

  private static Map<String, Object> sorted(Map<String, Object> map) {
    Map<String, Object> out = new TreeMap<>();
    map.forEach((k, v) -> {
      if (v != null) {
        out.put(k, sortedValue(v));
      }
    });
    return out;
  }
}
