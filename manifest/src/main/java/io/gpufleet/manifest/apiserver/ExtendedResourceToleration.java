package io.gpufleet.manifest.apiserver;

import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The ExtendedResourceToleration admission plugin: a pod requesting an extended resource (such as
 * {@code nvidia.com/gpu}) tolerates the NoSchedule taint of that name, so a node pool tainted with
 * its device's resource name takes only pods that ask for the device. kubernetes/kubernetes
 * plugin/pkg/admission/extendedresourcetoleration/admission.go, {@code Admit}: the requests of app and
 * init containers, one {@code {key: <name>, operator: Exists, effect: NoSchedule}} per resource, in
 * name order, through {@code AddOrUpdateTolerationInPod}.
 */
final class ExtendedResourceToleration {
  private ExtendedResourceToleration() {}

  static PodSpec apply(PodSpec spec) {
    SortedSet<String> resources = new TreeSet<>();
    Stream.concat(spec.containers().stream(), spec.initContainers().stream()).map(Container::requests)
        .forEach(r -> r.names().stream().filter(ResourceName::isExtended).forEach(n -> resources.add(n.toString())));
    List<Toleration> tolerations = spec.tolerations();
    for (String name : resources) {
      tolerations = TolerationEdits.addOrUpdate(tolerations, Toleration.exists(name, TaintEffect.NO_SCHEDULE));
    }
    return tolerations == spec.tolerations() ? spec : spec.withTolerations(tolerations);
  }
}
