package io.gpufleet.manifest.kube;

import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.GoDuration;
import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YPath;
import io.gpufleet.model.affinity.NodeAffinity;
import io.gpufleet.model.affinity.NodeSelector;
import io.gpufleet.model.affinity.NodeSelectorTerm;
import io.gpufleet.model.affinity.PreferredSchedulingTerm;
import io.gpufleet.model.dra.SelectorCompiler;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.label.SelectorOperator;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.OwnerReference;
import io.gpufleet.model.node.ContainerImage;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.ContainerPort;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.pod.PreemptionPolicy;
import io.gpufleet.model.pod.RuntimeClass;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.model.validation.FieldError;
import io.gpufleet.model.validation.LabelSyntax;
import io.gpufleet.model.validation.NodeValidation;
import io.gpufleet.model.validation.PodValidation;
import io.gpufleet.model.wire.WireEnum;
import io.gpufleet.model.workload.IntOrPercent;
import io.gpufleet.model.workload.PodDisruptionBudget;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Decodes Kubernetes objects (Node, Pod, Deployment, ReplicaSet, StatefulSet, Job, DaemonSet,
 * PodDisruptionBudget, ConfigMap, PriorityClass, Namespace, RuntimeClass, and {@code List}) from located YAML into model
 * values, checking what the API server would check. Problems go to the {@link Diagnostics}.
 */
public final class KubeDecoder {

  /** kubelet's default {@code maxPods}, assumed when a node manifest gives no {@code pods} capacity. */
  public static final long KUBELET_DEFAULT_MAX_PODS = 110;

  /** gpufleet's annotation for how long a Job's pod runs, since a manifest cannot say. */
  public static final String RUN_FOR_ANNOTATION = "gpufleet.io/run-for";
  /** When {@code gpufleet import} read the cluster, on the {@code List} it writes: the snapshot's "now". */
  public static final String IMPORTED_AT_ANNOTATION = "gpufleet.io/imported-at";

  private static final Set<String> TAINT_FIELDS = Set.of("key", "value", "effect", "timeAdded");

  private final Diagnostics diagnostics;
  /** Unknown fields are errors rather than warnings ({@code kubectl --validate=strict}). */
  private final boolean strict;
  /** The API's fields, each kind's read when the first object of it is. */
  private final ApiSchema schema = new ApiSchema();
  /** Karpenter objects at an API version before v1, skipped with a warning, in the order read. */
  private final List<OldKarpenterApi.Unread> unreadKarpenter = new ArrayList<>();
  /** DRA selectors' CEL compiler, looked up when the first selector is read (null until then). */
  private Optional<SelectorCompiler> selectorCompiler;

  public KubeDecoder(Diagnostics diagnostics) {
    this(diagnostics, false);
  }

  public KubeDecoder(Diagnostics diagnostics, boolean strict) {
    this.diagnostics = diagnostics;
    this.strict = strict;
  }

  /** Whether unknown fields are errors ({@code kubectl --validate=strict}). */
  boolean strict() {
    return strict;
  }

  /** CEL's message when a DRA selector does not compile; none when no compiler is on the class path. */
  Optional<String> selectorError(String expression) {
    if (selectorCompiler == null) {
      selectorCompiler = SelectorCompiler.installed();
    }
    return selectorCompiler.flatMap(c -> c.compileError(expression));
  }

  /** Whether a compiling selector's estimated cost exceeds the API server's limit ({@link SelectorCompiler#tooComplex}). */
  boolean selectorTooComplex(String expression) {
    if (selectorCompiler == null) {
      selectorCompiler = SelectorCompiler.installed();
    }
    return selectorCompiler.map(c -> c.tooComplex(expression)).orElse(false);
  }

  /**
   * The Karpenter objects this decoder skipped because they are written at an API version before
   * {@code v1} ({@link OldKarpenterApi}); each was reported as a warning when read.
   */
  public List<OldKarpenterApi.Unread> unreadKarpenter() {
    return List.copyOf(unreadKarpenter);
  }

  /** Every object of the documents; a {@code kind: List} contributes its items. */
  public List<KubeObject> decodeAll(List<YNode> documents) {
    List<KubeObject> out = new ArrayList<>();
    for (YNode doc : documents) {
      // kubectl converts each document to JSON before reading it: a document that cannot convert is not read.
      if (!NonFiniteNumbers.report(doc, diagnostics)) {
        decodeDocument(Cursor.root(doc, diagnostics), out, Optional.empty());
      }
    }
    return out;
  }

  /**
   * Each document and each item of a {@code kind: List} (one inside another too), by where it starts:
   * the trees {@link #decodeAll} reads objects from, so that an object's fields can be found again by
   * its location ({@link KubeObject#location}).
   */
  public static Map<Location, YNode> byStart(List<YNode> documents) {
    Map<Location, YNode> out = new HashMap<>();
    documents.forEach(d -> byStart(d, out));
    return out;
  }

  private static void byStart(YNode doc, Map<Location, YNode> out) {
    out.put(doc.location(), doc);
    if (doc instanceof YNode.YMap m && m.entries().get("kind") != null
        && m.entries().get("kind").value() instanceof YNode.YScalar k && k.text().equals("List")
        && m.entries().get("items") != null && m.entries().get("items").value() instanceof YNode.YList items) {
      items.items().forEach(i -> byStart(i, out));
    }
  }

