package io.gpufleet.engine.scheduler;

import io.gpufleet.model.collect.PMap;
import java.util.ArrayList;
import io.gpufleet.model.node.Node;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The keys of an image's spread counts ({@link SpreadCounts.Key}), indexed by what a pod needs to
 * match one: its namespace and, where the key's selector has {@code matchLabels}, the first of
 * those labels. A pod bound or removed changes only the counts of the keys that match it, and those
 * are among the keys filed under its namespace and one of its own labels, or under its namespace
 * with no label: the others need not be asked ({@link ClusterSnapshot}'s carry of the counts to a
 * derived image went over every key, one per workload and topology key, on each bind). Immutable;
 * made from one key set.
 */
final class SpreadKeys {

  /** Keys by namespace, label key and label value of the first of their selector's matchLabels. */
  private final Map<String, Map<String, Map<String, List<SpreadCounts.Key>>>> anchored;
  /** Keys by namespace whose selector has no matchLabels (expressions only). */
  private final Map<String, List<SpreadCounts.Key>> unanchored;
  /** The keys' topology keys: a node relabelled keeps every count when none of these changed. */
  private final Set<String> topologyKeys;

  private SpreadKeys(Map<String, Map<String, Map<String, List<SpreadCounts.Key>>>> anchored,
      Map<String, List<SpreadCounts.Key>> unanchored, Set<String> topologyKeys) {
    // Filled before they are handed over: final fields publish them whole to other threads.
    this.anchored = anchored;
    this.unanchored = unanchored;
    this.topologyKeys = topologyKeys;
  }

  static SpreadKeys of(PMap<SpreadCounts.Key, SpreadCounts> counts) {
    Map<String, Map<String, Map<String, List<SpreadCounts.Key>>>> anchored = new HashMap<>();
    Map<String, List<SpreadCounts.Key>> unanchored = new HashMap<>();
    Set<String> topologyKeys = new HashSet<>();
    counts.forEach((key, c) -> {
      file(key, anchored, unanchored);
      topologyKeys.add(key.topologyKey());
    });
    return new SpreadKeys(anchored, unanchored, topologyKeys);
  }

  /**
   * Whether every key's domain of the node is the same before and after a relabelling: then no
   * count moves ({@link SpreadCounts#relabelled} keeps each).
   */
  boolean sameDomains(Node before, Node after) {
    for (String key : topologyKeys) {
      if (!Objects.equals(before.labels().map().get(key), after.labels().map().get(key))) {
        return false;
      }
    }
    return true;
  }

  private static void file(SpreadCounts.Key key, Map<String, Map<String, Map<String, List<SpreadCounts.Key>>>> anchored,
      Map<String, List<SpreadCounts.Key>> unanchored) {
    var labels = key.selector().matchLabels().map();
    if (labels.isEmpty()) {
      unanchored.computeIfAbsent(key.namespace(), ns -> new ArrayList<>()).add(key);
    } else {
      String first = labels.firstKey();
      anchored.computeIfAbsent(key.namespace(), ns -> new HashMap<>()).computeIfAbsent(first, k -> new HashMap<>())
          .computeIfAbsent(labels.get(first), v -> new ArrayList<>()).add(key);
    }
  }

  /** Each key that may match {@code pod}, once: every key that matches it is among them. */
  void forEachCandidate(PodInfo pod, Consumer<SpreadCounts.Key> action) {
    String namespace = pod.pod().meta().namespace();
    List<SpreadCounts.Key> rest = unanchored.get(namespace);
    if (rest != null) {
      rest.forEach(action);
    }
    Map<String, Map<String, List<SpreadCounts.Key>>> byLabel = anchored.get(namespace);
    if (byLabel == null) {
      return;
    }
    // A pod has one value per label key, so each anchor, and each key, is reached at most once.
    pod.pod().meta().labels().map().forEach((k, v) -> {
      Map<String, List<SpreadCounts.Key>> byValue = byLabel.get(k);
      if (byValue != null) {
        List<SpreadCounts.Key> keys = byValue.get(v);
        if (keys != null) {
          keys.forEach(action);
        }
      }
    });
  }
}
