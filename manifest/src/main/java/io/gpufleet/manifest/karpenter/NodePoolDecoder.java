package io.gpufleet.manifest.karpenter;

import io.gpufleet.manifest.kube.KubeDecoder;
import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.model.cloud.CapacityReservation;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.GoDuration;
import io.gpufleet.model.karpenter.AutoMode;
import io.gpufleet.model.karpenter.Budget;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.CronSchedule;
import io.gpufleet.model.karpenter.Disruption;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodeClassRef;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.karpenter.RequirementOperator;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.workload.IntOrPercent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Decodes a {@code karpenter.sh/v1} NodePool and checks it as the API server would with
 * Karpenter's CRD: the OpenAPI patterns and the CEL rules of {@code K:pkg/apis/v1/nodepool.go} and
 * {@code nodeclaim.go} (reference §1.1, §1.6), with their messages. Defaults are filled in as the
 * CRD defaults them. Problems go to the {@link Diagnostics} at the line of the offending field.
 */
public final class NodePoolDecoder {

  public static final String API_VERSION = "karpenter.sh/v1";

  /** {@code expireAfter} and {@code consolidateAfter}: {@code ^(([0-9]+(s|m|h))+|Never)$}. */
  static final Pattern DURATION_OR_NEVER = Pattern.compile("^(([0-9]+(s|m|h))+|Never)$");
  /** {@code terminationGracePeriod}: {@code ([0-9]+(s|m|h))+}. */
  static final Pattern DURATION = Pattern.compile("^([0-9]+(s|m|h))+$");
  /** {@code budgets[].nodes}. */
  static final Pattern BUDGET_NODES = Pattern.compile("^((100|[0-9]{1,2})%|[0-9]+)$");
  /** {@code budgets[].duration}: minutes and hours only. */
  static final Pattern BUDGET_DURATION = Pattern.compile("^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$");

  static final int MAX_REQUIREMENTS = 100;
  static final int MAX_BUDGETS = 50;

  private static final Set<String> SPEC_FIELDS = Set.of("template", "disruption", "limits", "weight", "replicas");
  private static final Set<String> TEMPLATE_SPEC_FIELDS = Set.of("requirements", "taints", "startupTaints",
      "nodeClassRef", "expireAfter", "terminationGracePeriod");
  private static final Set<String> DISRUPTION_FIELDS = Set.of("consolidationPolicy", "consolidateAfter", "budgets");
  private static final Set<String> BUDGET_FIELDS = Set.of("nodes", "schedule", "duration", "reasons");
  private static final Set<String> REQUIREMENT_FIELDS = Set.of("key", "operator", "values", "minValues");
  private static final Set<String> OVERLAY_REQUIREMENT_FIELDS = Set.of("key", "operator", "values");

  private final Diagnostics diagnostics;
  private final KubeDecoder kube;

  public NodePoolDecoder(Diagnostics diagnostics) {
    this.diagnostics = diagnostics;
    this.kube = new KubeDecoder(diagnostics);
  }

  public Diagnostics diagnostics() {
    return diagnostics;
  }

  /** The NodePool of a document whose kind is NodePool. */
  public NodePool decode(Cursor doc, String apiVersion) {
    if (!API_VERSION.equals(apiVersion)) {
      doc.get("apiVersion").orElse(doc).error("expected apiVersion " + API_VERSION + " (gpufleet reads Karpenter's v1 "
          + "API), found \"" + apiVersion + "\"");
    }
    ObjectMeta meta = kube.meta(doc, false);
    Cursor spec = doc.require("spec").orElse(doc);
    spec.checkKnown(SPEC_FIELDS, true);
    spec.get("replicas").ifPresent(r -> r.warning("static NodePools (spec.replicas, alpha) are not modelled by "
        + "gpufleet; the field is ignored and the NodePool provisions dynamically"));
    NodeClaimTemplate template = spec.require("template").map(this::template)
        .orElse(NodeClaimTemplate.of());
    Disruption disruption = spec.get("disruption").map(this::disruption).orElse(Disruption.DEFAULT);
    ResourceList limits = spec.resourceList("limits");
    for (var e : limits.quantities().entrySet()) {
      if (e.getValue().signum() < 0) {
        spec.get("limits").ifPresent(l -> l.error("limits[" + e.getKey() + "]: must be greater than or equal to 0"));
      }
    }
    OptionalInt weight = spec.optInt("weight");
    if (weight.isPresent() && (weight.getAsInt() < 1 || weight.getAsInt() > 100)) {
      spec.get("weight").ifPresent(w -> w.error("should be in 1..100, found " + weight.getAsInt()));
    }
    return new NodePool(meta.name(), template, disruption, limits, weight);
  }

