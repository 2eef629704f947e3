package io.gpufleet.web.view;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The page's "Find nodes" words, each of which a node must match, ignoring case: {@code FIELD:VALUE}
 * matches that field exactly ({@code pool}, {@code type}, {@code capacity}, {@code state}); any other
 * word matches part of the node's name, NodePool, instance type or capacity type. The server applies
 * it, so the page is sent only the cards and lanes it draws.
 */
public record NodeFilter(List<String> terms) {

  /** The longest filter taken; a node name is at most 253 characters, a filter is a few words. */
  public static final int MAX_CHARS = 200;

  public static final NodeFilter NONE = new NodeFilter(List.of());

  private static final Map<String, Integer> FIELDS = Map.of("pool", 0, "type", 1, "capacity", 2, "state", 3);

  public NodeFilter {
    terms = List.copyOf(terms);
  }

  public static NodeFilter of(String text) {
    return new NodeFilter(Arrays.stream(text.toLowerCase(Locale.ROOT).split("\\s+")).filter(t -> !t.isEmpty()).toList());
  }

  public boolean isEmpty() {
    return terms.isEmpty();
  }

  /** Whether a node (or a NodeClaim not yet registered) with these fields matches every word. */
  public boolean matches(String name, String nodePool, String instanceType, String capacityType, String lifecycle) {
    String[] fields = {nodePool, instanceType, capacityType, lifecycle};
    for (String t : terms) {
      int colon = t.indexOf(':');
      Integer field = colon > 0 ? FIELDS.get(t.substring(0, colon)) : null;
      boolean ok = field != null
          ? fields[field].toLowerCase(Locale.ROOT).equals(t.substring(colon + 1))
          : contains(name, t) || contains(nodePool, t) || contains(instanceType, t) || contains(capacityType, t);
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** Whether every word is part of {@code text}, ignoring case (a lane by its node's name and key). */
  public boolean allIn(String text) {
    return terms.stream().allMatch(t -> contains(text, t));
  }

  private static boolean contains(String value, String term) {
    return value.toLowerCase(Locale.ROOT).contains(term);
  }
}