  /** {@code snapshot}: the import time of the {@code List} the document is an item of. */
  private void decodeDocument(Cursor doc, List<KubeObject> out, Optional<Instant> snapshot) {
    if (!doc.isMap()) {
      doc.expected("a Kubernetes object (a mapping with apiVersion and kind)");
      return;
    }
    String kind = doc.requiredString("kind");
    String apiVersion = doc.requiredString("apiVersion");
    if (kind.isEmpty()) {
      return;
    }
    Location at = doc.location();
    if (kind.equals("List")) {
      // kubectl unpacks a List on the client, item by item; its own fields are not validated, but
      // gpufleet import's time is: it is the "now" of its items' status.startTime.
      Optional<Instant> importedAt = doc.get("metadata").flatMap(m -> m.get("annotations"))
          .flatMap(a -> a.get(IMPORTED_AT_ANNOTATION)).flatMap(KubeDecoder::time).or(() -> snapshot);
      for (Cursor item : doc.list("items")) {
        decodeDocument(item, out, importedAt);
      }
      return;
    }
    Optional<OldKarpenterApi> old = OldKarpenterApi.of(apiVersion, kind);
    if (old.isPresent()) {
      OldKarpenterApi.Unread u = new OldKarpenterApi.Unread(old.get(), name(doc),
          doc.get("apiVersion").map(Cursor::location).orElse(at));
      unreadKarpenter.add(u);
      diagnostics.add(u.warning());
      return;
    }
    if (!knownKind(doc, apiVersion, kind)) {
      return;
    }
    schema.reportUnknownFields(kind, objectName(doc, kind), doc.node(), diagnostics, strict);
    switch (kind) {
      case "Node" -> out.add(new KubeObject.NodeObject(node(doc), at));
      case "Pod" -> pod(doc).ifPresent(p -> out.add(new KubeObject.PodObject(p, at, phase(doc),
          priorityWritten(doc.node(), "spec"), startTime(doc, snapshot), finishedAt(doc))));
      case "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet" ->
          out.add(new KubeObject.WorkloadObject(workload(kind, doc), at,
              priorityWritten(doc.node(), "spec", "template", "spec")));
      case "Job" -> out.add(new KubeObject.WorkloadObject(workload(kind, doc), at,
          priorityWritten(doc.node(), "spec", "template", "spec"), startTime(doc, snapshot)));
      case "PodDisruptionBudget" -> out.add(new KubeObject.PdbObject(pdb(doc), at));
      case "ConfigMap" -> {
        Map<String, Cursor> cursors = new LinkedHashMap<>();
        doc.get("data").ifPresent(d -> cursors.putAll(d.entries()));
        Map<String, String> data = new TreeMap<>();
        cursors.forEach((k, c) -> data.put(k, c.isNull() ? "" : c.asString()));
        out.add(new KubeObject.ConfigMapObject(meta(doc, true), data, cursors, at));
      }
      case "DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice", "DeviceTaintRule" ->
          new DraDecoder(this, strict).decode(kind, doc).ifPresent(d -> out.add(new KubeObject.ResourceObject(d, at)));
      case "PriorityClass" -> {
        int value = doc.require("value").map(Cursor::asInt).orElse(0);
        out.add(new KubeObject.PriorityClassObject(meta(doc, false).name(), value,
            doc.bool("globalDefault", false), preemptionPolicy(doc), at));
      }
      case "Namespace" -> {
        ObjectMeta meta = meta(doc, false);
        // ValidateNamespaceName: a DNS label, stricter than the subdomain meta() checks (no dots).
        if (LabelSyntax.dns1123SubdomainErrors(meta.name()).isEmpty()) {
          doc.get("metadata").ifPresent(m -> invalidIf(m, "metadata.name", "name", meta.name(),
              LabelSyntax.dns1123LabelErrors(meta.name())));
        }
        out.add(new KubeObject.NamespaceObject(meta.name(), meta.labels(), at));
      }
      case "RuntimeClass" -> out.add(new KubeObject.RuntimeClassObject(runtimeClass(doc), at));
      default -> out.add(new KubeObject.OtherObject(apiVersion, kind, name(doc), doc, at));
    }
  }

  /**
   * A RuntimeClass: {@code handler} is required (ValidateRuntimeClass); {@code overhead.podFixed} and
   * {@code scheduling} as written (k8s.io/api node/v1 types.go).
   */
  private RuntimeClass runtimeClass(Cursor doc) {
    String name = meta(doc, false).name();
    String handler = doc.requiredString("handler");
    Optional<ResourceList> overhead = doc.get("overhead").filter(o -> o.get("podFixed").isPresent())
        .map(o -> o.resourceList("podFixed"));
    Labels nodeSelector = Labels.EMPTY;
    List<Toleration> tolerations = new ArrayList<>();
    Optional<Cursor> scheduling = doc.get("scheduling");
    if (scheduling.isPresent()) {
      nodeSelector = Labels.of(scheduling.get().stringMap("nodeSelector"));
      for (Cursor t : scheduling.get().list("tolerations")) {
        tolerations.add(toleration(t));
      }
    }
    return new RuntimeClass(name, handler, overhead, nodeSelector, tolerations);
  }