  private NodeClaimTemplate template(Cursor t) {
    t.checkKnown(Set.of("metadata", "spec"), true);
    Labels labels = Labels.EMPTY;
    Labels annotations = Labels.EMPTY;
    Optional<Cursor> md = t.get("metadata");
    if (md.isPresent()) {
      Map<String, String> l = md.get().stringMap("labels");
      md.get().get("labels").ifPresent(lc -> lc.entries().forEach((key, at) ->
          restrictedLabel(key).ifPresent(at::error)));
      labels = Labels.of(l);
      annotations = Labels.of(md.get().stringMap("annotations"));
    }
    Cursor spec = t.require("spec").orElse(t);
    spec.checkKnown(TEMPLATE_SPEC_FIELDS, true);
    List<Cursor> reqCursors = spec.require("requirements").map(Cursor::asList).orElse(List.of());
    if (reqCursors.size() > MAX_REQUIREMENTS) {
      spec.get("requirements").ifPresent(c -> c.error("must have at most " + MAX_REQUIREMENTS + " items, found "
          + reqCursors.size()));
    }
    List<NodePoolRequirement> requirements = new ArrayList<>();
    for (Cursor r : reqCursors) {
      requirement(r).ifPresent(requirements::add);
    }
    List<Taint> taints = new ArrayList<>();
    for (Cursor c : spec.list("taints")) {
      taints.add(kube.taint(c));
    }
    List<Taint> startupTaints = new ArrayList<>();
    for (Cursor c : spec.list("startupTaints")) {
      startupTaints.add(kube.taint(c));
    }
    NodeClassRef ref = spec.require("nodeClassRef").map(c -> new NodeClassRef(c.requiredString("group"),
        c.requiredString("kind"), c.requiredString("name"))).orElse(NodeClassRef.DEFAULT_EC2);
    boolean autoMode = AutoMode.isAutoMode(ref);
    if (autoMode) {
      autoModeRequirements(reqCursors);
    }
    Optional<Duration> expireAfter = Optional.of(autoMode ? AutoMode.DEFAULT_EXPIRE_AFTER
        : NodeClaimTemplate.DEFAULT_EXPIRE_AFTER);
    Optional<Cursor> ea = spec.get("expireAfter");
    if (ea.isPresent()) {
      expireAfter = durationOrNever(ea.get(), DURATION_OR_NEVER);
    }
    Optional<Duration> tgp = spec.get("terminationGracePeriod").flatMap(c -> durationOrNever(c, DURATION));
    if (autoMode && spec.get("terminationGracePeriod").isEmpty()) {
      tgp = Optional.of(AutoMode.DEFAULT_TERMINATION_GRACE_PERIOD);
    }
    return new NodeClaimTemplate(labels, annotations, requirements, taints, startupTaints, ref, expireAfter, tgp);
  }

  /**
   * An EKS Auto Mode NodePool's requirements on instance labels its nodes do not carry: the AWS
   * provider's {@code karpenter.k8s.aws/*} (Auto Mode uses {@code eks.amazonaws.com/*} instead), or
   * an Auto Mode label gpufleet's catalogue has no values for. Either way no instance type would
   * offer a value, so it is said here rather than as an unexplained failure to provision.
   */
  private static void autoModeRequirements(List<Cursor> requirements) {
    for (Cursor r : requirements) {
      String key = r.optString("key").orElse("");
      Cursor at = r.get("key").orElse(r);
      if (key.startsWith("karpenter.k8s.aws/")) {
        at.warning("EKS Auto Mode's nodes carry eks.amazonaws.com/" + key.substring("karpenter.k8s.aws/".length())
            + ", not " + key + " (EKS user guide, \"EKS Auto Mode Supported Labels\"): no instance type offers it");
      } else if (AutoMode.NOT_MODELLED.contains(key)) {
        at.warning(key + " is an EKS Auto Mode label gpufleet's instance catalogue has no values for: no instance "
            + "type offers it in the simulation");
      }
    }
  }

