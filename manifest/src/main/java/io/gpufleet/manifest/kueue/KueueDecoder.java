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
import io.gpufleet.queue.api.FlavorFungibility;
import io.gpufleet.queue.api.FlavorQuotas;
import io.gpufleet.queue.api.KueueConfiguration;
import io.gpufleet.queue.api.LocalQueue;
import io.gpufleet.queue.api.PreemptionPolicy;
import io.gpufleet.queue.api.QueueingStrategy;
import io.gpufleet.queue.api.ResourceFlavor;
import io.gpufleet.queue.api.ResourceGroup;
import io.gpufleet.queue.api.ResourceQuota;
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
 * the twin reads but does not act on (admission checks, fair sharing, stop policies,
 * borrowWithinCohort.maxPriorityThreshold, topology names) is a warning at its line; an unknown field is an error, as a strict decoder has it.
 */
final class KueueDecoder {

  static final String GROUP = "kueue.x-k8s.io";
  /** The group of Kueue's manager Configuration ({@code apis/config/}). */
  static final String CONFIG_GROUP = "config.kueue.x-k8s.io";
  static final Set<String> CONFIG_VERSIONS = Set.of(CONFIG_GROUP + "/v1beta1", CONFIG_GROUP + "/v1beta2");
  static final Set<String> VERSIONS = Set.of(GROUP + "/v1beta1", GROUP + "/v1beta2");

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
    notModelled(s, "topologyName", "topology-aware scheduling (spec.topologyName)");
    List<Taint> taints = s.list("nodeTaints").stream().map(kube::taint).toList();
    List<Toleration> tolerations = s.list("tolerations").stream().map(kube::toleration).toList();
    return Optional.of(new ResourceFlavor(meta.name(), Labels.of(s.stringMap("nodeLabels")), taints, tolerations));
  }

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
    for (String f : List.of("admissionChecks", "admissionChecksStrategy", "stopPolicy", "fairSharing", "admissionScope",
        "concurrentAdmissionPolicy")) {
      notModelled(s, f, "spec." + f);
    }
    Optional<String> cohort = s.optString(cohortField).filter(c -> !c.isEmpty());
    List<ResourceGroup> groups = resourceGroups(s, cohort.isPresent(), "cohort");
    QueueingStrategy strategy = s.get("queueingStrategy")
        .map(c -> oneOf(c, QueueingStrategy.class, QueueingStrategy.BEST_EFFORT_FIFO)).orElse(QueueingStrategy.BEST_EFFORT_FIFO);
    // An absent namespaceSelector is a nothing selector; {} selects every namespace.
    Optional<LabelSelector> selector = s.get("namespaceSelector").map(kube::labelSelector);
    PreemptionPolicy preemption = s.get("preemption").map(this::preemption).orElse(PreemptionPolicy.NEVER);
    FlavorFungibility fungibility = s.get("flavorFungibility").map(this::fungibility).orElse(FlavorFungibility.DEFAULT);
    return Optional.of(new ClusterQueue(meta.name(), cohort, groups, strategy, selector, preemption, fungibility));
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
    notModelled(s, "fairSharing", "spec.fairSharing");
    Optional<String> parent = s.optString("parentName").filter(p -> !p.isEmpty());
    return Optional.of(new Cohort(meta.name(), parent, resourceGroups(s, parent.isPresent(), "parent")));
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
   * defaults it and validated as {@code pkg/config/validation.go} validateWaitForPodsReady. Only
   * {@code waitForPodsReady} is acted on; every other field present is a warning by name.
   */
  Optional<KueueConfiguration> configuration(Cursor doc, String apiVersion) {
    if (!CONFIG_VERSIONS.contains(apiVersion)) {
      doc.get("apiVersion").orElse(doc).error("expected " + CONFIG_GROUP + "/v1beta1 or " + CONFIG_GROUP
          + "/v1beta2 for kind Configuration, found \"" + apiVersion + "\"");
      return Optional.empty();
    }
    boolean v1beta1 = apiVersion.endsWith("/v1beta1");
    Set<String> ignored = new java.util.TreeSet<>(Set.of("namespace", "manageJobsWithoutQueueName",
        "managedJobsNamespaceSelector", "internalCertManagement", "clientConnection", "integrations", "multiKueue",
        "fairSharing", "admissionFairSharing", "resources", "featureGates", "objectRetentionPolicies", "webhook",
        "leaderElection", "metrics", "health", "pprofBindAddress", "controller", "tls"));
    ignored.add(v1beta1 ? "queueVisibility" : "visibilityServer");
    Set<String> known = new java.util.HashSet<>(ignored);
    known.addAll(Set.of("apiVersion", "kind", "waitForPodsReady"));
    doc.checkKnownStrictDecoding(known);
    for (String f : ignored) {
      doc.get(f).ifPresent(c -> c.warning("Configuration field " + f + " is not modelled by gpufleet; it is read and "
          + "ignored"));
    }
    Optional<Cursor> w = doc.get("waitForPodsReady");
    if (v1beta1) {
      // v1beta1 defaults.go: off unless enable is true; then timeout 5m, blockAdmission = enable (true).
      w.ifPresent(c -> c.checkKnownStrictDecoding(Set.of("enable", "timeout", "blockAdmission", "requeuingStrategy",
          "recoveryTimeout")));
      if (w.isEmpty() || !w.get().bool("enable", false)) {
        return Optional.of(new KueueConfiguration(Optional.empty()));
      }
      return Optional.of(new KueueConfiguration(Optional.of(waitForPodsReady(w.get(), WaitForPodsReady.V1BETA1_TIMEOUT,
          true, true))));
    }
    // v1beta2 defaults.go: always on (unless the DisableWaitForPodsReady gate, which the twin does not
    // read); a zero timeout is 30m, blockAdmission false.
    w.ifPresent(c -> c.checkKnownStrictDecoding(Set.of("timeout", "blockAdmission", "requeuingStrategy",
        "recoveryTimeout")));
    if (w.isEmpty()) {
      return Optional.of(KueueConfiguration.DEFAULT);
    }
    return Optional.of(new KueueConfiguration(Optional.of(waitForPodsReady(w.get(), WaitForPodsReady.V1BETA2_TIMEOUT,
        false, false))));
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