  /** A pod's or PriorityClass's {@code preemptionPolicy}; PreemptLowerPriority when absent. */
  private static PreemptionPolicy preemptionPolicy(Cursor owner) {
    Optional<Cursor> pp = owner.get("preemptionPolicy");
    if (pp.isEmpty()) {
      return PreemptionPolicy.PREEMPT_LOWER_PRIORITY;
    }
    String v = pp.get().asString();
    Optional<PreemptionPolicy> p = WireEnum.fromWire(PreemptionPolicy.class, v);
    if (p.isEmpty()) {
      pp.get().error("expected PreemptLowerPriority or Never, found \"" + v + "\"");
    }
    return p.orElse(PreemptionPolicy.PREEMPT_LOWER_PRIORITY);
  }

  /**
   * Checks {@code apiVersion} against the kind: a decoded kind must be at the version its decoder
   * reads, another built-in kind at a version the API has; an unknown kind of a known API group
   * is a typo. Kinds of other groups (custom resources) pass, to be skipped with a warning.
   */
  private boolean knownKind(Cursor doc, String apiVersion, String kind) {
    if (apiVersion.isEmpty()) {
      return false;
    }
    Optional<String> decoded = ApiSchema.decodedVersion(kind);
    if (decoded.isPresent()) {
      if (!decoded.get().equals(apiVersion)) {
        doc.get("apiVersion").ifPresent(c -> c.error("expected " + decoded.get() + " for kind " + kind + ", found \""
            + apiVersion + "\""));
        return false;
      }
      return true;
    }
    return switch (ApiSchema.check(apiVersion, kind)) {
      case ApiSchema.KindCheck.Known k -> true;
      case ApiSchema.KindCheck.Foreign f -> true;
      case ApiSchema.KindCheck.WrongVersion w -> {
        doc.get("apiVersion").ifPresent(c -> c.error("expected " + String.join(" or ", new TreeSet<>(w.versions()))
            + " for kind " + kind + ", found \"" + apiVersion + "\""));
        yield false;
      }
      case ApiSchema.KindCheck.Unknown u -> {
        doc.get("kind").ifPresent(c -> c.error("unknown kind \"" + kind + "\" in " + apiVersion
            + u.suggestion().map(s -> " (did you mean " + s + "?)").orElse("")));
        yield false;
      }
    };
  }

  /** {@code default/web}, or {@code gpu-1} for a node: how messages name an object. */
  private static String objectName(Cursor doc, String kind) {
    String name = name(doc);
    if (kind.equals("Node") || kind.equals("PriorityClass") || kind.equals("Namespace") || kind.equals("RuntimeClass")) {
      return name;
    }
    String ns = doc.get("metadata").flatMap(m -> m.optString("namespace")).filter(n -> !n.isEmpty()).orElse("default");
    return ns + "/" + name;
  }

  private static String name(Cursor doc) {
    return doc.get("metadata").flatMap(m -> m.optString("name")).orElse("");
  }

  // ---- metadata ----

  public ObjectMeta meta(Cursor doc, boolean namespaced) {
    Optional<Cursor> m = doc.require("metadata");
    if (m.isEmpty()) {
      return ObjectMeta.named("");
    }
    Cursor md = m.get();
    String name = md.optString("name").orElse("");
    if (name.isEmpty()) {
      Optional<String> generate = md.optString("generateName");
      if (generate.isPresent()) {
        name = generate.get() + "gpufleet";
      } else {
        diagnostics.error(md.location(), "metadata.name", "required value (or generateName)");
      }
    }
    // As the API server's ValidateObjectMeta: names are DNS subdomains, namespaces DNS labels,
    // label keys qualified names and values label values.
    if (md.optString("name").isPresent()) {
      invalidIf(md, "metadata.name", "name", name, LabelSyntax.dns1123SubdomainErrors(name));
    }
    Labels labels = Labels.of(md.stringMap("labels"));
    Optional<Cursor> labelsAt = md.get("labels");
    for (var e : labels.map().entrySet()) {
      Cursor l = labelsAt.orElseThrow();
      invalidIf(l, "metadata.labels", e.getKey(), e.getKey(), LabelSyntax.qualifiedNameErrors(e.getKey()));
      invalidIf(l, "metadata.labels", e.getKey(), e.getValue(), LabelSyntax.labelValueErrors(e.getValue()));
    }
    Labels annotations = Labels.of(md.stringMap("annotations"));
    annotationsSize(md, "metadata.annotations", annotations);
    Optional<OwnerReference> owner = Optional.empty();
    for (Cursor ref : md.list("ownerReferences")) {
      if (ref.bool("controller", false) || owner.isEmpty()) {
        owner = Optional.of(new OwnerReference(ref.string("kind", ""), ref.string("name", "")));
      }
    }
    String namespace = namespaced ? md.string("namespace", ObjectMeta.DEFAULT_NAMESPACE) : "";
    if (namespaced && md.optString("namespace").isPresent()) {
      invalidIf(md, "metadata.namespace", "namespace", namespace, LabelSyntax.dns1123LabelErrors(namespace));
    }
    return new ObjectMeta(name, namespace, labels, annotations, owner);
  }

  /**
   * {@code TotalAnnotationSizeLimitB} (256 KiB, apimachinery pkg/api/validation/objectmeta.go): the
   * bytes of all keys and values together; ValidateAnnotations refuses more with field.TooLong, in
   * current apimachinery's words ({@code Too long: may not be more than 262144 bytes}).
   */
  public static final int TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * 1024;

