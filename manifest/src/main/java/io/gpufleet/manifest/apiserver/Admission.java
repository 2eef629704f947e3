package io.gpufleet.manifest.apiserver;

import io.gpufleet.manifest.kube.KubeObject;
import io.gpufleet.manifest.kube.PriorityAdmission;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.model.meta.Namespaces;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.pod.RuntimeClass;
import io.gpufleet.model.workload.PodTemplate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The API server between {@code kubectl apply} and the scheduler: one chain of defaulting and
 * admission that every reader of manifests passes its decoded objects through. Stateful as a cluster
 * is: the PriorityClasses, RuntimeClasses and Namespaces admitted so far stay, so an object of a later
 * {@code apply} sees those applied before it. Use one instance per cluster.
 *
 * <p>Each pod, and each workload's pod template (the twin admits a template once for the pods its
 * controller will create from it), goes through, in order:
 * <ol>
 *   <li>defaulting, always: requests from limits ({@link PodDefaults}, {@code SetDefaults_Pod});
 *   <li>the admission plugins that are on, in kube-apiserver's order ({@link AdmissionPlugins#ALL_ORDERED}):
 *       Priority ({@link PriorityAdmission}), DefaultTolerationSeconds, ExtendedResourceToleration,
 *       RuntimeClass.
 * </ol>
 * A refusal is an error at the object, in the API server's words. A pod that records a
 * {@code status.phase} (a dump of a cluster) was admitted by that cluster: only defaulting and
 * Priority (as before this chain) touch it.
 */
public final class Admission {

  private final AdmissionPlugins plugins;
  private final PriorityAdmission priority = new PriorityAdmission();
  private final Map<String, RuntimeClass> runtimeClasses = new TreeMap<>();
  private Namespaces namespaces = Namespaces.NONE;

  /** A cluster with EKS's admission plugins ({@link AdmissionPlugins#defaults}). */
  public Admission() {
    this(AdmissionPlugins.defaults());
  }

  public Admission(AdmissionPlugins plugins) {
    this.plugins = plugins;
  }

  public AdmissionPlugins plugins() {
    return plugins;
  }

  /** The namespaces admitted so far, with their labels ({@code kind: Namespace} objects). */
  public Namespaces namespaces() {
    return namespaces;
  }

  /**
   * Admits {@code objects} as one {@code kubectl apply}: their Namespaces, RuntimeClasses and
   * PriorityClasses first, then every pod and workload with its pod spec defaulted and admitted.
   * Returns the objects in their order, pods and workloads as admitted (one refused is returned as
   * written, with the error reported).
   */
  public List<KubeObject> admit(List<KubeObject> objects, Diagnostics diagnostics) {
    for (KubeObject o : objects) {
      if (o instanceof KubeObject.NamespaceObject ns) {
        namespaces = namespaces.with(ns.name(), ns.labels());
      } else if (o instanceof KubeObject.RuntimeClassObject rc) {
        runtimeClasses.put(rc.name(), rc.runtimeClass());
      }
    }
    List<KubeObject> defaulted = new ArrayList<>(objects.size());
    for (KubeObject o : objects) {
      defaulted.add(withSpec(o, specOf(o) == null ? null : PodDefaults.apply(specOf(o))));
    }
    List<KubeObject> prioritised = plugins.on(AdmissionPlugins.PRIORITY)
        ? priority.admit(defaulted, diagnostics) : defaulted;
    List<KubeObject> out = new ArrayList<>(objects.size());
    for (KubeObject o : prioritised) {
      PodSpec spec = specOf(o);
      // A pod with a status (a dump of a cluster) was admitted there: its spec is the truth, even
      // where the dump lacks its RuntimeClass.
      boolean observed = o instanceof KubeObject.PodObject p && p.phase().isPresent();
      out.add(spec == null || observed ? o : withSpec(o, admitSpec(o, spec, diagnostics)));
    }
    return out;
  }

  /** The plugins after Priority, in kube-apiserver's order; a refusal leaves the spec as it was. */
  private PodSpec admitSpec(KubeObject o, PodSpec spec, Diagnostics diagnostics) {
    PodSpec out = spec;
    if (plugins.on(AdmissionPlugins.DEFAULT_TOLERATION_SECONDS)) {
      out = DefaultTolerationSeconds.apply(out);
    }
    if (plugins.on(AdmissionPlugins.EXTENDED_RESOURCE_TOLERATION)) {
      out = ExtendedResourceToleration.apply(out);
    }
    if (plugins.on(AdmissionPlugins.RUNTIME_CLASS)) {
      switch (RuntimeClassAdmission.apply(out, runtimeClasses)) {
        case RuntimeClassAdmission.Result.Admitted a -> out = a.spec();
        case RuntimeClassAdmission.Result.Refused r -> {
          refuse(o, r.reason(), diagnostics);
          return spec;
        }
      }
    }
    return out;
  }

  /**
   * A refusal as kube-apiserver words it ({@code admission.NewForbidden}: {@code pods "web" is
   * forbidden: <reason>}); for a workload, the refusal its controller meets creating each pod.
   */
  private static void refuse(KubeObject o, String reason, Diagnostics diagnostics) {
    if (o instanceof KubeObject.PodObject p) {
      diagnostics.error(p.location(), "spec", "pods \"" + p.pod().name() + "\" is forbidden: " + reason);
    } else {
      diagnostics.error(o.location(), "spec.template.spec", o.kind() + " " + o.name()
          + ": its controller cannot create pods: pods is forbidden: " + reason);
    }
  }

  /** The pod spec a pod or workload holds; null for other objects. */
  private static PodSpec specOf(KubeObject o) {
    // instanceof, not a pattern switch, which would make a class at run time on first use.
    if (o instanceof KubeObject.PodObject p) {
      return p.pod().spec();
    }
    if (o instanceof KubeObject.WorkloadObject w) {
      return w.workload().template().spec();
    }
    return null;
  }

  private static KubeObject withSpec(KubeObject o, PodSpec spec) {
    if (o instanceof KubeObject.PodObject p) {
      return p.pod().spec() == spec ? p
          : p.withPod(p.pod().withSpec(spec));
    }
    if (o instanceof KubeObject.WorkloadObject w) {
      PodTemplate t = w.workload().template();
      // The stored template stays as decoded: admission acts on the pods (PodTemplate#stored).
      return t.spec() == spec ? w : w.withWorkload(w.workload().withTemplate(t.withSpec(spec)));
    }
    return o;
  }
}
