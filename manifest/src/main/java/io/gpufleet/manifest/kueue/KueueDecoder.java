package io.gpufleet.manifest.kueue;

import io.gpufleet.manifest.kube.KubeDecoder;
import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.GoDuration;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.model.wire.WireEnum;
import io.gpufleet.queue.api.ClusterQueue;
import io.gpufleet.queue.api.Cohort;
import io.gpufleet.queue.api.FairSharing;
import io.gpufleet.queue.api.FairSharingConfig;
import io.gpufleet.queue.api.FlavorFungibility;
import io.gpufleet.queue.api.FlavorQuotas;
import io.gpufleet.queue.api.KueueConfiguration;
import io.gpufleet.queue.jobset.JobSetWorkload;
import io.gpufleet.queue.api.LocalQueue;
import io.gpufleet.queue.api.PreemptionPolicy;
import io.gpufleet.queue.api.QueueingStrategy;
import io.gpufleet.queue.api.ResourceFlavor;
import io.gpufleet.queue.api.ResourceGroup;
import io.gpufleet.queue.api.ResourceQuota;
import io.gpufleet.queue.api.Topology;
import io.gpufleet.queue.api.WaitForPodsReady;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decodes Kueue's objects at {@code kueue.x-k8s.io/v1beta1} and {@code v1beta2} and checks them as
 * Kueue's CRDs and webhooks do ({@code apis/kueue/v1beta2/*_types.go} markers,
 * {@code pkg/webhooks/clusterqueue_webhook.go}), with their messages where they have one. A field
 * the twin reads but does not act on (admission checks, stop policies, LocalQueue fair sharing,
 * borrowWithinCohort.maxPriorityThreshold) is a warning at its line; an unknown field is an error, as a strict decoder has it.
 * Kueue's manager Configuration ({@code config.kueue.x-k8s.io}, kind Configuration, the file Kueue
 * reads at start) is decoded for its {@code fairSharing}, checked as {@code pkg/config/validation.go}
 * checks it; its other settings are warnings by name.
 */
final class KueueDecoder {

  static final String GROUP = "kueue.x-k8s.io";
  /** The group of Kueue's manager Configuration ({@code apis/config/}). */
  static final String CONFIG_GROUP = "config.kueue.x-k8s.io";
  static final Set<String> CONFIG_VERSIONS = Set.of(CONFIG_GROUP + "/v1beta1", CONFIG_GROUP + "/v1beta2");
  static final Set<String> VERSIONS = Set.of(GROUP + "/v1beta1", GROUP + "/v1beta2");
  /**
   * The Configuration's fields ({@code configuration_types.go}: Configuration with ControllerManager
   * inlined; {@code queueVisibility} only in v1beta1). Kueue decodes the file strictly.
   */
  private static final List<String> CONFIG_FIELDS = List.of("namespace", "manageJobsWithoutQueueName",
      "managedJobsNamespaceSelector", "internalCertManagement", "waitForPodsReady", "clientConnection", "integrations",
      "multiKueue", "admissionFairSharing", "resources", "featureGates", "objectRetentionPolicies", "visibilityServer",
      "webhook", "leaderElection", "metrics", "health", "pprofBindAddress", "controller", "tls");

  /** CRD MaxItems: resourceGroups 16, coveredResources and flavors 64. */
  static final int MAX_GROUPS = 16;
  static final int MAX_ITEMS = 64;

  private final Diagnostics diagnostics;
  private final KubeDecoder kube;

  KueueDecoder(Diagnostics diagnostics) {
    this.diagnostics = diagnostics;
    this.kube = new KubeDecoder(diagnostics);
  }

  private boolean version(Cursor doc, String apiVersion, String kind) {
    if (!VERSIONS.contains(apiVersion)) {
      doc.get("apiVersion").orElse(doc).error("expected " + GROUP + "/v1beta1 or " + GROUP + "/v1beta2 for kind " + kind
          + ", found \"" + apiVersion + "\"");
      return false;
    }
    return true;
  }

  private static void notModelled(Cursor spec, String field, String what) {
    spec.get(field).ifPresent(c -> c.warning(what + " is not modelled by gpufleet; it is read and ignored"));
  }