  private void annotationsSize(Cursor md, String field, Labels annotations) {
    long total = 0;
    for (var e : annotations.map().entrySet()) {
      total += e.getKey().getBytes(StandardCharsets.UTF_8).length + e.getValue().getBytes(StandardCharsets.UTF_8).length;
    }
    if (total > TOTAL_ANNOTATION_SIZE_LIMIT_B) {
      Location at = md.get("annotations").map(Cursor::location).orElse(md.location());
      diagnostics.error(at, field, "Too long: may not be more than " + TOTAL_ANNOTATION_SIZE_LIMIT_B + " bytes");
    }
  }

  /** One error per reason, at the key's value, in the API server's {@code Invalid value: "x": reason} form. */
  private void invalidIf(Cursor parent, String field, String key, String value, List<String> reasons) {
    for (String r : reasons) {
      Location at = parent.get(key).map(Cursor::location).orElse(parent.location());
      diagnostics.error(at, field, FieldError.invalid(field, value, r).message());
    }
  }

  // ---- nodes ----

  public Node node(Cursor doc) {
    ObjectMeta meta = meta(doc, false);
    List<Taint> taints = new ArrayList<>();
    boolean unschedulable = false;
    Optional<String> providerId = Optional.empty();
    Optional<Cursor> spec = doc.get("spec");
    if (spec.isPresent()) {
      for (Cursor t : spec.get().list("taints")) {
        taints.add(taintValue(t));
      }
      unschedulable = spec.get().bool("unschedulable", false);
      providerId = spec.get().optString("providerID");
    }
    ResourceList capacity = ResourceList.EMPTY;
    ResourceList allocatable = null;
    List<ContainerImage> images = new ArrayList<>();
    Optional<Cursor> status = doc.get("status");
    if (status.isPresent()) {
      capacity = status.get().resourceList("capacity");
      if (status.get().get("allocatable").isPresent()) {
        allocatable = status.get().resourceList("allocatable");
      }
      for (Cursor image : status.get().list("images")) {
        long size = image.optLong("sizeBytes").orElse(0);
        if (size < 0) {
          image.get("sizeBytes").ifPresent(c -> c.error("expected a non-negative size in bytes, found " + size));
        }
        images.add(new ContainerImage(image.stringList("names"), Math.max(0, size)));
      }
    }
    // Checked as written: an allocatable the kubelet defaults from capacity is not reported twice.
    report(doc, NodeValidation.validate(capacity, allocatable == null ? ResourceList.EMPTY : allocatable));
    if (allocatable == null) {
      allocatable = capacity;
    }
    Quantity maxPods = Quantity.of(KUBELET_DEFAULT_MAX_PODS);
    if (!capacity.contains(ResourceName.PODS)) {
      capacity = capacity.with(ResourceName.PODS, maxPods);
    }
    if (!allocatable.contains(ResourceName.PODS)) {
      allocatable = allocatable.with(ResourceName.PODS, capacity.getOrZero(ResourceName.PODS));
    }
    return new Node(meta, taints, unschedulable, capacity, allocatable, providerId, images);
  }

  /** A taint outside the Kubernetes API's own objects (a NodePool's), whose fields are checked here. */
  public Taint taint(Cursor t) {
    t.checkKnown(TAINT_FIELDS, strict);
    return taintValue(t);
  }

  private Taint taintValue(Cursor t) {
    String key = t.requiredString("key");
    String value = t.string("value", "");
    String effectText = t.requiredString("effect");
    TaintEffect effect = TaintEffect.fromWire(effectText).orElse(null);
    if (effect == null) {
      if (!effectText.isEmpty()) {
        t.get("effect").ifPresent(c -> c.error(
            "expected one of NoSchedule, PreferNoSchedule, NoExecute, found \"" + effectText + "\""));
      }
      effect = TaintEffect.NO_SCHEDULE;
    }
    return new Taint(key, value, effect);
  }

  // ---- pods ----

  public Optional<Pod> pod(Cursor doc) {
    ObjectMeta meta = meta(doc, true);
    Optional<Cursor> spec = doc.require("spec");
    if (spec.isEmpty()) {
      return Optional.empty();
    }
    doc.get("metadata").flatMap(m -> m.get("annotations")).flatMap(a -> a.get(SHUTDOWN_ANNOTATION))
        .ifPresent(this::shutdownDuration);
    PodSpec podSpec = podSpec(spec.get());
    validate(doc, podSpec, "spec");
    return Optional.of(new Pod(meta, podSpec));
  }

  /**
   * Which of {@code priority} and {@code preemptionPolicy} the pod spec at {@code path} writes (a
   * null value is not written). Read from the tree, not through a cursor: the spec's own read has
   * reported whatever is malformed there.
   */
  static KubeObject.PriorityWritten priorityWritten(YNode doc, String... path) {
    YNode n = doc;
    for (String key : path) {
      n = n instanceof YNode.YMap m && m.entries().get(key) != null ? m.entries().get(key).value() : null;
    }
    if (!(n instanceof YNode.YMap spec)) {
      return new KubeObject.PriorityWritten(false, false);
    }
    return new KubeObject.PriorityWritten(written(spec, "priority"), written(spec, "preemptionPolicy"));
  }

  private static boolean written(YNode.YMap map, String key) {
    YNode.YMap.Entry e = map.entries().get(key);
    return e != null && !(e.value() instanceof YNode.YNull);
  }

