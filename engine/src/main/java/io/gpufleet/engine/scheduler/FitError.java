package io.gpufleet.engine.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Why no node passed the filters: each node's failing status. {@link #message()} is
 * kube-scheduler's FailedScheduling text: reasons counted over nodes, the {@code "<count> <reason>"}
 * entries sorted as strings and joined, e.g.
 * {@code 0/3 nodes are available: 1 node(s) had untolerated taint {nvidia.com/gpu: true}, 2 Insufficient nvidia.com/gpu.}
 */
public record FitError(int numAllNodes, Map<String, Status> nodeStatuses, String postFilterMessage) {

  /** kube-scheduler's {@code ErrNoNodesAvailable}. */
  public static final String NO_NODES = "no nodes available to schedule pods";

  public FitError {
    nodeStatuses = java.util.Collections.unmodifiableMap(new TreeMap<>(nodeStatuses));
    postFilterMessage = postFilterMessage == null ? "" : postFilterMessage;
  }

  /** How many nodes failed with each reason; a node with two shortfalls counts under both. */
  public Map<String, Integer> histogram() {
    Map<String, Integer> h = new TreeMap<>();
    for (Status s : nodeStatuses.values()) {
      for (String r : s.reasons()) {
        h.merge(r, 1, Integer::sum);
      }
    }
    return h;
  }

  public String message() {
    if (numAllNodes == 0) {
      return NO_NODES;
    }
    StringBuilder b = new StringBuilder("0/").append(numAllNodes).append(" nodes are available:");
    List<String> entries = new ArrayList<>();
    histogram().forEach((reason, count) -> entries.add(count + " " + reason));
    entries.sort(null);
    if (!entries.isEmpty()) {
      b.append(' ').append(String.join(", ", entries)).append('.');
    }
    if (!postFilterMessage.isEmpty()) {
      b.append(' ').append(postFilterMessage).append('.');
    }
    return b.toString();
  }

  public FitError withPostFilterMessage(String message) {
    return new FitError(numAllNodes, nodeStatuses, message);
  }

  @Override
  public String toString() {
    return message();
  }
}
