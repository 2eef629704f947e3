package io.gpufleet.bench;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.OwnerReference;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * A seeded mix of pending pods as a GPU platform sees them: many 1-GPU inference pods, some 2-, 4-
 * and 8-GPU training pods, and CPU pods, each shape shared by many replicas as workloads make them.
 */
final class PendingPods {
  private PendingPods() {}

  record Shape(String name, String cpu, String memory, int gpus, int weight) {}

  static final List<Shape> SHAPES = List.of(
      new Shape("infer-small", "2", "8Gi", 1, 40),
      new Shape("infer-large", "8", "48Gi", 1, 15),
      new Shape("train-2", "16", "96Gi", 2, 8),
      new Shape("train-4", "32", "160Gi", 4, 6),
      new Shape("train-8", "64", "512Gi", 8, 3),
      new Shape("web", "500m", "1Gi", 0, 20),
      new Shape("etl", "4", "16Gi", 0, 8));

  static List<Pod> generate(int count, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    int total = SHAPES.stream().mapToInt(Shape::weight).sum();
    List<PodSpec> specs = new ArrayList<>();
    for (Shape s : SHAPES) {
      ResourceList req = s.gpus() > 0
          ? ResourceList.of("cpu", s.cpu(), "memory", s.memory(), "nvidia.com/gpu", Integer.toString(s.gpus()))
          : ResourceList.of("cpu", s.cpu(), "memory", s.memory());
      ResourceList lim = s.gpus() > 0 ? ResourceList.of("nvidia.com/gpu", Integer.toString(s.gpus()))
          : ResourceList.EMPTY;
      specs.add(PodSpec.of(Container.of("main", s.name() + ":1", req, lim))
          .withTolerations(List.of(Toleration.exists("nvidia.com/gpu", TaintEffect.NO_SCHEDULE))));
    }
    List<Pod> pods = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int pick = random.nextInt(total);
      int k = 0;
      while (pick >= SHAPES.get(k).weight()) {
        pick -= SHAPES.get(k).weight();
        k++;
      }
      Shape s = SHAPES.get(k);
      pods.add(new Pod(new ObjectMeta(s.name() + "-" + i, "default", Labels.of("app", s.name()), Labels.EMPTY,
          Optional.of(new OwnerReference("ReplicaSet", s.name()))), specs.get(k)));
    }
    return pods;
  }
}
