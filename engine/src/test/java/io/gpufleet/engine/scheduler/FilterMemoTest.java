package io.gpufleet.engine.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpufleet.model.affinity.NodeSelectorTerm;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A scheduler cycle with a {@link FilterMemo} gives exactly what a cycle without one gives (node,
 * score, feasible and evaluated counts, ranking; or the FitError with every node's status), after
 * each of many random changes to the image: binds and unbinds, nodes added, removed, relabelled,
 * retainted, cordoned and resized, pods of a few specs (equal specs also as other objects) or of
 * more than the memo keeps, and now and then an image of a new lineage that numbers its nodes anew.
 * A quarter of the pods are asked of an earlier image than the last (a what-if's fork, the image a
 * cycle began on), so that the memo goes back and forth between images that share some of their nodes.
 */
class FilterMemoTest {

  private static final List<String> PRODUCTS = SchedulerPropertiesTest.PRODUCTS;
  private static final List<Taint> TAINTS = SchedulerPropertiesTest.TAINTS;
  private static final List<Toleration> TOLERATIONS = List.of(
      Toleration.exists("nvidia.com/gpu", TaintEffect.NO_SCHEDULE),
      Toleration.equal("spot", "true", TaintEffect.NO_EXECUTE),
      Toleration.exists("node.kubernetes.io/unschedulable", TaintEffect.NO_SCHEDULE));

  @Test
  void memoisedCyclesDecideAsFreshOnes() {
    for (long seed = 1; seed <= 30; seed++) {
      run(seed, 250);
    }
  }

  private static void run(long seed, int steps) {
    SplittableRandom r = new SplittableRandom(seed);
    SchedulerProfile profile = SchedulerProfile.defaults().withPreemption();
    Scheduler memoised = new Scheduler(profile);
    Scheduler fresh = new Scheduler(profile);
    FilterMemo memo = new FilterMemo();
    List<PodSpec> specs = new ArrayList<>();
    // Now and then more specs than the memo keeps, so that specs are dropped and made again.
    int kinds = seed % 3 == 0 ? 80 : 6;
    for (int s = 0; s < kinds; s++) {
      specs.add(spec(r));
    }
    List<Node> start = new ArrayList<>();
    // Some fleets of several chunks of nodes (ChunkedArray.SIZE each) and a part one.
    int nodes = seed % 4 == 0 ? r.nextInt(160, 330) : r.nextInt(40, 160);
    int named = 0;
    for (; named < nodes; named++) {
      start.add(node(r, "node-" + named));
    }
    ClusterSnapshot snapshot = ClusterSnapshot.of(start);
    List<String[]> bound = new ArrayList<>();
    List<ClusterSnapshot> past = new ArrayList<>();
    int pods = 0;
    for (int step = 0; step < steps; step++) {
      past.add(snapshot);
      int change = r.nextInt(10);
      int n = snapshot.size();
      if (change < 4 && n > 0) {
        String node = snapshot.get(r.nextInt(n)).name();
        Pod pod = pod(specs.get(r.nextInt(specs.size())), "bound-" + pods++);
        snapshot = snapshot.bind(PodInfo.of(pod), node);
        bound.add(new String[] {pod.key(), node});
      } else if (change < 6 && !bound.isEmpty()) {
        String[] b = bound.remove(r.nextInt(bound.size()));
        if (snapshot.node(b[1]).isPresent()) {
          snapshot = snapshot.unbind(b[0], b[1]);
        }
      } else if (change == 6) {
        snapshot = snapshot.addNode(node(r, "node-" + named++));
      } else if (change == 7 && n > 1) {
        snapshot = snapshot.removeNode(snapshot.get(r.nextInt(n)).name());
      } else if (change == 8 && n > 0) {
        Node before = snapshot.get(r.nextInt(n)).node();
        Node after = switch (r.nextInt(4)) {
          case 0 -> before.withLabels(Labels.of("nvidia.com/gpu.product", PRODUCTS.get(r.nextInt(PRODUCTS.size())),
              "gpus", Integer.toString(r.nextInt(9))));
          case 1 -> before.withTaints(subset(r, TAINTS));
          case 2 -> before.withUnschedulable(!before.unschedulable());
          default -> {
            ResourceList res = resources(r);
            yield before.withResources(res, res);
          }
        };
        snapshot = snapshot.withNode(after);
      } else if (change == 9 && r.nextInt(5) == 0) {
        // Another lineage: the same nodes as new NodeInfos, their slots numbered anew.
        snapshot = ClusterSnapshot.ofInfos(new ArrayList<>(snapshot.nodes().stream()
            .map(i -> new NodeInfo(i.node(), i.allocatable(), i.pods(), i.requested(), i.nonZeroMilliCpu(),
                i.nonZeroMemory())).toList()).reversed());
      }
      for (int k = 0; k < 3; k++) {
        PodSpec spec = specs.get(r.nextInt(specs.size()));
        // An equal spec that is another object, or one that differs only where the node-local
        // plugins do not read (its priority), now and then.
        PodSpec asked = switch (r.nextInt(3)) {
          case 0 -> spec;
          case 1 -> copy(spec);
          default -> spec.withPriority(r.nextInt(3) * 1000);
        };
        PodInfo pod = PodInfo.of(pod(asked, "pending-" + pods++));
        int startIndex = r.nextInt(1000);
        boolean explain = r.nextBoolean();
        long tieSeed = r.nextLong();
        ClusterSnapshot image = r.nextInt(4) == 0 ? past.get(r.nextInt(past.size())) : snapshot;
        ScheduleResult expected = fresh.schedule(pod, image, new SplittableRandom(tieSeed), startIndex, explain);
        ScheduleResult actual = memoised.schedule(pod, image, new SplittableRandom(tieSeed), startIndex, explain,
            memo);
        assertEquals(expected, actual, "seed " + seed + ", step " + step);
        if (expected instanceof ScheduleResult.Unschedulable u) {
          assertEquals(u.error().message(), ((ScheduleResult.Unschedulable) actual).error().message());
        }
      }
    }
  }

  private static Node node(SplittableRandom r, String name) {
    int gpus = r.nextInt(0, 9);
    Labels labels = Labels.of("nvidia.com/gpu.product", PRODUCTS.get(r.nextInt(PRODUCTS.size())),
        "gpus", Integer.toString(gpus));
    Node node = Node.of(name, labels, subset(r, TAINTS), resources(r));
    return r.nextInt(10) == 0 ? node.withUnschedulable(true) : node;
  }

  private static ResourceList resources(SplittableRandom r) {
    List<String> res = new ArrayList<>(List.of("cpu", Integer.toString(r.nextInt(1, 17)),
        "memory", r.nextInt(1, 65) + "Gi", "pods", Integer.toString(r.nextInt(1, 8))));
    int gpus = r.nextInt(0, 9);
    if (gpus > 0) {
      res.add("nvidia.com/gpu");
      res.add(Integer.toString(gpus));
    }
    return ResourceList.of(res.toArray(String[]::new));
  }

  private static PodSpec spec(SplittableRandom r) {
    // Few values, so that specs alike in all but one field (tolerations, selector, affinity) are common.
    ResourceList req = ResourceList.of("cpu", r.nextInt(0, 3) * 1500 + "m", "memory", r.nextInt(0, 3) * 8 + "Gi");
    int gpus = r.nextInt(0, 3);
    ResourceList lim = gpus > 0 ? ResourceList.of("nvidia.com/gpu", Integer.toString(gpus)) : ResourceList.EMPTY;
    PodSpec spec = PodSpec.of(Container.of("c", "img", req, lim)).withTolerations(subset(r, TOLERATIONS));
    if (r.nextInt(3) == 0) {
      spec = spec.withNodeSelector(Labels.of("nvidia.com/gpu.product", PRODUCTS.get(r.nextInt(PRODUCTS.size()))));
    }
    if (r.nextInt(3) == 0) {
      spec = spec.withNodeAffinity(io.gpufleet.model.affinity.NodeAffinity.requiring(
          NodeSelectorTerm.of(Requirement.gt("gpus", r.nextInt(0, 6)))));
    }
    return spec;
  }

  /** An equal spec, another object. */
  private static PodSpec copy(PodSpec spec) {
    return spec.withTolerations(new ArrayList<>(spec.tolerations()));
  }

  private static <T> List<T> subset(SplittableRandom r, List<T> all) {
    List<T> out = new ArrayList<>();
    for (T t : all) {
      if (r.nextBoolean()) {
        out.add(t);
      }
    }
    return out;
  }

  private static Pod pod(PodSpec spec, String name) {
    return new Pod(ObjectMeta.named(name), spec);
  }
}