  /** Karpenter's restricted label rules (reference §1.2): the karpenter.sh domain and the hostname. */
  static Optional<String> restrictedLabel(String key) {
    if (key.equals("kubernetes.io/hostname")) {
      return Optional.of("label \"kubernetes.io/hostname\" is restricted");
    }
    if (KarpenterLabels.isRestricted(key)) {
      return Optional.of("label domain \"karpenter.sh\" is restricted");
    }
    return Optional.empty();
  }

  private Optional<NodePoolRequirement> requirement(Cursor r) {
    return requirement(r, false);
  }

  /**
   * One requirement, checked as the NodePool CRD does, or with {@code overlay} as the NodeOverlay CRD
   * does ({@code K:pkg/apis/crds/karpenter.sh_nodeoverlays.yaml}): no {@code minValues}, {@code
   * karpenter.sh/nodepool} allowed, and {@code NotIn} needs values too.
   */
  Optional<NodePoolRequirement> requirement(Cursor r, boolean overlay) {
    r.checkKnown(overlay ? OVERLAY_REQUIREMENT_FIELDS : REQUIREMENT_FIELDS, true);
    String key = r.requiredString("key");
    String opText = r.requiredString("operator");
    List<String> values = r.stringList("values");
    OptionalInt minValues = r.optInt("minValues");
    Optional<RequirementOperator> op = RequirementOperator.fromWire(opText);
    if (op.isEmpty()) {
      if (!opText.isEmpty()) {
        r.get("operator").ifPresent(c -> c.error("expected one of In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte, Lte, "
            + "found \"" + opText + "\""));
      }
      return Optional.empty();
    }
    if (!overlay && key.equals(KarpenterLabels.NODEPOOL) || key.equals("kubernetes.io/hostname")) {
      r.get("key").ifPresent(c -> c.error("label \"" + key + "\" is restricted"));
    } else if (KarpenterLabels.isRestricted(key) && !key.equals(KarpenterLabels.CAPACITY_TYPE)
        && !(overlay && key.equals(KarpenterLabels.NODEPOOL))) {
      r.get("key").ifPresent(c -> c.error("label domain \"karpenter.sh\" is restricted"));
    }
    if (key.equals(CapacityReservation.ID_LABEL) || key.equals(CapacityReservation.TYPE_LABEL)) {
      // Upstream matches reserved offerings against these (their offering requirements); the twin does not.
      r.get("key").ifPresent(c -> c.warning("a requirement on " + key + " is not modelled by gpufleet: offerings are "
          + "not matched against it (an EC2NodeClass's capacityReservationSelectorTerms choose the reservations)"));
    }
    Cursor at = r.get("values").orElse(r);
    switch (op.get()) {
      case IN -> {
        if (values.isEmpty()) {
          at.error("requirements with operator 'In' must have a value defined");
        }
      }
      case NOT_IN -> {
        if (overlay && values.isEmpty()) {
          at.error("requirements with operator 'NotIn' must have a value defined");
        }
      }
      case EXISTS, DOES_NOT_EXIST -> {
        if (!values.isEmpty()) {
          at.error("values: may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
        }
      }
      case GT, LT, GTE, LTE -> {
        boolean ok = values.size() == 1;
        if (ok) {
          try {
            ok = Long.parseLong(values.getFirst()) >= 0;
          } catch (NumberFormatException e) {
            ok = false;
          }
        }
        if (!ok) {
          at.error("requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value");
        }
      }
    }
    if (minValues.isPresent()) {
      int mv = minValues.getAsInt();
      if (mv < 1 || mv > 50) {
        r.get("minValues").ifPresent(c -> c.error("should be in 1..50, found " + mv));
      }
      if (op.get() == RequirementOperator.IN && values.size() < mv) {
        r.get("minValues").ifPresent(c -> c.error(
            "requirements with 'minValues' must have at least that many values specified in the 'values' field"));
      }
    }
    boolean numericOk = !op.get().isNumeric() || (values.size() == 1 && values.getFirst().matches("[0-9]+"));
    return numericOk ? Optional.of(new NodePoolRequirement(key, op.get(), values, minValues)) : Optional.empty();
  }

  private Disruption disruption(Cursor d) {
    d.checkKnown(DISRUPTION_FIELDS, true);
    ConsolidationPolicy policy = ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED;
    Optional<Cursor> pc = d.get("consolidationPolicy");
    if (pc.isPresent()) {
      String s = pc.get().asString();
      Optional<ConsolidationPolicy> p = ConsolidationPolicy.fromWire(s);
      if (p.isEmpty()) {
        pc.get().error("expected one of WhenEmpty, WhenEmptyOrUnderutilized, Balanced, found \"" + s + "\"");
      } else {
        policy = p.get();
      }
    }
    Optional<Duration> after = Optional.of(Duration.ZERO);
    Optional<Cursor> ac = d.get("consolidateAfter");
    if (ac.isPresent()) {
      after = durationOrNever(ac.get(), DURATION_OR_NEVER);
    }
    List<Budget> budgets = List.of(Budget.DEFAULT);
    Optional<Cursor> bc = d.get("budgets");
    if (bc.isPresent()) {
      List<Cursor> items = bc.get().asList();
      if (items.size() > MAX_BUDGETS) {
        bc.get().error("must have at most " + MAX_BUDGETS + " items, found " + items.size());
      }
      List<Budget> out = new ArrayList<>();
      for (Cursor b : items) {
        budget(b).ifPresent(out::add);
      }
      budgets = out;
    }
    return new Disruption(policy, after, budgets);
  }

  private Optional<Budget> budget(Cursor b) {
    b.checkKnown(BUDGET_FIELDS, true);
    boolean ok = true;
    IntOrPercent nodes = new IntOrPercent.Percent(10);
    Optional<Cursor> nc = b.get("nodes");
    if (nc.isPresent()) {
      String text = nc.get().asString();
      if (!BUDGET_NODES.matcher(text).matches()) {
        nc.get().error("should match '" + BUDGET_NODES.pattern() + "', found \"" + text + "\"");
        ok = false;
      } else {
        nodes = IntOrPercent.parse(text);
      }
    }
    Optional<CronSchedule> schedule = Optional.empty();
    Optional<Cursor> sc = b.get("schedule");
    if (sc.isPresent()) {
      try {
        schedule = Optional.of(CronSchedule.parse(sc.get().asString()));
      } catch (IllegalArgumentException e) {
        sc.get().error("not a cron schedule: " + e.getMessage());
        ok = false;
      }
    }
    Optional<Duration> duration = Optional.empty();
    Optional<Cursor> dc = b.get("duration");
    if (dc.isPresent()) {
      String text = dc.get().asString();
      if (!BUDGET_DURATION.matcher(text).matches()) {
        dc.get().error("should match '" + BUDGET_DURATION.pattern() + "' (hours and minutes only), found \""
            + text + "\"");
        ok = false;
      } else {
        duration = Optional.of(GoDuration.parse(text));
      }
    }
    if (sc.isPresent() != dc.isPresent()) {
      b.error("'schedule' must be set with 'duration'");
      ok = false;
    }
    Set<DisruptionReason> reasons = EnumSet.noneOf(DisruptionReason.class);
    for (Cursor rc : b.list("reasons")) {
      String s = rc.asString();
      Optional<DisruptionReason> r = DisruptionReason.fromWire(s);
      if (r.isEmpty()) {
        rc.error("expected one of Underutilized, Empty, Drifted, found \"" + s + "\"");
        ok = false;
      } else {
        reasons.add(r.get());
      }
    }
    return ok ? Optional.of(new Budget(nodes, schedule, duration, reasons)) : Optional.empty();
  }

  /** A duration checked against the CRD's pattern; {@code Never} is empty. */
  private static Optional<Duration> durationOrNever(Cursor c, Pattern pattern) {
    String s = c.asString();
    if (!pattern.matcher(s).matches()) {
      c.error("should match '" + pattern.pattern() + "', found \"" + s + "\"");
      return Optional.of(Duration.ZERO);
    }
    return s.equals("Never") ? Optional.empty() : Optional.of(GoDuration.parse(s));
  }
}
