package io.gpufleet.sim.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.provisioning.Launcher;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.collect.PMap;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.resource.ResourceList;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The kept deadlines against a walk over every claim: over seeded sequences of claim maps in which
 * claims come, go, launch, register, initialise, start deleting and are written again unchanged in
 * value but as new objects, the next deadline after each time and the deleting claims must be what
 * the walk finds.
 */
class ClaimDeadlinesTest {

  private static final Instant T0 = Instant.parse("2026-01-05T00:00:00Z");
  private static final InstanceType TYPE = InstanceCatalog.builtIn().require("m5.large");

  @Test
  void keptDeadlinesAreThoseOfAWalk() {
    NodePool pool = NodePool.of("general", NodeClaimTemplate.of(
        NodePoolRequirement.in("karpenter.k8s.aws/instance-family", "m5")));
    int nonEmpty = 0;
    for (long seed = 1; seed <= 50; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      AutoscalerSettings settings = AutoscalerSettings.DEFAULTS.withInitializationTimeout(
          r.nextBoolean() ? Optional.of(Duration.ofMinutes(15)) : Optional.empty());
      ClaimDeadlines kept = new ClaimDeadlines(settings);
      PMap<String, NodeClaim> claims = PMap.empty();
      Instant now = T0;
      for (int step = 0; step < 60; step++) {
        now = now.plus(Duration.ofMinutes(r.nextInt(10)));
        for (int k = r.nextInt(4); k > 0; k--) {
          List<String> names = new ArrayList<>();
          claims.forEach((n, c) -> names.add(n));
          int op = names.isEmpty() ? 0 : r.nextInt(4);
          if (op == 0) {
            NodeClaim c = Launcher.nodeClaim(pool, TYPE, TYPE.offerings().getFirst(), ResourceList.EMPTY, now,
                new SplittableRandom(r.nextLong()));
            if (r.nextBoolean()) {
              c = c.withExpiry(Optional.of(Duration.ofMinutes(30 + r.nextInt(600))), Optional.empty());
            }
            claims = claims.put(c.name(), c);
          } else if (op == 1) {
            claims = claims.remove(names.get(r.nextInt(names.size())));
          } else {
            NodeClaim c = claims.get(names.get(r.nextInt(names.size())));
            NodeClaim next = op == 3 && r.nextBoolean() ? c.withDeletionRequested(now)
                : !c.isLaunched() ? c.withLaunched(now)
                : !c.isRegistered() ? c.withRegistered(now, c.name())
                : !c.isInitialized() ? c.withInitialized(now)
                : c.withLabels(c.labels()); // a new object, the same deadline
            claims = claims.put(c.name(), next);
          }
        }
        kept.update(claims);
        Instant next = null;
        TreeSet<String> deleting = new TreeSet<>();
        for (NodeClaim c : claims.values()) {
          if (c.isDeleting()) {
            deleting.add(c.name());
            continue;
          }
          Optional<Instant> t = kept.due(c);
          if (t.isPresent() && t.get().isAfter(now) && (next == null || t.get().isBefore(next))) {
            next = t.get();
          }
        }
        assertThat(kept.nextAfter(now)).as("seed %d step %d", seed, step).isEqualTo(Optional.ofNullable(next));
        assertThat(kept.deleting()).as("seed %d step %d", seed, step).containsExactlyInAnyOrderElementsOf(deleting);
        nonEmpty += next == null ? 0 : 1;
      }
    }
    assertThat(nonEmpty).isGreaterThan(1000);
  }
}