  Optional<ResourceFlavor> resourceFlavor(Cursor doc, String apiVersion) {
    if (!version(doc, apiVersion, "ResourceFlavor")) {
      return Optional.empty();
    }
    ObjectMeta meta = kube.meta(doc, false);
    Optional<Cursor> spec = doc.get("spec");
    if (spec.isEmpty()) {
      return Optional.of(ResourceFlavor.named(meta.name()));
    }
    Cursor s = spec.get();
    s.checkKnownStrictDecoding(Set.of("nodeLabels", "nodeTaints", "tolerations", "topologyName"));
    List<Taint> taints = s.list("nodeTaints").stream().map(kube::taint).toList();
    List<Toleration> tolerations = s.list("tolerations").stream().map(kube::toleration).toList();
    Labels nodeLabels = Labels.of(s.stringMap("nodeLabels"));
    Optional<String> topology = s.optString("topologyName");
    if (topology.isPresent() && nodeLabels.isEmpty()) {
      // resourceflavor_types.go XValidation.
      s.get("topologyName").ifPresent(c -> c.error("at least one nodeLabel is required when topology is set"));
    }
    return Optional.of(new ResourceFlavor(meta.name(), nodeLabels, taints, tolerations, topology));
  }

  /** {@code topology_types.go}: 1 to 16 levels, unique node labels, {@code kubernetes.io/hostname} only last. */
  Optional<Topology> topology(Cursor doc, String apiVersion) {
    if (!version(doc, apiVersion, "Topology")) {
      return Optional.empty();
    }
    ObjectMeta meta = kube.meta(doc, false);
    Cursor s = doc.require("spec").orElse(doc);
    s.checkKnownStrictDecoding(Set.of("levels"));
    List<Cursor> items = s.require("levels").map(Cursor::asList).orElse(List.of());
    if (items.isEmpty() && s.get("levels").isPresent()) {
      s.get("levels").get().error("must have at least 1 items, found 0");
    }
    if (items.size() > MAX_GROUPS) {
      s.get("levels").ifPresent(c -> c.error("must have at most " + MAX_GROUPS + " items, found " + items.size()));
    }
    List<String> levels = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      Cursor l = items.get(i);
      l.checkKnownStrictDecoding(Set.of("nodeLabel"));
      String label = l.requiredString("nodeLabel");
      Cursor at = l.get("nodeLabel").orElse(l);
      if (label.isEmpty() || label.length() > 316 || !NODE_LABEL.matcher(label).matches()) {
        at.error("must be a label name of 1 to 316 characters matching " + NODE_LABEL.pattern() + ", found \""
            + label + "\"");
      } else if (levels.contains(label)) {
        at.error("must be unique, found \"" + label + "\" twice");
      } else if (label.equals(Topology.HOSTNAME) && i != items.size() - 1) {
        at.error("the kubernetes.io/hostname label can only be used at the lowest level of topology");
      }
      levels.add(label);
    }
    return Optional.of(new Topology(meta.name(), levels));
  }

  /** {@code TopologyLevel.nodeLabel}'s CRD pattern. */
  private static final java.util.regex.Pattern NODE_LABEL = java.util.regex.Pattern.compile(
      "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$");

  Optional<ClusterQueue> clusterQueue(Cursor doc, String apiVersion) {
    if (!version(doc, apiVersion, "ClusterQueue")) {
      return Optional.empty();
    }
    ObjectMeta meta = kube.meta(doc, false);
    Cursor s = doc.require("spec").orElse(doc);
    boolean v1beta1 = apiVersion.endsWith("/v1beta1");
    String cohortField = v1beta1 ? "cohort" : "cohortName";
    s.checkKnownStrictDecoding(Set.of(cohortField, "resourceGroups", "queueingStrategy", "namespaceSelector",
        "flavorFungibility", "preemption", "admissionChecks", "admissionChecksStrategy", "stopPolicy", "fairSharing",
        "admissionScope", "concurrentAdmissionPolicy"));
    for (String f : List.of("admissionChecks", "admissionChecksStrategy", "stopPolicy", "admissionScope",
        "concurrentAdmissionPolicy")) {
      notModelled(s, f, "spec." + f);
    }
    FairSharing fairSharing = s.get("fairSharing").map(this::fairSharing).orElse(FairSharing.DEFAULT);
    Optional<String> cohort = s.optString(cohortField).filter(c -> !c.isEmpty());
    List<ResourceGroup> groups = resourceGroups(s, cohort.isPresent(), "cohort");
    QueueingStrategy strategy = s.get("queueingStrategy")
        .map(c -> oneOf(c, QueueingStrategy.class, QueueingStrategy.BEST_EFFORT_FIFO)).orElse(QueueingStrategy.BEST_EFFORT_FIFO);
    // An absent namespaceSelector is a nothing selector; {} selects every namespace.
    Optional<LabelSelector> selector = s.get("namespaceSelector").map(kube::labelSelector);
    PreemptionPolicy preemption = s.get("preemption").map(this::preemption).orElse(PreemptionPolicy.NEVER);
    FlavorFungibility fungibility = s.get("flavorFungibility").map(this::fungibility).orElse(FlavorFungibility.DEFAULT);
    return Optional.of(new ClusterQueue(meta.name(), cohort, groups, strategy, selector, preemption, fungibility,
        fairSharing));
  }

  private List<ResourceGroup> resourceGroups(Cursor s, boolean hasParent, String parentWord) {
    List<Cursor> items = s.list("resourceGroups");
    if (items.size() > MAX_GROUPS) {
      s.get("resourceGroups").ifPresent(c -> c.error("must have at most " + MAX_GROUPS + " items, found " + items.size()));
    }
    List<ResourceGroup> out = new ArrayList<>();
    for (Cursor g : items) {
      g.checkKnownStrictDecoding(Set.of("coveredResources", "flavors"));
      List<ResourceName> covered = g.require("coveredResources").map(Cursor::asList).orElse(List.of()).stream()
          .map(c -> ResourceName.of(c.asString())).toList();
      List<Cursor> flavorItems = g.require("flavors").map(Cursor::asList).orElse(List.of());
      if (covered.size() > MAX_ITEMS) {
        g.get("coveredResources").ifPresent(c -> c.error("must have at most " + MAX_ITEMS + " items, found "
            + covered.size()));
      }
      if (flavorItems.size() > MAX_ITEMS) {
        g.get("flavors").ifPresent(c -> c.error("must have at most " + MAX_ITEMS + " items, found " + flavorItems.size()));
      }
      List<FlavorQuotas> flavors = new ArrayList<>();
      for (Cursor f : flavorItems) {
        f.checkKnownStrictDecoding(Set.of("name", "resources"));
        String name = f.requiredString("name");
        List<Cursor> rs = f.require("resources").map(Cursor::asList).orElse(List.of());
        if (rs.size() != covered.size()) {
          f.get("resources").orElse(f).error("flavors must have the same number of resources as the coveredResources");
        }
        List<ResourceQuota> quotas = new ArrayList<>();
        for (int i = 0; i < rs.size(); i++) {
          quotas.add(resourceQuota(rs.get(i), i < covered.size() ? Optional.of(covered.get(i)) : Optional.empty(),
              hasParent, parentWord));
        }
        flavors.add(new FlavorQuotas(name, quotas));
      }
      out.add(new ResourceGroup(covered, flavors));
    }
    return out;
  }

  private ResourceQuota resourceQuota(Cursor r, Optional<ResourceName> covered, boolean hasParent, String parentWord) {
    r.checkKnownStrictDecoding(Set.of("name", "nominalQuota", "borrowingLimit", "lendingLimit"));
    String name = r.requiredString("name");
    if (covered.isPresent() && !covered.get().toString().equals(name)) {
      r.get("name").ifPresent(c -> c.error("must match the name in coveredResources"));
    }
    Quantity nominal = r.require("nominalQuota").map(this::nonNegative).orElse(Quantity.ZERO);
    Optional<Quantity> borrowing = r.get("borrowingLimit").map(c -> limit(c, hasParent, parentWord));
    Optional<Quantity> lending = r.get("lendingLimit").map(c -> limit(c, hasParent, parentWord));
    if (lending.isPresent() && lending.get().compareTo(nominal) > 0) {
      r.get("lendingLimit").ifPresent(c -> c.error("must be less than or equal to the nominalQuota"));
    }
    return new ResourceQuota(ResourceName.of(name), nominal, borrowing, lending);
  }

  private Quantity nonNegative(Cursor c) {
    Quantity q = c.asQuantity();
    if (q.signum() < 0) {
      c.error("must be greater than or equal to 0");
    }
    return q;
  }

  /** clusterqueue_webhook.go validateLimit: a limit needs a cohort (a parent, for a Cohort). */
  private Quantity limit(Cursor c, boolean hasParent, String parentWord) {
    Quantity q = nonNegative(c);
    if (!hasParent) {
      c.error("must be nil when " + parentWord + " is empty");
    }
    return q;
  }

  private PreemptionPolicy preemption(Cursor p) {
    p.checkKnownStrictDecoding(Set.of("reclaimWithinCohort", "withinClusterQueue", "borrowWithinCohort"));
    PreemptionPolicy.Policy reclaim = policy(p, "reclaimWithinCohort", List.of(PreemptionPolicy.Policy.NEVER,
        PreemptionPolicy.Policy.LOWER_PRIORITY, PreemptionPolicy.Policy.ANY));
    PreemptionPolicy.Policy within = policy(p, "withinClusterQueue", List.of(PreemptionPolicy.Policy.NEVER,
        PreemptionPolicy.Policy.LOWER_PRIORITY, PreemptionPolicy.Policy.LOWER_OR_NEWER_EQUAL_PRIORITY));
    PreemptionPolicy.Policy borrow = PreemptionPolicy.Policy.NEVER;
    Optional<Cursor> bwc = p.get("borrowWithinCohort");
    if (bwc.isPresent()) {
      bwc.get().checkKnownStrictDecoding(Set.of("policy", "maxPriorityThreshold"));
      borrow = policy(bwc.get(), "policy", List.of(PreemptionPolicy.Policy.NEVER, PreemptionPolicy.Policy.LOWER_PRIORITY));
      bwc.get().get("maxPriorityThreshold").ifPresent(c -> c.warning(
          "maxPriorityThreshold is not modelled by gpufleet: every lower priority may be preempted while borrowing"));
    }
    if (reclaim == PreemptionPolicy.Policy.NEVER && borrow != PreemptionPolicy.Policy.NEVER) {
      p.error("reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never");
    }

    return new PreemptionPolicy(reclaim, borrow, within);
  }

  private static PreemptionPolicy.Policy policy(Cursor owner, String field, List<PreemptionPolicy.Policy> allowed) {
    Optional<Cursor> c = owner.get(field);
    if (c.isEmpty()) {
      return PreemptionPolicy.Policy.NEVER;
    }
    String v = c.get().asString();
    Optional<PreemptionPolicy.Policy> p = WireEnum.fromWire(PreemptionPolicy.Policy.class, v).filter(allowed::contains);
    if (p.isEmpty()) {
      c.get().error(supported(allowed.stream().map(WireEnum::wireName).toList(), v));
    }
    return p.orElse(PreemptionPolicy.Policy.NEVER);
  }

  /** The CRD's enum error: {@code supported values: "A", "B", found "x"}. */
  private static String supported(List<String> values, String found) {
    return "supported values: " + String.join(", ", values.stream().map(v -> "\"" + v + "\"").toList()) + ", found \""
        + found + "\"";
  }

  /** An enum field: its constant, or an error naming the supported values and {@code fallback}. */
  private static <E extends Enum<E> & WireEnum> E oneOf(Cursor c, Class<E> type, E fallback) {
    String v = c.asString();
    Optional<E> e = WireEnum.fromWire(type, v);
    if (e.isEmpty()) {
      c.error(supported(WireEnum.wireNames(type), v));
    }
    return e.orElse(fallback);
  }

  private FlavorFungibility fungibility(Cursor f) {
    f.checkKnownStrictDecoding(Set.of("whenCanBorrow", "whenCanPreempt", "preference"));
    FlavorFungibility.Policy borrow = f.get("whenCanBorrow")
        .map(c -> oneOf(c, FlavorFungibility.Policy.class, FlavorFungibility.Policy.MAY_STOP_SEARCH))
        .orElse(FlavorFungibility.Policy.MAY_STOP_SEARCH);
    FlavorFungibility.Policy preempt = f.get("whenCanPreempt")
        .map(c -> oneOf(c, FlavorFungibility.Policy.class, FlavorFungibility.Policy.TRY_NEXT_FLAVOR))
        .orElse(FlavorFungibility.Policy.TRY_NEXT_FLAVOR);
    Optional<FlavorFungibility.Preference> preference = Optional.empty();
    Optional<Cursor> pc = f.get("preference");
    if (pc.isPresent()) {
      preference = WireEnum.fromWire(FlavorFungibility.Preference.class, pc.get().asString());
      if (preference.isEmpty()) {
        oneOf(pc.get(), FlavorFungibility.Preference.class, FlavorFungibility.Preference.BORROWING_OVER_PREEMPTION);
      } else if (borrow != FlavorFungibility.Policy.TRY_NEXT_FLAVOR || preempt != FlavorFungibility.Policy.TRY_NEXT_FLAVOR) {
        pc.get().error("preference can only be set when both whenCanBorrow and whenCanPreempt are TryNextFlavor");
      }
    }
    return new FlavorFungibility(borrow, preempt, preference);
  }

  Optional<Cohort> cohort(Cursor doc, String apiVersion) {
    if (!version(doc, apiVersion, "Cohort")) {
      return Optional.empty();
    }
    ObjectMeta meta = kube.meta(doc, false);
    Optional<Cursor> spec = doc.get("spec");
    if (spec.isEmpty()) {
      return Optional.of(Cohort.named(meta.name()));
    }
    Cursor s = spec.get();
    s.checkKnownStrictDecoding(Set.of("parentName", "resourceGroups", "fairSharing"));
    Optional<String> parent = s.optString("parentName").filter(p -> !p.isEmpty());
    FairSharing fairSharing = s.get("fairSharing").map(this::fairSharing).orElse(FairSharing.DEFAULT);
    return Optional.of(new Cohort(meta.name(), parent, resourceGroups(s, parent.isPresent(), "parent"), fairSharing));
  }

  /**
   * {@code spec.fairSharing} of a ClusterQueue or Cohort: its weight, 1 when unset, checked as
   * {@code pkg/webhooks/common.go} validateFairSharing checks it (not negative; 0 or above 10^-9).
   */
  private FairSharing fairSharing(Cursor fs) {
    fs.checkKnownStrictDecoding(Set.of("weight"));
    Optional<Cursor> w = fs.get("weight");
    if (w.isEmpty()) {
      return FairSharing.DEFAULT;
    }
    Quantity weight = w.get().asQuantity();
    if (weight.signum() < 0) {
      w.get().error("must be greater than or equal to 0"); // apimachinery IsNegativeErrorMsg
    } else if (weight.signum() > 0 && weight.compareTo(Quantity.parse("1n")) <= 0) {
      w.get().error("When not 0, weight must be > 10e-9");
    }
    return new FairSharing(weight);
  }

  Optional<LocalQueue> localQueue(Cursor doc, String apiVersion) {
    if (!version(doc, apiVersion, "LocalQueue")) {
      return Optional.empty();
    }
    ObjectMeta meta = kube.meta(doc, true);
    Cursor s = doc.require("spec").orElse(doc);
    s.checkKnownStrictDecoding(Set.of("clusterQueue", "stopPolicy", "fairSharing"));
    notModelled(s, "stopPolicy", "spec.stopPolicy");
    notModelled(s, "fairSharing", "spec.fairSharing");
    return Optional.of(new LocalQueue(meta.namespace(), meta.name(), s.requiredString("clusterQueue")));
  }

  Optional<Map.Entry<String, Integer>> workloadPriorityClass(Cursor doc, String apiVersion) {
    if (!version(doc, apiVersion, "WorkloadPriorityClass")) {
      return Optional.empty();
    }
    ObjectMeta meta = kube.meta(doc, false);
    int value = doc.require("value").map(Cursor::asInt).orElse(0);
    return Optional.of(Map.entry(meta.name(), value));
  }

  /**
   * Kueue's manager Configuration, strictly decoded as Kueue loads its config file
   * ({@code pkg/config/config.go} fromFile, {@code serializer.EnableStrict}), defaulted as its version
   * defaults it and validated as {@code pkg/config/validation.go} (validateWaitForPodsReady,
   * validateFairSharing). {@code waitForPodsReady} and {@code fairSharing} are acted on; every other
   * field present is a warning by name.
   */
  Optional<KueueConfiguration> configuration(Cursor doc, String apiVersion) {
    if (!CONFIG_VERSIONS.contains(apiVersion)) {
      doc.get("apiVersion").orElse(doc).error("expected " + CONFIG_GROUP + "/v1beta1 or " + CONFIG_GROUP
          + "/v1beta2 for kind Configuration, found \"" + apiVersion + "\"");
      return Optional.empty();
    }
    boolean v1beta1 = apiVersion.endsWith("/v1beta1");
    Set<String> known = new java.util.HashSet<>(CONFIG_FIELDS);
    known.addAll(List.of("apiVersion", "kind", "fairSharing"));
    if (v1beta1) {
      known.add("queueVisibility");
    }
    doc.checkKnownStrictDecoding(known);
    for (String f : new java.util.TreeSet<>(known)) {
      if (!Set.of("apiVersion", "kind", "fairSharing", "waitForPodsReady", "integrations").contains(f)) {
        doc.get(f).ifPresent(c -> c.warning("Configuration field " + f + " is not modelled by gpufleet; it is read and "
            + "ignored"));
      }
    }
    return Optional.of(new KueueConfiguration(waitForPodsReady(doc, v1beta1), fairSharing(doc, v1beta1),
        frameworks(doc, v1beta1)));
  }

  /** The integrations the twin runs a reconciler of, of {@code integrations.frameworks}. */
  static final Set<String> MODELLED_FRAMEWORKS = Set.of(KueueConfiguration.JOB_FRAMEWORK,
      KueueConfiguration.POD_FRAMEWORK, JobSetWorkload.FRAMEWORK);

  /**
   * {@code integrations.frameworks} (empty: batch/job alone, {@code defaults.go}); a framework other
   * than batch/job, pod and jobset.x-k8s.io/jobset is read and warned about (the twin runs no reconciler of its kind), as are
   * the other fields of {@code integrations}.
   */
  private List<String> frameworks(Cursor doc, boolean v1beta1) {
    Optional<Cursor> in = doc.get("integrations");
    if (in.isEmpty()) {
      return List.of();
    }
    Set<String> known = new java.util.HashSet<>(Set.of("frameworks", "externalFrameworks", "labelKeysToCopy"));
    if (v1beta1) {
      known.add("podOptions");
    }
    in.get().checkKnownStrictDecoding(known);
    for (String f : new java.util.TreeSet<>(known)) {
      if (!f.equals("frameworks")) {
        in.get().get(f).ifPresent(c -> c.warning("integrations field " + f + " is not modelled by gpufleet; it is read "
            + "and ignored"));
      }
    }
    List<String> out = new ArrayList<>();
    for (Cursor c : in.get().list("frameworks")) {
      String name = c.asString();
      if (!MODELLED_FRAMEWORKS.contains(name)) {
        c.warning("integration \"" + name + "\" is not modelled by gpufleet (only batch/job, pod and "
            + JobSetWorkload.FRAMEWORK + " are): its objects are not read as Workloads");
      }
      out.add(name);
    }
    return out;
  }

  /** waitForPodsReady as the version defaults it: v1beta1 off unless {@code enable}, v1beta2 always on. */
  private Optional<WaitForPodsReady> waitForPodsReady(Cursor doc, boolean v1beta1) {
    Optional<Cursor> w = doc.get("waitForPodsReady");
    if (v1beta1) {
      // v1beta1 defaults.go: off unless enable is true; then timeout 5m, blockAdmission = enable (true).
      w.ifPresent(c -> c.checkKnownStrictDecoding(Set.of("enable", "timeout", "blockAdmission", "requeuingStrategy",
          "recoveryTimeout")));
      if (w.isEmpty() || !w.get().bool("enable", false)) {
        return Optional.empty();
      }
      return Optional.of(waitForPodsReady(w.get(), WaitForPodsReady.V1BETA1_TIMEOUT, true, true));
    }
    // v1beta2 defaults.go: always on (unless the DisableWaitForPodsReady gate, which the twin does not
    // read); a zero timeout is 30m, blockAdmission false.
    w.ifPresent(c -> c.checkKnownStrictDecoding(Set.of("timeout", "blockAdmission", "requeuingStrategy",
        "recoveryTimeout")));
    if (w.isEmpty()) {
      return KueueConfiguration.DEFAULT.waitForPodsReady();
    }
    return Optional.of(waitForPodsReady(w.get(), WaitForPodsReady.V1BETA2_TIMEOUT, false, false));
  }

  /**
   * fairSharing: on when present in v1beta2 and when {@code enable: true} in v1beta1 (whose empty
   * strategy list is Kueue's default, as its conversion has it); the strategies must be one of the
   * lists {@code validateFairSharing} accepts.
   */
  private Optional<FairSharingConfig> fairSharing(Cursor doc, boolean v1beta1) {
    Optional<Cursor> fs = doc.get("fairSharing");
    if (fs.isEmpty()) {
      return Optional.empty();
    }
    Cursor f = fs.get();
    f.checkKnownStrictDecoding(v1beta1 ? Set.of("enable", "preemptionStrategies") : Set.of("preemptionStrategies"));
    if (v1beta1 && !f.bool("enable", false)) {
      return Optional.empty();
    }
    List<Cursor> items = f.list("preemptionStrategies");
    if (items.isEmpty()) {
      if (v1beta1) {
        return Optional.of(FairSharingConfig.DEFAULT);
      }
      f.get("preemptionStrategies").orElse(f).error("Required value: must be specified");
      return Optional.empty();
    }
    List<String> written = items.stream().map(Cursor::asString).toList();
    List<FairSharingConfig.PreemptionStrategy> strategies = written.stream()
        .map(v -> WireEnum.fromWire(FairSharingConfig.PreemptionStrategy.class, v)).flatMap(Optional::stream).toList();
    if (strategies.size() != written.size() || !FairSharingConfig.VALID_STRATEGY_SETS.contains(strategies)) {
      List<String> sets = FairSharingConfig.VALID_STRATEGY_SETS.stream()
          .map(set -> String.join(",", set.stream().map(WireEnum::wireName).toList())).toList();
      f.get("preemptionStrategies").orElse(f).error(supported(sets, String.join(",", written)));
      return Optional.empty();
    }
    return Optional.of(new FairSharingConfig(strategies));
  }

  private WaitForPodsReady waitForPodsReady(Cursor w, Duration defaultTimeout, boolean defaultBlock,
      boolean zeroTimeoutIsWritten) {
    Optional<Duration> written = w.get("timeout").map(KueueDecoder::nonNegativeDuration);
    Duration timeout = written.filter(d -> zeroTimeoutIsWritten || !d.isZero()).orElse(defaultTimeout);
    if (timeout.isZero()) {
      w.get("timeout").ifPresent(c -> c.error("Required value: must be specified"));
    }
    boolean block = w.optBool("blockAdmission").orElse(defaultBlock);
    // recoveryTimeout defaults to timeout; "0s" turns it off (core.go waitForPodsReady).
    Duration recovery = w.get("recoveryTimeout").map(KueueDecoder::nonNegativeDuration).orElse(timeout);
    WaitForPodsReady.RequeuingStrategy strategy = w.get("requeuingStrategy").map(this::requeuingStrategy)
        .orElse(WaitForPodsReady.RequeuingStrategy.DEFAULT);
    return new WaitForPodsReady(timeout, block, strategy, recovery.isZero() ? Optional.empty() : Optional.of(recovery));
  }

  private WaitForPodsReady.RequeuingStrategy requeuingStrategy(Cursor r) {
    r.checkKnownStrictDecoding(Set.of("timestamp", "backoffLimitCount", "backoffBaseSeconds", "backoffMaxSeconds"));
    WaitForPodsReady.Timestamp timestamp = r.get("timestamp")
        .map(c -> oneOf(c, WaitForPodsReady.Timestamp.class, WaitForPodsReady.Timestamp.EVICTION))
        .orElse(WaitForPodsReady.Timestamp.EVICTION);
    Optional<Integer> limit = r.get("backoffLimitCount").filter(c -> !c.isNull()).map(KueueDecoder::nonNegativeInt);
    int base = r.get("backoffBaseSeconds").map(KueueDecoder::nonNegativeInt)
        .orElse(WaitForPodsReady.RequeuingStrategy.DEFAULT_BASE_SECONDS);
    int max = r.get("backoffMaxSeconds").map(KueueDecoder::nonNegativeInt)
        .orElse(WaitForPodsReady.RequeuingStrategy.DEFAULT_MAX_SECONDS);
    return new WaitForPodsReady.RequeuingStrategy(timestamp, limit, base, max);
  }

  private static int nonNegativeInt(Cursor c) {
    int v = c.asInt();
    if (v < 0) {
      c.error("must be greater than or equal to 0, found " + v);
      return 0;
    }
    return v;
  }

  /** A metav1.Duration in Go's syntax; a negative one is validation's IsNegativeErrorMsg. */
  private static Duration nonNegativeDuration(Cursor c) {
    String text = c.asString();
    Duration d = GoDuration.parse(text.startsWith("-") ? text.substring(1) : text);
    if (d == null) {
      c.error("expected a duration such as 30s, 5m or 1h, found \"" + text + "\"");
      return Duration.ZERO;
    }
    if (text.startsWith("-") && !d.isZero()) {
      c.error("must be greater than or equal to 0, found \"" + text + "\"");
      return Duration.ZERO;
    }
    return d;
  }
}