  /**
   * {@code status.startTime} of a pod (the kubelet's admission) or a Job (the Job controller's
   * start), when the object records it: an RFC 3339 time, as {@code metav1.Time} is written.
   */
  private static Optional<KubeObject.StartTime> startTime(Cursor doc, Optional<Instant> snapshot) {
    Optional<Cursor> c = doc.get("status").flatMap(st -> st.get("startTime")).filter(x -> !x.isNull());
    return c.flatMap(KubeDecoder::time).map(t -> new KubeObject.StartTime(t, snapshot, c.get().location()));
  }

  /**
   * The latest {@code status.containerStatuses[].state.terminated.finishedAt} of a pod, when its
   * status records one: when its last container finished.
   */
  private static Optional<Instant> finishedAt(Cursor doc) {
    Optional<Instant> latest = Optional.empty();
    for (Cursor cs : doc.get("status").map(st -> st.list("containerStatuses")).orElse(List.of())) {
      Optional<Instant> t = cs.get("state").flatMap(st -> st.get("terminated")).flatMap(tr -> tr.get("finishedAt"))
          .filter(x -> !x.isNull()).flatMap(KubeDecoder::time);
      if (t.isPresent() && (latest.isEmpty() || t.get().isAfter(latest.get()))) {
        latest = t;
      }
    }
    return latest;
  }

