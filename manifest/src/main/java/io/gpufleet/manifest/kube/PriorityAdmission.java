package io.gpufleet.manifest.kube;

import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.pod.PreemptionPolicy;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The API server's Priority admission plugin, the one resolver of {@code priorityClassName}; a step
 * of {@link io.gpufleet.manifest.apiserver.Admission}, the chain every reader runs ({@code schedule}'s
 * manifests, scenario files and their later {@code apply}s): a pod
 * naming a class gets its value and its {@code preemptionPolicy}; a pod naming none gets the
 * {@code globalDefault} class's; a class that does not exist is refused. The classes a cluster holds
 * accumulate over the objects admitted, as they do in the API server, so a pod applied in a later
 * scenario step sees the classes applied before it. Follows kubernetes/kubernetes
 * {@code plugin/pkg/admission/priority/admission.go} ({@code admitPod}, {@code getDefaultPriorityClass},
 * {@code validatePriorityClass}); the built-in classes are {@code pkg/apis/scheduling/types.go}'s
 * {@code SystemPriorityClasses}.
 */
public final class PriorityAdmission {

  /** A class as admission reads it. */
  private record PriorityClass(String name, int value, boolean globalDefault, PreemptionPolicy policy) {}

  /** Built-in classes every cluster has (scheduling.SystemCriticalPriority and +1000). */
  private static final List<PriorityClass> SYSTEM = List.of(
      new PriorityClass("system-cluster-critical", 2_000_000_000, false, PreemptionPolicy.PREEMPT_LOWER_PRIORITY),
      new PriorityClass("system-node-critical", 2_000_001_000, false, PreemptionPolicy.PREEMPT_LOWER_PRIORITY));

  private final Map<String, PriorityClass> classes = new TreeMap<>();

  /** A cluster holding only the built-in classes. */
  public PriorityAdmission() {
    SYSTEM.forEach(c -> classes.put(c.name(), c));
  }

  /**
   * Admits {@code objects} in order: their PriorityClasses first (an object set is applied as one),
   * then every pod and workload pod template with its priority and preemption policy resolved.
   * Refusals are errors at the object's location, in the API server's words.
   */
  public List<KubeObject> admit(List<KubeObject> objects, Diagnostics diagnostics) {
    for (KubeObject o : objects) {
      if (o instanceof KubeObject.PriorityClassObject pc) {
        register(pc, diagnostics);
      }
    }
    List<KubeObject> out = new ArrayList<>(objects.size());
    for (KubeObject o : objects) {
      // instanceof, not a pattern switch, which would make a class at run time on first use.
      if (o instanceof KubeObject.PodObject p) {
        out.add(p.withPod(p.pod().withSpec(admit(p.pod().spec(), p.written(), p.location(), "spec", diagnostics))));
      } else if (o instanceof KubeObject.WorkloadObject w) {
        out.add(w.withWorkload(admit(w.workload(), w.written(), w.location(), diagnostics)));
      } else {
        out.add(o);
      }
    }
    return out;
  }

  private void register(KubeObject.PriorityClassObject pc, Diagnostics diagnostics) {
    if (pc.globalDefault()) {
      Optional<PriorityClass> other = globalDefault().filter(d -> !d.name().equals(pc.name()));
      if (other.isPresent()) {
        // validatePriorityClass: a second default is refused, so the first one stays the default.
        diagnostics.error(pc.location(), "globalDefault", "PriorityClass " + other.get().name()
            + " is already marked as default. Only one default can exist");
        return;
      }
    }
    classes.put(pc.name(), new PriorityClass(pc.name(), pc.value(), pc.globalDefault(), pc.preemptionPolicy()));
  }

  /**
   * A lambda of this class rather than Comparator.comparingInt, whose lambda inside java.util the
   * AOT cache does not hold, so that the CLI's start makes no class for it at run time.
   */
  private static final Comparator<PriorityClass> BY_VALUE = (a, b) -> Integer.compare(a.value(), b.value());

  /** getDefaultPriorityClass: the lowest value among defaults, should several exist. */
  private Optional<PriorityClass> globalDefault() {
    return classes.values().stream().filter(PriorityClass::globalDefault).min(BY_VALUE);
  }

  private PodSpec admit(PodSpec spec, KubeObject.PriorityWritten written, Location at, String path,
      Diagnostics diagnostics) {
    Optional<String> named = spec.priorityClassName().filter(n -> !n.isEmpty());
    Optional<PriorityClass> pc;
    if (named.isPresent()) {
      pc = Optional.ofNullable(classes.get(named.get()));
      if (pc.isEmpty()) {
        diagnostics.error(at, path + ".priorityClassName", "no PriorityClass with name " + named.get()
            + " was found");
        return spec;
      }
    } else {
      pc = globalDefault();
    }
    // With no class at all the priority is 0 (DefaultPriorityWhenNoDefaultClassExists) and the
    // policy PreemptLowerPriority. A value written in the spec must equal the computed one
    // (admitPod: "pod.Spec.Priority != nil && *pod.Spec.Priority != priority"), a written 0 included.
    int priority = pc.map(PriorityClass::value).orElse(0);
    if (written.priority() && spec.priority() != priority) {
      diagnostics.error(at, path + ".priority", "the integer value of priority (" + spec.priority()
          + ") must not be provided in pod spec; priority admission controller computed " + priority
          + " from the given PriorityClass name");
      return spec;
    }
    PreemptionPolicy policy = pc.map(PriorityClass::policy).orElse(PreemptionPolicy.PREEMPT_LOWER_PRIORITY);
    // Likewise a written policy, PreemptLowerPriority included, must be the class's.
    if (written.preemptionPolicy() && spec.preemptionPolicy() != policy) {
      diagnostics.error(at, path + ".preemptionPolicy", "the string value of PreemptionPolicy ("
          + spec.preemptionPolicy().wireName() + ") must not be provided in pod spec; priority admission controller"
          + " computed " + policy.wireName() + " from the given PriorityClass name");
      return spec;
    }
    PodSpec out = spec.withPriority(priority).withPreemptionPolicy(policy);
    return pc.isPresent() && named.isEmpty() ? out.withPriorityClassName(pc.get().name()) : out;
  }

  private Workload admit(Workload w, KubeObject.PriorityWritten written, Location at, Diagnostics diagnostics) {
    PodTemplate t = w.template();
    return w.withTemplate(t.withSpec(admit(t.spec(), written, at, "spec.template.spec", diagnostics)));
  }
}
