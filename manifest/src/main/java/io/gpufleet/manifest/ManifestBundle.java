package io.gpufleet.manifest;

import io.gpufleet.manifest.kube.KubeObject;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.meta.Namespaces;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.PodDisruptionBudget;
import io.gpufleet.model.workload.Workload;
import java.util.List;
import java.util.Map;

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

  /**
   * Objects decoded (and admitted) elsewhere, with the text of each file they came from by its name:
   * what a reader that is not {@link ManifestReader} (a scenario, lint) hands the cluster assembly.
   */
  public static ManifestBundle ofDecoded(List<KubeObject> objects, Map<String, String> textsByFile) {
    return new ManifestBundle(objects, List.of(), textsByFile.entrySet().stream()
        .map(e -> new ManifestSource(e.getKey(), e.getValue())).toList());
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

  /**
   * The pods that hold or want room: requests and live state (Pending, Running). Finished pods
   * (Succeeded, Failed) occupy nothing and are not run again; see {@link #finishedPods}.
   */
  public List<Pod> pods() {
    return objects.stream().filter(o -> o instanceof KubeObject.PodObject p && !p.finished())
        .map(o -> ((KubeObject.PodObject) o).pod()).toList();
  }

  /** Pods whose phase is Succeeded or Failed: their controllers count them, nothing else does. */
  public List<KubeObject.PodObject> finishedPods() {
    return objects.stream().filter(o -> o instanceof KubeObject.PodObject p && p.finished())
        .map(o -> (KubeObject.PodObject) o).toList();
  }

  /** Finished pods that succeeded: a Job counts them as completions. */
  public List<Pod> succeededPods() {
    return finishedPods().stream().filter(p -> p.phase().orElseThrow() == KubeObject.PodObject.Phase.SUCCEEDED)
        .map(KubeObject.PodObject::pod).toList();
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

  /**
   * The namespaces the manifests create ({@code kind: Namespace}) and their labels, for a pod
   * affinity term's {@code namespaceSelector}; other namespaces carry only their name label.
   */
  public Namespaces namespaces() {
    Namespaces out = Namespaces.NONE;
    for (KubeObject o : objects) {
      if (o instanceof KubeObject.NamespaceObject ns) {
        out = out.with(ns.name(), ns.labels());
      }
    }
    return out;
  }

  /** The {@code resource.k8s.io/v1} objects, in the order read. */
  public DraObjects dra() {
    return DraObjects.of(objects.stream()
        .filter(o -> o instanceof KubeObject.ResourceObject).map(o -> ((KubeObject.ResourceObject) o).value()).toList());
  }
}
