package io.gpufleet.manifest;

import io.gpufleet.manifest.kube.KubeObject;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.PodDisruptionBudget;
import io.gpufleet.model.workload.Workload;
import java.util.List;

/**
 * Everything read from a set of manifest files, in the order written, with the warnings seen and
 * the sources read (embedded configs report lines of their own file).
 */
public record ManifestBundle(List<KubeObject> objects, List<ManifestProblem> warnings, List<ManifestSource> sources) {

  public ManifestBundle {
    objects = List.copyOf(objects);
    warnings = List.copyOf(warnings);
    sources = List.copyOf(sources);
  }

  /** The text of the source an object's location names (empty when none: built in memory). */
  public String text(KubeObject object) {
    String file = object.location().file();
    return sources.stream().filter(s -> s.name().equals(file)).map(ManifestSource::text).findFirst().orElse("");
  }

  public List<Node> nodes() {
    return objects.stream().filter(o -> o instanceof KubeObject.NodeObject)
        .map(o -> ((KubeObject.NodeObject) o).node()).toList();
  }

  public List<Pod> pods() {
    return objects.stream().filter(o -> o instanceof KubeObject.PodObject)
        .map(o -> ((KubeObject.PodObject) o).pod()).toList();
  }

  public List<Workload> workloads() {
    return objects.stream().filter(o -> o instanceof KubeObject.WorkloadObject)
        .map(o -> ((KubeObject.WorkloadObject) o).workload()).toList();
  }

  public List<PodDisruptionBudget> pdbs() {
    return objects.stream().filter(o -> o instanceof KubeObject.PdbObject)
        .map(o -> ((KubeObject.PdbObject) o).pdb()).toList();
  }

  public List<KubeObject.ConfigMapObject> configMaps() {
    return objects.stream().filter(o -> o instanceof KubeObject.ConfigMapObject)
        .map(o -> (KubeObject.ConfigMapObject) o).toList();
  }

  /** Objects of kinds the core decoder leaves to other readers (NodePools, node classes, ...). */
  public List<KubeObject.OtherObject> others() {
    return objects.stream().filter(o -> o instanceof KubeObject.OtherObject)
        .map(o -> (KubeObject.OtherObject) o).toList();
  }
}