  /** An RFC 3339 time ({@code 2026-01-05T09:00:00Z}, an offset or fractional seconds allowed), else an error at it. */
  private static Optional<Instant> time(Cursor c) {
    String s = c.asString();
    try {
      return Optional.of(OffsetDateTime.parse(s, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant());
    } catch (DateTimeParseException e) {
      c.error("expected an RFC 3339 time such as 2026-01-05T09:00:00Z, found \"" + s + "\"");
      return Optional.empty();
    }
  }

  /** {@code status.phase}, when the object records its status. */
  private static Optional<KubeObject.PodObject.Phase> phase(Cursor doc) {
    Optional<Cursor> c = doc.get("status").flatMap(st -> st.get("phase"));
    if (c.isEmpty()) {
      return Optional.empty();
    }
    String s = c.get().asString();
    Optional<KubeObject.PodObject.Phase> p = KubeObject.PodObject.Phase.fromWire(s);
    if (p.isEmpty()) {
      c.get().error("expected one of Pending, Running, Succeeded, Failed, Unknown, found \"" + s + "\"");
    }
    return p;
  }

  /** Reports the API server's validation errors at the lines that hold the offending fields. */
  public void validate(Cursor doc, PodSpec spec, String prefix) {
    report(doc, PodValidation.validate(spec, prefix));
  }

  /** Each error at the line of the field its path names, under the document's own path. */
  void report(Cursor doc, List<FieldError> errors) {
    for (FieldError e : errors) {
      String full = doc.path().isEmpty() ? e.path() : doc.path() + "." + e.path();
      diagnostics.error(YPath.locate(doc.node(), e.path()), full, e.message());
    }
  }

  /** {@code ValidateLabelSelector} on a selector at {@code path} (a workload's or a budget's {@code spec.selector}). */
  private void validateSelector(Cursor doc, LabelSelector selector, String path) {
    List<FieldError> errors = new ArrayList<>();
    LabelSyntax.validateSelector(selector, path, errors);
    report(doc, errors);
  }

  /**
   * Fields the API has and gpufleet does not model, where ignoring them changes where or whether
   * a pod runs: each is a warning that says so, never silence.
   */
  private void warnUnmodelled(Cursor spec) {
    for (Cursor v : spec.list("volumes")) {
      v.get("persistentVolumeClaim").ifPresent(c -> c.warning("not modelled by gpufleet: volume binding and the "
          + "zone of a PersistentVolumeClaim's volume do not constrain where the pod is placed"));
    }
  }

  public PodSpec podSpec(Cursor spec) {
    warnUnmodelled(spec);
    List<Container> containers = new ArrayList<>();
    for (Cursor c : spec.list("containers")) {
      containers.add(container(c, false));
    }
    List<Container> inits = new ArrayList<>();
    for (Cursor c : spec.list("initContainers")) {
      inits.add(container(c, true));
    }
    ResourceList overhead = spec.resourceList("overhead");
    Labels nodeSelector = Labels.of(spec.stringMap("nodeSelector"));
    NodeAffinity affinity = NodeAffinity.NONE;
    Optional<Cursor> aff = spec.get("affinity");
    if (aff.isPresent()) {
      Optional<Cursor> na = aff.get().get("nodeAffinity");
      if (na.isPresent()) {
        affinity = nodeAffinity(na.get());
      }
    }
    List<Toleration> tolerations = new ArrayList<>();
    for (Cursor t : spec.list("tolerations")) {
      tolerations.add(toleration(t));
    }
    Optional<String> nodeName = spec.optString("nodeName").filter(s -> !s.isEmpty());
    int priority = spec.integer("priority", 0);
    Optional<String> priorityClassName = spec.optString("priorityClassName");
    PreemptionPolicy preemption = preemptionPolicy(spec);
    long grace = spec.optLong("terminationGracePeriodSeconds").orElse(PodSpec.DEFAULT_TERMINATION_GRACE_SECONDS);
    String scheduler = spec.string("schedulerName", PodSpec.DEFAULT_SCHEDULER);
    return new PodSpec(containers, inits, overhead, nodeSelector, affinity, tolerations, nodeName, priority,
        priorityClassName, preemption, grace, scheduler, new SpreadConstraintDecoder(this).constraints(spec),
        new PodAffinityDecoder(this).read(aff, "podAffinity"), new PodAffinityDecoder(this).read(aff, "podAntiAffinity"))
        .withResourceClaims(new DraDecoder(this, strict).podClaims(spec))
        .withSchedulingGates(schedulingGates(spec))
        .withRuntimeClassName(spec.optString("runtimeClassName").filter(n -> !n.isEmpty()));
  }

  /**
   * {@code spec.schedulingGates}' names. As {@code validateSchedulingGates}
   * (pkg/apis/core/validation/validation.go): each a qualified name, none twice; and as
   * {@code ValidatePodCreate}, a pod that names its node has no gates.
   */
  private List<String> schedulingGates(Cursor spec) {
    List<String> gates = new ArrayList<>();
    if (!spec.list("schedulingGates").isEmpty() && spec.optString("nodeName").filter(n -> !n.isEmpty()).isPresent()) {
      spec.get("nodeName").ifPresent(c -> c.error(FieldError.forbidden(c.path(),
          "cannot be set until all schedulingGates have been cleared").message()));
    }
    for (Cursor g : spec.list("schedulingGates")) {
      String name = g.requiredString("name");
      if (name.isEmpty()) {
        continue;
      }
      for (String reason : LabelSyntax.qualifiedNameErrors(name)) {
        g.get("name").ifPresent(c -> c.error(FieldError.invalid(c.path(), name, reason).message()));
      }
      if (gates.contains(name)) {
        g.get("name").ifPresent(c -> c.error(new FieldError(c.path(), FieldError.Kind.DUPLICATE, name, "").message()));
      } else {
        gates.add(name);
      }
    }
    return gates;
  }

  private Container container(Cursor c, boolean init) {
    String name = c.requiredString("name");
    String image = c.string("image", "");
    ResourceList requests = ResourceList.EMPTY;
    ResourceList limits = ResourceList.EMPTY;
    Optional<Cursor> res = c.get("resources");
    if (res.isPresent()) {
      requests = res.get().resourceList("requests");
      limits = res.get().resourceList("limits");
    }
    boolean sidecar = init && "Always".equals(c.string("restartPolicy", ""));
    List<ContainerPort> ports = new ArrayList<>();
    for (Cursor p : c.list("ports")) {
      ports.add(containerPort(p));
    }
    return new Container(name, image, requests, limits, sidecar, ports);
  }

  /**
   * A container port: {@code containerPort} required, {@code hostPort} 0 (none) or a port number
   * (validateContainerPorts), {@code protocol} TCP, UDP or SCTP, defaulting to TCP
   * (SetDefaults_ContainerPort).
   */
  private ContainerPort containerPort(Cursor p) {
    int containerPort = p.require("containerPort").map(Cursor::asInt).orElse(0);
    int hostPort = p.integer("hostPort", 0);
    if (hostPort < 0 || hostPort > 65_535) {
      p.get("hostPort").ifPresent(h -> h.error("expected a port number between 1 and 65535, found " + hostPort));
    }
    String protocol = p.string("protocol", "TCP");
    if (!Set.of("TCP", "UDP", "SCTP").contains(protocol)) {
      p.get("protocol").ifPresent(h -> h.error("expected one of TCP, UDP, SCTP, found \"" + protocol + "\""));
    }
    return new ContainerPort(containerPort, Math.clamp(hostPort, 0, 65_535), protocol, p.string("hostIP", ""));
  }

  public Toleration toleration(Cursor t) {
    String key = t.string("key", "");
    Toleration.Operator op = Toleration.Operator.EQUAL;
    Optional<Cursor> opc = t.get("operator");
    if (opc.isPresent()) {
      String s = opc.get().asString();
      op = Toleration.Operator.fromWire(s).orElseGet(() -> {
        opc.get().error("expected Equal or Exists, found \"" + s + "\"");
        return Toleration.Operator.EQUAL;
      });
    }
    Optional<TaintEffect> effect = Optional.empty();
    Optional<Cursor> ec = t.get("effect");
    if (ec.isPresent()) {
      String s = ec.get().asString();
      if (!s.isEmpty()) {
        effect = TaintEffect.fromWire(s);
        if (effect.isEmpty()) {
          ec.get().error("expected one of NoSchedule, PreferNoSchedule, NoExecute, found \"" + s + "\"");
        }
      }
    }
    OptionalLong seconds = t.optLong("tolerationSeconds");
    return new Toleration(key, op, t.string("value", ""), effect, seconds);
  }

  public NodeAffinity nodeAffinity(Cursor na) {
    Optional<NodeSelector> required = Optional.empty();
    Optional<Cursor> req = na.get("requiredDuringSchedulingIgnoredDuringExecution");
    if (req.isPresent()) {
      List<NodeSelectorTerm> terms = new ArrayList<>();
      for (Cursor term : req.get().list("nodeSelectorTerms")) {
        terms.add(nodeSelectorTerm(term));
      }
      required = Optional.of(new NodeSelector(terms));
    }
    List<PreferredSchedulingTerm> preferred = new ArrayList<>();
    for (Cursor p : na.list("preferredDuringSchedulingIgnoredDuringExecution")) {
      int weight = p.require("weight").map(Cursor::asInt).orElse(1);
      NodeSelectorTerm term = p.require("preference").map(this::nodeSelectorTerm)
          .orElse(new NodeSelectorTerm(List.of(), List.of()));
      preferred.add(new PreferredSchedulingTerm(weight, term));
    }
    return new NodeAffinity(required, preferred);
  }

  public NodeSelectorTerm nodeSelectorTerm(Cursor term) {
    List<Requirement> exprs = new ArrayList<>();
    for (Cursor e : term.list("matchExpressions")) {
      exprs.add(requirement(e));
    }
    List<Requirement> fields = new ArrayList<>();
    for (Cursor f : term.list("matchFields")) {
      fields.add(requirement(f));
    }
    return new NodeSelectorTerm(exprs, fields);
  }

  /**
   * A requirement as written. Which operators the selector allows, the value counts and the
   * syntax are the API server's validation (LabelSyntax.validateRequirement); an operator the
   * model cannot hold is reported here, in the API server's words.
   */
  public Requirement requirement(Cursor e) {
    String key = e.requiredString("key");
    String opText = e.requiredString("operator");
    List<String> values = e.stringList("values");
    Optional<SelectorOperator> op = SelectorOperator.fromWire(opText);
    if (op.isEmpty()) {
      if (!opText.isEmpty()) {
        e.get("operator").ifPresent(c -> c.error(FieldError.invalid(c.path(), opText, "not a valid selector operator")
            .message()));
      }
      return new Requirement(key, SelectorOperator.EXISTS, List.of());
    }
    return new Requirement(key, op.get(), values);
  }

  public LabelSelector labelSelector(Cursor s) {
    Labels matchLabels = Labels.of(s.stringMap("matchLabels"));
    List<Requirement> exprs = new ArrayList<>();
    for (Cursor e : s.list("matchExpressions")) {
      exprs.add(requirement(e));
    }
    return new LabelSelector(matchLabels, exprs);
  }

  // ---- workloads ----

  public Workload workload(String kind, Cursor doc) {
    return workload(kind, doc, meta(doc, true));
  }

  /** A workload of {@code doc}'s spec with {@code meta} (a JobSet's JobTemplateSpec has no name of its own). */
  Workload workload(String kind, Cursor doc, ObjectMeta meta) {
    Cursor spec = doc.require("spec").orElse(doc);
    PodTemplate template = template(spec, doc);
    LabelSelector selector = spec.get("selector").map(this::labelSelector)
        .orElse(LabelSelector.matching(template.labels()));
    spec.get("selector").ifPresent(sel -> validateSelector(doc, selector, "spec.selector"));
    if (!kind.equals("Job") && spec.get("selector").isEmpty()) {
      spec.error("spec.selector: required value");
    }
    if (!selector.isEmpty() && !selector.matches(template.labels())) {
      spec.get("template").ifPresent(t -> t.error(
          "metadata.labels: `selector` does not match template `labels`"));
    }
    return switch (kind) {
      case "Deployment" -> {
        IntOrPercent surge = Workload.Deployment.DEFAULT_ROLLING;
        IntOrPercent unavailable = Workload.Deployment.DEFAULT_ROLLING;
        Workload.Deployment.Strategy strategy = spec.get("strategy").map(this::strategy)
            .orElse(Workload.Deployment.Strategy.ROLLING_UPDATE);
        Optional<Cursor> ru = spec.get("strategy").flatMap(s -> s.get("rollingUpdate"));
        if (ru.isPresent() && strategy == Workload.Deployment.Strategy.RECREATE) {
          // apps/validation ValidateDeploymentStrategy
          ru.get().error("Forbidden: may not be specified when strategy `type` is 'Recreate'");
        } else if (ru.isPresent()) {
          surge = ru.get().get("maxSurge").map(this::intOrPercent).orElse(surge);
          unavailable = ru.get().get("maxUnavailable").map(this::intOrPercent).orElse(unavailable);
        }
        spec.get("minReadySeconds").ifPresent(c -> {
          if (c.asInt() != 0) {
            c.warning("not modelled by gpufleet: a pod counts as available as soon as it is Ready");
          }
        });
        yield new Workload.Deployment(meta, replicas(spec), selector, template, surge, unavailable, strategy);
      }
      case "ReplicaSet" -> new Workload.ReplicaSet(meta, replicas(spec), selector, template);
      case "StatefulSet" -> new Workload.StatefulSet(meta, replicas(spec), selector, template);
      case "Job" -> {
        int parallelism = spec.integer("parallelism", 1);
        int completions = spec.integer("completions", parallelism == 0 ? 0 : 1);
        Optional<Duration> runFor = Optional.empty();
        Optional<String> ann = template.annotations().get(RUN_FOR_ANNOTATION)
            .or(() -> meta.annotations().get(RUN_FOR_ANNOTATION));
        if (ann.isPresent()) {
          Duration d = GoDuration.parse(ann.get());
          if (d == null) {
            doc.error("metadata.annotations[" + RUN_FOR_ANNOTATION + "]: expected a duration such as 10m, found \""
                + ann.get() + "\"");
          } else {
            runFor = Optional.of(d);
          }
        }
        yield new Workload.Job(meta, parallelism, completions, selector, template, runFor);
      }
      case "DaemonSet" -> new Workload.DaemonSet(meta, selector, template);
      default -> throw new IllegalArgumentException("not a workload kind: " + kind);
    };
  }

  private int replicas(Cursor spec) {
    int r = spec.integer("replicas", 1);
    if (r < 0) {
      spec.get("replicas").ifPresent(c -> c.error("expected a non-negative integer, found " + r));
    }
    return Math.max(0, r);
  }

  private PodTemplate template(Cursor spec, Cursor doc) {
    Optional<Cursor> t = spec.require("template");
    if (t.isEmpty()) {
      return new PodTemplate(Labels.EMPTY, Labels.EMPTY, PodSpec.of());
    }
    Labels labels = Labels.EMPTY;
    Labels annotations = Labels.EMPTY;
    Optional<Cursor> md = t.get().get("metadata");
    if (md.isPresent()) {
      labels = Labels.of(md.get().stringMap("labels"));
      annotations = Labels.of(md.get().stringMap("annotations"));
      annotationsSize(md.get(), doc.path().isEmpty() ? "spec.template.annotations"
          : doc.path() + ".spec.template.annotations", annotations);
      md.get().get("annotations").flatMap(a -> a.get(SHUTDOWN_ANNOTATION)).ifPresent(this::shutdownDuration);
    }
    PodSpec podSpec = t.get().require("spec").map(this::podSpec).orElse(PodSpec.of());
    List<FieldError> labelErrors = new ArrayList<>();
    // ValidatePodTemplateSpec's path: the template's labels are "spec.template.labels".
    LabelSyntax.validateLabels(labels, "spec.template.labels", labelErrors);
    for (FieldError e : labelErrors) {
      Location at = md.flatMap(m -> m.get("labels")).map(Cursor::location).orElse(t.get().location());
      diagnostics.error(at, doc.path().isEmpty() ? e.path() : doc.path() + "." + e.path(), e.message());
    }
    validate(doc, podSpec, "spec.template.spec");
    return new PodTemplate(labels, annotations, podSpec);
  }

  /** How long the twin's pods take to stop (read by the simulator's kubelet): a non-negative Go duration. */
  public static final String SHUTDOWN_ANNOTATION = "gpufleet.io/shutdown-duration";

  private void shutdownDuration(Cursor c) {
    String text = c.asString();
    if (GoDuration.parse(text) == null) {
      c.error("expected a duration such as 20s, found \"" + text + "\"");
    }
  }

  public IntOrPercent intOrPercent(Cursor c) {
    if (c.node() instanceof YNode.YScalar s && s.type() == YNode.YScalar.Type.INTEGER) {
      return new IntOrPercent.Count(c.asInt());
    }
    String text = c.asString();
    IntOrPercent v = text.endsWith("%") ? IntOrPercent.parse(text) : null;
    if (v == null) {
      c.error("expected an integer or a percentage such as 25%, found \"" + text + "\"");
      return new IntOrPercent.Count(0);
    }
    return v;
  }

  /**
   * {@code spec.unhealthyPodEvictionPolicy}: the API's two values (k8s.io/api/policy/v1/types.go),
   * else its Unsupported value error. The twin holds an unready pod to its budget as a Ready one,
   * which is what the default IfHealthyBudget does while the budget is not healthy; AlwaysAllow,
   * which lets every unready pod go (Karpenter's pkg/utils/pdb/pdb.go isEvictable, the Eviction
   * API), is not modelled and says so.
   */
  private void unhealthyPodEvictionPolicy(Cursor c) {
    String v = c.asString();
    switch (v) {
      case "IfHealthyBudget" -> { }
      case "AlwaysAllow" -> c.warning("not modelled by gpufleet: an unready pod is held to this budget as a Ready "
          + "one is, where Karpenter and the Eviction API let it go");
      default -> c.error("Unsupported value: \"" + v + "\": supported values: \"AlwaysAllow\", \"IfHealthyBudget\"");
    }
  }

  /** {@code spec.strategy.type} of a Deployment: the API's two values, RollingUpdate when absent. */
  private Workload.Deployment.Strategy strategy(Cursor strategy) {
    Optional<Cursor> type = strategy.get("type");
    if (type.isEmpty()) {
      return Workload.Deployment.Strategy.ROLLING_UPDATE;
    }
    String v = type.get().asString();
    return switch (v) {
      case "RollingUpdate" -> Workload.Deployment.Strategy.ROLLING_UPDATE;
      case "Recreate" -> Workload.Deployment.Strategy.RECREATE;
      default -> {
        type.get().error("Unsupported value: \"" + v + "\": supported values: \"Recreate\", \"RollingUpdate\"");
        yield Workload.Deployment.Strategy.ROLLING_UPDATE;
      }
    };
  }

  public PodDisruptionBudget pdb(Cursor doc) {
    ObjectMeta meta = meta(doc, true);
    Cursor spec = doc.require("spec").orElse(doc);
    Optional<LabelSelector> selector = spec.get("selector").map(this::labelSelector);
    selector.ifPresent(sel -> validateSelector(doc, sel, "spec.selector"));
    Optional<IntOrPercent> min = spec.get("minAvailable").map(this::intOrPercent);
    Optional<IntOrPercent> max = spec.get("maxUnavailable").map(this::intOrPercent);
    if (min.isPresent() && max.isPresent()) {
      spec.error("minAvailable and maxUnavailable cannot be both set");
    }
    spec.get("unhealthyPodEvictionPolicy").ifPresent(this::unhealthyPodEvictionPolicy);
    return new PodDisruptionBudget(meta, selector, min, max);
  }
}
