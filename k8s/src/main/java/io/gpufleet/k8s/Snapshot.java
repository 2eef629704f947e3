package io.gpufleet.k8s;

import io.gpufleet.manifest.kube.KubeDecoder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;

/**
 * A cluster's state as read: the objects in a fixed order (kind as {@link ApiResource#SNAPSHOT}
 * lists them, then namespace, then name), where it came from, and notes on what was not read
 * (Karpenter absent, say). {@link #toYaml()} writes it as a {@code v1 List}; the import time is the
 * one field that differs between two imports of an unchanged cluster.
 */
public record Snapshot(String context, String serverVersion, Optional<String> namespace, Instant importedAt,
    List<Map<String, Object>> items, List<String> notes) {

  public static final String CONTEXT_ANNOTATION = "gpufleet.io/source-context";
  public static final String SERVER_VERSION_ANNOTATION = "gpufleet.io/server-version";
  public static final String NAMESPACE_ANNOTATION = "gpufleet.io/namespace";
  public static final String IMPORTED_AT_ANNOTATION = KubeDecoder.IMPORTED_AT_ANNOTATION;

  private static final Comparator<Map<String, Object>> ORDER = Comparator
      .<Map<String, Object>>comparingInt(o -> ApiResource.order(string(o, "apiVersion"), string(o, "kind")))
      .thenComparing(o -> string(o, "kind"))
      .thenComparing(o -> metadata(o, "namespace"))
      .thenComparing(o -> metadata(o, "name"));

  public Snapshot {
    List<Map<String, Object>> sorted = new ArrayList<>(items);
    sorted.sort(ORDER);
    items = List.copyOf(sorted);
    notes = List.copyOf(notes);
  }

  /** The snapshot as one YAML {@code v1 List}, as {@code kubectl get -o yaml} writes several objects. */
  public String toYaml() {
    Map<String, String> annotations = new LinkedHashMap<>();
    annotations.put(CONTEXT_ANNOTATION, context);
    annotations.put(SERVER_VERSION_ANNOTATION, serverVersion);
    namespace.ifPresent(n -> annotations.put(NAMESPACE_ANNOTATION, n));
    annotations.put(IMPORTED_AT_ANNOTATION, importedAt.truncatedTo(ChronoUnit.SECONDS).toString());
    Map<String, Object> list = new LinkedHashMap<>();
    list.put("apiVersion", "v1");
    list.put("kind", "List");
    list.put("metadata", Map.of("annotations", annotations));
    list.put("items", items);
    return YAML.writeValueAsString(list);
  }

  /** How many objects of {@code kind} the snapshot holds. */
  public long count(String kind) {
    return items.stream().filter(o -> kind.equals(o.get("kind"))).count();
  }

  // Strings that read as numbers or booleans stay quoted, so a label "8" is still a string when read back;
  // multi-line strings (ConfigMaps' embedded configs) are written as literal blocks a person can read.
  private static final YAMLMapper YAML = YAMLMapper.builder()
      .disable(YAMLWriteFeature.WRITE_DOC_START_MARKER)
      .enable(YAMLWriteFeature.MINIMIZE_QUOTES)
      .enable(YAMLWriteFeature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
      .enable(YAMLWriteFeature.LITERAL_BLOCK_STYLE)
      .build();

  private static String string(Map<String, Object> o, String key) {
    return o.get(key) instanceof String s ? s : "";
  }

  private static String metadata(Map<String, Object> o, String key) {
    return o.get("metadata") instanceof Map<?, ?> m && m.get(key) instanceof String s ? s : "";
  }
}
