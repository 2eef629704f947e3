package io.gpufleet.engine.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Why no node passed: each evaluated node's failing status, the status shared by the nodes a
 * PreFilter plugin left out ({@code absentStatus}), and the messages of PreFilter and PostFilter.
 * {@link #message()} is kube-scheduler's FailedScheduling text
 * ({@code pkg/scheduler/framework/types.go}, {@code FitError.Error}):
 * {@code 0/N nodes are available: <PreFilterMsg>.} when a PreFilter plugin rejected the pod, else
 * the reasons counted over nodes, {@code "<count> <reason>"} sorted as strings and joined, then the
 * PostFilter message, e.g.
 * {@code 0/3 nodes are available: 1 node(s) had untolerated taint {nvidia.com/gpu: true}, 2 Insufficient nvidia.com/gpu.}
 */
public record FitError(int numAllNodes, Map<String, Status> nodeStatuses, Optional<Status> absentStatus,
    String preFilterMessage, String postFilterMessage) {

  /** kube-scheduler's {@code ErrNoNodesAvailable}. */
  public static final String NO_NODES = "no nodes available to schedule pods";

  public FitError {
    nodeStatuses = java.util.Collections.unmodifiableMap(new TreeMap<>(nodeStatuses));
    absentStatus = absentStatus == null ? Optional.empty() : absentStatus;
    preFilterMessage = preFilterMessage == null ? "" : preFilterMessage;
    postFilterMessage = postFilterMessage == null ? "" : postFilterMessage;
  }

  /** Every node evaluated by the filters, none left out by a PreFilter plugin. */
  public FitError(int numAllNodes, Map<String, Status> nodeStatuses, String postFilterMessage) {
    this(numAllNodes, nodeStatuses, Optional.empty(), "", postFilterMessage);
  }

  /** How many nodes failed with each reason; a node with two shortfalls counts under both. */
  public Map<String, Integer> histogram() {
    Map<String, Integer> h = new TreeMap<>();
    for (Status s : nodeStatuses.values()) {
      for (String r : s.reasons()) {
        h.merge(r, 1, Integer::sum);
      }
    }
    int absent = numAllNodes - nodeStatuses.size();
    if (absent > 0 && absentStatus.isPresent()) {
      for (String r : absentStatus.get().reasons()) {
        h.merge(r, absent, Integer::sum);
      }
    }
    return h;
  }

  /** The status of one node: its own, or the one shared by the nodes PreFilter left out. */
  public Optional<Status> statusOf(String node) {
    Status s = nodeStatuses.get(node);
    return s != null ? Optional.of(s) : absentStatus;
  }

  public String message() {
    if (numAllNodes == 0) {
      return NO_NODES;
    }
    StringBuilder b = new StringBuilder("0/").append(numAllNodes).append(" nodes are available:");
    if (!preFilterMessage.isEmpty()) {
      // The PreFilter status is every node's; it is not repeated per node.
      b.append(' ').append(preFilterMessage).append('.');
    } else {
      List<String> entries = new ArrayList<>();
      histogram().forEach((reason, count) -> entries.add(count + " " + reason));
      entries.sort(null);
      if (!entries.isEmpty()) {
        b.append(' ').append(String.join(", ", entries)).append('.');
      }
    }
    if (!postFilterMessage.isEmpty()) {
      // Upstream appends " %v": the PostFilter message brings its own full stop.
      b.append(' ').append(postFilterMessage);
    }
    return b.toString();
  }

  public FitError withPostFilterMessage(String message) {
    return new FitError(numAllNodes, nodeStatuses, absentStatus, preFilterMessage, message);
  }

  @Override
  public String toString() {
    return message();
  }
}
