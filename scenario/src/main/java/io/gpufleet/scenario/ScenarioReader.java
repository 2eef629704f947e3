package io.gpufleet.scenario;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.action.RemovalReason;
import io.gpufleet.autoscaler.disruption.DisruptionCommand;
import io.gpufleet.autoscaler.provisioning.DraProvisioning;
import io.gpufleet.cluster.ClusterAssembly;
import io.gpufleet.cluster.ClusterSettings;
import io.gpufleet.engine.deviceplugin.NodeGpus;
import io.gpufleet.engine.dra.GpuClaimPreparation;
import io.gpufleet.manifest.GpuCatalogFile;
import io.gpufleet.manifest.ManifestBundle;
import io.gpufleet.manifest.apiserver.Admission;
import io.gpufleet.manifest.apiserver.AdmissionPlugins;
import io.gpufleet.manifest.deviceplugin.DevicePluginManifests;
import io.gpufleet.manifest.karpenter.InstanceCatalogFile;
import io.gpufleet.manifest.karpenter.KarpenterManifests;
import io.gpufleet.manifest.kube.ComputeDomains;
import io.gpufleet.manifest.kube.DuplicateObjects;
import io.gpufleet.manifest.kube.JobSetDecoder;
import io.gpufleet.manifest.kube.KubeDecoder;
import io.gpufleet.manifest.kube.KubeObject;
import io.gpufleet.manifest.kube.OldKarpenterApi;
import io.gpufleet.manifest.kueue.KueueManifests;
import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.GoDuration;
import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YamlReader;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.karpenter.EC2NodeClass;
import io.gpufleet.model.karpenter.NodeOverlay;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.node.ContainerImage;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.QuantityFormatException;
import io.gpufleet.model.time.KubeDuration;
import io.gpufleet.model.wire.WireEnum;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.workload.JobSet;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.queue.api.KueueState;
import io.gpufleet.sim.KubeletConfig;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.scenario.ClusterObject;
import io.gpufleet.sim.scenario.Comparison;
import io.gpufleet.sim.scenario.Condition;
import io.gpufleet.sim.scenario.ConditionText;
import io.gpufleet.sim.scenario.DevicePlugin;
import io.gpufleet.sim.scenario.InterruptionNotice;
import io.gpufleet.sim.scenario.NodeRef;
import io.gpufleet.sim.scenario.Scenario;
import io.gpufleet.sim.scenario.ScenarioAction;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Reads a {@code gpufleet.io/v1alpha1 Scenario}: the cluster as real manifests (by file or written
 * in place), the device plugin's ConfigMap, the simulator's and Karpenter's settings, and a list of
 * steps, each a list of actions ({@code apply}, {@code label}, {@code unlabel}, {@code scale},
 * {@code delete}, {@code interrupt}, {@code wait}, {@code waitUntil}, {@code expect}). Every problem
 * in the scenario or the files it names is reported at file:line:column, all at once.
 */
public final class ScenarioReader {

  public static final String API_VERSION = "gpufleet.io/v1alpha1";

  private static final Set<String> SPEC_FIELDS = Set.of("description", "seed", "start", "catalog", "gpuCatalog",
      "capacityReservations", "apiServer", "cluster",
      "devicePlugin", "draDriver", "simulation", "autoscaler", "steps");
  private static final Set<String> STEP_FIELDS = Set.of("id", "title", "description", "explain", "actions");
  private static final Set<String> ACTIONS = Set.of("apply", "label", "unlabel", "scale", "delete", "interrupt",
      "insufficientCapacity", "expireReservation", "wait", "waitUntil", "expect", "show");

  private final ScenarioSources sources;
  private final Diagnostics diagnostics = new Diagnostics();
  private final YamlReader yaml = new YamlReader();
  private final KubeDecoder kube;
  /** Decoded objects with the text of the file each came from (ConfigMaps embed YAML). */
  private final List<Sourced> objects = new ArrayList<>();
  /**
   * The cluster's API server: its defaulting and admission (EKS's plugins), holding the PriorityClasses,
   * RuntimeClasses and Namespaces applied so far, as the steps apply them.
   */
  private Admission admission = new Admission();
  /** The scenario's instance catalogue, which capacity errors name their instance types from. */
  private InstanceCatalog catalog = InstanceCatalog.builtIn();
  /** The ids of {@code spec.capacityReservations}, which {@code expireReservation} names. */
  private final Set<String> reservationIds = new java.util.TreeSet<>();
  /** The scenario's GPU catalogue: the built-in one, with {@code spec.gpuCatalog}'s models over it. */
  private GpuCatalog gpuCatalog = GpuCatalog.builtIn();
  /**
   * Whether any NodePool was read, whether one leaves its nodes' GPUs to NVIDIA's DRA driver, and
   * where pods with ResourceClaims were (see warnDraUnsized).
   */
  private boolean autoscaled;
  /** The device plugins that Bottlerocket node classes bring, in the order the classes are read. */
  private final List<NamedConfigs.OsPlugin> osPlugins = new ArrayList<>();
  private boolean draNodePool;
  private final List<Location> draUses = new ArrayList<>();
  /** Whether an expectation counts DisruptionConsidered entries: then decisions are explained, as with --explain. */
  private boolean countsDecisions;

  private record Sourced(KubeObject object, String text) {}

  /** The run's start ({@code spec.start}): the "now" of a dump's start times where it records no import time. */
  private Instant start = Scenario.DEFAULT_START;

  private ScenarioReader(ScenarioSources sources, boolean strict) {
    this.sources = sources;
    this.kube = new KubeDecoder(diagnostics, strict);
  }

  /** Reads a scenario; throws {@link ManifestException} with every error found. */
  public static ScenarioFile read(String file, String text, ScenarioSources sources) {
    return read(file, text, sources, false);
  }

  /**
   * Reads a scenario; with {@code strict}, unknown fields in its Kubernetes objects are errors
   * ({@code kubectl --validate=strict}) rather than warnings.
   */
  public static ScenarioFile read(String file, String text, ScenarioSources sources, boolean strict) {
    return new ScenarioReader(sources, strict).decode(file, text);
  }

  /**
   * What a file that is not one Scenario holds, by the kinds of its documents: a file of manifests
   * (shared by scenarios through {@code spec.cluster}) is named as such, with where it belongs.
   */
  static String notOneScenario(List<YNode> docs) {
    if (docs.isEmpty()) {
      return "expected one Scenario document, found no document";
    }
    List<String> kinds = new ArrayList<>();
    for (YNode d : docs) {
      String kind = d instanceof YNode.YMap m && m.entries().get("kind") != null
          && m.entries().get("kind").value() instanceof YNode.YScalar k ? k.text() : "(no kind)";
      kinds.add(kind);
    }
    long scenarios = kinds.stream().filter("Scenario"::equals).count();
    String found = "found " + docs.size() + " documents (" + String.join(", ", kinds) + ")";
    if (scenarios == 0) {
      return "expected one Scenario document, " + found + " and no Scenario: a file of manifests; give it with -f, "
          + "or list it under a scenario's spec.cluster (- file: PATH)";
    }
    return "expected one Scenario document, " + found + ": give each Scenario its own file";
  }

  private ScenarioFile decode(String file, String text) {
    List<YNode> docs = yaml.readAll(file, text);
    if (docs.size() != 1) {
      throw new ManifestException(ManifestProblem.error(Location.unknown(file), "", notOneScenario(docs)));
    }
    Cursor doc = Cursor.root(docs.getFirst(), diagnostics);
    // Another kind of object (a Pod, a kind: List) is one error at its kind, not a line for each of
    // its fields that a Scenario has not.
    String foundKind = doc.optString("kind").orElse("");
    String foundVersion = doc.optString("apiVersion").orElse("");
    if (!foundKind.isEmpty() && !foundKind.equals("Scenario")) {
      doc.get("kind").orElse(doc).error("expected a Scenario (" + API_VERSION + "), found " + foundVersion
          + (foundVersion.isEmpty() ? "" : " ") + foundKind);
      diagnostics.throwIfErrors();
    }
    doc.checkKnown(Set.of("apiVersion", "kind", "metadata", "spec"), true);
    String apiVersion = doc.requiredString("apiVersion");
    if (!apiVersion.isEmpty() && !apiVersion.equals(API_VERSION)) {
      doc.get("apiVersion").ifPresent(c -> c.error("expected " + API_VERSION + ", found \"" + apiVersion + "\""));
    }
    String kind = doc.requiredString("kind");
    if (!kind.isEmpty() && !kind.equals("Scenario")) {
      doc.get("kind").ifPresent(c -> c.error("expected Scenario, found \"" + kind + "\""));
    }
    String name = doc.get("metadata").map(m -> m.requiredString("name")).orElse("scenario");
    Cursor spec = doc.require("spec").orElse(doc);
    spec.checkKnown(SPEC_FIELDS, true);

    Scenario.Builder b = Scenario.builder(name);
    spec.optLong("seed").ifPresent(b::seed);
    spec.get("start").ifPresent(c -> {
      String s = c.asString();
      try {
        start = Instant.parse(s);
        b.start(start);
      } catch (DateTimeParseException e) {
        c.error("expected an RFC 3339 time such as 2026-01-05T09:00:00Z, found \"" + s + "\"");
      }
    });
    spec.get("catalog").ifPresent(c -> {
      catalog = catalog(c);
      b.catalog(catalog);
    });

    spec.get("capacityReservations").ifPresent(c -> {
      for (var r : CapacityReservationReader.read(c, catalog)) {
        b.reservation(r);
        reservationIds.add(r.id());
      }
    });
    spec.get("gpuCatalog").ifPresent(c -> gpuCatalog = gpuCatalog(c));
    spec.get("apiServer").ifPresent(c -> admission = new Admission(admissionPlugins(c)));

    DuplicateObjects clusterNames = new DuplicateObjects(diagnostics);
    for (Cursor entry : spec.list("cluster")) {
      collect(entry, text, clusterNames);
    }
    List<ClusterObject> initial = clusterObjects(objects, true);
    assembled();
    b.objects(initial);
    NamedConfigs configs = deviceConfigs(spec.get("devicePlugin"));
    gpuCatalog = withNodesCards(gpuCatalog);
    MigPartedConfig migParted = migPartedConfigs();
    SimulationSettings settings = spec.get("simulation").map(c -> simulation(c, nodeClassesOf(initial)))
        .orElse(SimulationSettings.DEFAULTS);
    SimulationSettings withGates = spec.get("draDriver").map(c -> settings.withDraDriver(draDriver(c)))
        .orElse(settings);
    b.settings(withGates);
    spec.get("autoscaler").ifPresent(c -> b.autoscaler(autoscaler(c)));

    List<Step> steps = new ArrayList<>();
    int actionIndex = 0;
    for (Cursor s : spec.list("steps")) {
      s.checkKnown(STEP_FIELDS, true);
      List<ScenarioAction> actions = new ArrayList<>();
      List<String> shows = new ArrayList<>();
      for (Cursor a : s.list("actions")) {
        action(a, text).ifPresent(x -> {
          actions.add(x);
          if (x instanceof ScenarioAction.Checkpoint c) {
            shows.add(c.label());
          }
        });
      }
      Step step = new Step(s.string("id", ""), s.requiredString("title"), s.string("description", ""),
          s.string("explain", ""), actionIndex, actions.size() + 1, shows);
      // Each step ends in a checkpoint: the cluster as the step leaves it, for reports.
      actions.add(new ScenarioAction.Checkpoint(step.heading()));
      actions.forEach(b::then);
      steps.add(step);
      actionIndex += actions.size();
    }
    // After the steps: a node class applied by a step brings its OS's device plugin too.
    b.devicePlugin(devicePlugin(spec.get("devicePlugin"), configs.withOsPlugins(osPlugins), migParted));
    if (countsDecisions) { // what such an expectation counts exists only when decisions are explained
      b.settings(withGates.withExplainDecisions(true));
    }
    warnDraUnsized(b.build().autoscaler());
    refuseUnreadNodePools();
    diagnostics.throwIfErrors();
    String description = spec.string("description", "");
    // The namespaces of every step, from the start: the twin's scheduler reads one set of namespace labels.
    return new ScenarioFile(b.build().withNamespaces(admission.namespaces()), description, steps,
        diagnostics.warnings());
  }

  /**
   * A dump's {@code status.startTime} on the run's clock: the dump's time (its import time, else the
   * run's start) is the run's start, so the object started as long before the run's start as it did
   * before the dump. One after the dump's time (clocks apart) is taken as started then, with a
   * warning. Objects a step applies later have no dump time to measure from: none.
   */
  private Optional<Instant> onRunClock(Optional<KubeObject.StartTime> started, boolean initial) {
    if (started.isEmpty() || !initial) {
      return Optional.empty();
    }
    KubeObject.StartTime t = started.get();
    Instant now = t.snapshot().orElse(start);
    if (t.at().isAfter(now)) {
      diagnostics.warning(t.location(), "status.startTime", t.at() + " is after the "
          + (t.snapshot().isPresent() ? "snapshot's import time " : "run's start ") + now
          + "; taken as started then");
      return Optional.of(start);
    }
    return Optional.of(start.minus(Duration.between(t.at(), now)));
  }

  /**
   * A NodePool or Provisioner at an API version before {@code v1} is skipped with a warning by every
   * command; a simulation refuses it, since without it the run would have no autoscaler for the pods
   * it was written for and would quietly leave them Pending (docs/eks.md).
   */
  private void refuseUnreadNodePools() {
    for (OldKarpenterApi.Unread u : kube.unreadKarpenter()) {
      if (u.api().provisions()) {
        diagnostics.error(u.location(), "apiVersion", "a simulation does not run without its " + u.api().kind()
            + "s, which would leave their pods Pending with no autoscaler: " + u.api().message(u.name()));
      }
    }
  }

  // ---- manifests ----

  /** A manifest entry's objects (see {@link ScenarioManifests#entry}), with the text each came from. */
  private void collect(Cursor entry, String scenarioText, DuplicateObjects names) {
    for (ScenarioManifests.Part part : ScenarioManifests.entry(entry, scenarioText, sources, yaml)) {
      names.check(part.docs());
      for (KubeObject o : kube.decodeAll(part.docs())) {
        if (o instanceof KubeObject.OtherObject other && JobSetDecoder.isJobSet(other)) {
          jobSetJobs(other).forEach(job -> objects.add(new Sourced(job, part.text())));
        } else {
          objects.add(new Sourced(o, part.text()));
        }
      }
    }
  }

  /**
   * A JobSet's child Jobs, made as its controller makes them on its first reconcile ({@link JobSet#childJobs});
   * the Job controller runs them as any Job. A suspended JobSet's Jobs are created suspended and nothing
   * in the simulation resumes them. The simulation keeps no JobSet object, so the JobSet's Kueue labels
   * (queue and WorkloadPriorityClass) ride on its Jobs' annotations, where Kueue's JobSet integration
   * reads them (the Jobs' labels stay as the JobSet controller writes them, so Kueue's Job integration
   * does not take them).
   */
  private List<KubeObject> jobSetJobs(KubeObject.OtherObject o) {
    JobSetDecoder.Decoded d = JobSetDecoder.decode(kube, o);
    JobSet js = d.jobSet();
    if (js.suspend()) {
      diagnostics.warning(o.location(), "spec.suspend", "JobSet \"" + js.name()
          + "\" is suspended and nothing in the simulation resumes it; its Jobs are not run");
      return List.of();
    }
    Labels kueue = Labels.EMPTY;
    for (String k : List.of(KueueManifests.QUEUE_LABEL, KueueManifests.PRIORITY_CLASS_LABEL)) {
      Optional<String> v = js.meta().labels().get(k);
      if (v.isPresent()) {
        kueue = kueue.with(k, v.get());
      }
    }
    List<KubeObject> out = new ArrayList<>();
    for (KubeObject.WorkloadObject w : d.jobs()) {
      Workload.Job job = (Workload.Job) w.workload();
      out.add(new KubeObject.WorkloadObject(new Workload.Job(job.meta().withAnnotations(job.meta().annotations()
          .withAll(kueue)), job.parallelism(), job.completions(), job.selector(), job.template(), job.runFor()),
          w.location(), w.written(), w.started()));
    }
    return out;
  }

  /**
   * Cluster objects from decoded manifests, defaulted and admitted as the API server admits them
   * ({@link Admission}: pods get the priority of their PriorityClass, among the built-in classes and
   * those applied so far, their default tolerations, their RuntimeClass's overhead). NodePools
   * are decoded here; ConfigMaps and node classes are consumed elsewhere.
   */
  private List<ClusterObject> clusterObjects(List<Sourced> sourced, boolean initial) {
    List<ClusterObject> out = new ArrayList<>();
    List<KubeObject> decoded = admission.admit(sourced.stream().map(Sourced::object).toList(), diagnostics);
    KarpenterManifests karpenter = KarpenterManifests.of(decoded, diagnostics);
    autoscaled |= !karpenter.nodePools().isEmpty();
    for (NodePool p : karpenter.nodePools()) {
      draNodePool |= DraProvisioning.runsDraDriver(p.template().labels());
      out.add(ClusterObject.of(p));
    }
    for (NodeOverlay o : karpenter.nodeOverlays()) {
      out.add(ClusterObject.of(o));
    }
    for (EC2NodeClass c : karpenter.ec2NodeClasses()) {
      out.add(new ClusterObject.NodeClassObject(c));
      c.devicePlugin().ifPresent(config -> osPlugins.add(KarpenterManifests.osPlugin(c.name(), config)));
    }
    // Kueue's objects: with a ClusterQueue, the simulated Kueue suspends Jobs that name a queue.
    KueueState kueue = KueueManifests.of(decoded, Set.of(), diagnostics, Instant.EPOCH);
    // Kueue's manager Configuration (waitForPodsReady, fairSharing) comes in it; without one, Kueue's defaults.
    Optional<KubeObject> kueueConfig = KueueManifests.configurationObject(decoded);
    if (!kueue.clusterQueues().isEmpty() || !kueue.localQueues().isEmpty() || !kueue.flavors().isEmpty()
        || !kueue.cohorts().isEmpty()) {
      out.add(new ClusterObject.KueueObjects(kueue));
    } else if (kueueConfig.isPresent()) {
      diagnostics.warning(kueueConfig.get().location(), "",
          "a Kueue Configuration without ClusterQueues, LocalQueues or ResourceFlavors: Kueue does not run; ignored");
    }
    NodeClaims claims = NodeClaims.of(karpenter.others(), diagnostics);
    Map<ObjectRef, List<Duration>> ran = completedRuns(karpenter.others());
    for (KubeObject o : karpenter.others()) {
      if (claims.isClaim(o)) {
        continue;
      }
      switch (o) {
        case KubeObject.NodeObject n -> out.add(new ClusterObject.NodeObject(withRunningImages(n.node(), decoded),
            claims.of(n)));
        case KubeObject.PodObject p -> {
          // A finished pod (Succeeded, Failed) of a dump holds nothing and does not run again. A pod that
          // names its node and has claims is admitted as upstream's kubelet admits it; it starts only on
          // claims a recorded status reserves for it (KubeScheduler, Kubelet).
          if (!p.finished()) {
            if (!p.pod().spec().resourceClaims().isEmpty()) {
              draUses.add(p.location());
            }
            out.add(new ClusterObject.PodObject(p.pod(),
                p.phase().equals(Optional.of(KubeObject.PodObject.Phase.RUNNING)), onRunClock(p.started(), initial)));
          } else if (p.phase().orElseThrow() == KubeObject.PodObject.Phase.SUCCEEDED) {
            out.add(new ClusterObject.SucceededPodObject(p.pod()));
          }
        }
        case KubeObject.WorkloadObject w -> {
          if (!w.workload().template().spec().resourceClaims().isEmpty()) {
            draUses.add(w.location());
          }
          out.add(new ClusterObject.WorkloadObject(withRunFromHistory(w, ran), onRunClock(w.started(), initial)));
        }
        case KubeObject.ResourceObject r -> out.add(new ClusterObject.DraObjectValue(r.value()));
        case KubeObject.PdbObject p -> out.add(ClusterObject.of(p.pdb()));
        case KubeObject.ConfigMapObject cm -> {
          if (!initial || DevicePluginManifests.kind(cm) == DevicePluginManifests.Kind.OTHER) {
            diagnostics.warning(cm.location(), "", "ConfigMap \"" + cm.name() + "\" is not used by the simulation"
                + (initial ? "" : " (device-plugin configs are read once, from spec.cluster)"));
          }
        }
        case KubeObject.PriorityClassObject pc -> { }
        case KubeObject.NamespaceObject ns -> { } // admission keeps their labels
        case KubeObject.RuntimeClassObject rc -> { } // admission applies them to pods
        case KubeObject.OtherObject other when KueueManifests.isKueue(other.apiVersion()) -> { }
        case KubeObject.OtherObject other -> diagnostics.warning(other.location(), "", ComputeDomains.warning(other)
            .orElse(other.apiVersion() + " " + other.kind() + " \"" + other.name() + "\" is not simulated; skipped"));
      }
    }
    return out;
  }

  /**
   * The scenario's cluster as every command assembles it ({@link ClusterAssembly}): what it says of
   * the nodes (a node's report that the config selected for it would not advertise, a card the
   * catalogue lacks) is said here too, once. The simulator registers the initial nodes as the
   * assembly does ({@code GpuOperator#registerObserved}); a node whose cards do not resolve runs
   * with the GPUs its capacity advertises, so for the scenario that is a warning.
   */
  private void assembled() {
    Map<String, String> texts = new LinkedHashMap<>();
    for (Sourced s : objects) {
      texts.putIfAbsent(s.object().location().file(), s.text());
    }
    ManifestBundle bundle = ManifestBundle.ofDecoded(objects.stream().map(Sourced::object).toList(), texts);
    try {
      ClusterAssembly.assemble(bundle, ClusterSettings.defaults().withGpus(gpuCatalog).withInstances(catalog)).warnings()
          .forEach(diagnostics::add);
    } catch (ManifestException e) {
      e.problems().forEach(p -> diagnostics.warning(p.location(), p.path(), p.message()
          + "; the simulator takes the node's GPUs from its capacity"));
    }
  }

  /**
   * A node of a dump already holds the images of the pods it runs (status.phase Running): their
   * containers were started from them, so the twin's kubelet does not pull them again and those
   * pods are Ready from the start, as the cluster has them. An image the node's status.images does
   * not list is added with size 0, since the pod does not say its size: ImageLocality, which weighs
   * sizes, then scores the node as if it lacked it, as it would without the dump.
   */
  private static Node withRunningImages(Node node, List<KubeObject> objects) {
    List<ContainerImage> images = new ArrayList<>(node.images());
    Set<String> added = new TreeSet<>();
    for (KubeObject o : objects) {
      if (o instanceof KubeObject.PodObject p && p.phase().equals(Optional.of(KubeObject.PodObject.Phase.RUNNING))
          && p.pod().spec().nodeName().equals(Optional.of(node.name()))) {
        for (String image : p.pod().spec().images()) {
          if (node.image(image).isEmpty()) {
            added.add(image);
          }
        }
      }
    }
    for (String image : added) {
      String normalized = ContainerImage.normalizedName(image);
      images.add(new ContainerImage(
          image.equals(normalized) ? List.of(image) : List.of(image, normalized), 0));
    }
    return added.isEmpty() ? node : node.withImages(images);
  }

  /**
   * Pods with ResourceClaims under the autoscaler's DRA-aware sizing (draRequests: allocate) where no
   * NodePool leaves its nodes' GPUs to NVIDIA's DRA driver: nothing launched could hold their claims,
   * which the run would show only as pods waiting, so the file says it at once.
   */
  private void warnDraUnsized(AutoscalerSettings settings) {
    if (autoscaled && !draNodePool && settings.draRequests() == AutoscalerSettings.DraRequests.ALLOCATE) {
      for (Location at : draUses) {
        diagnostics.warning(at, "", "pods with spec.resourceClaims under spec.autoscaler.draRequests: allocate, "
            + "but no NodePool leaves its nodes' GPUs to NVIDIA's DRA driver (template label "
            + "nvidia.com/gpu.deploy.device-plugin: \"false\"): nodes launched here run the device plugin and "
            + "publish no devices for their claims");
      }
    }
  }

  /**
   * {@code draDriver.featureGates}: the gates of NVIDIA's DRA driver (its chart's {@code featureGates}
   * value) that the twin models, TimeSlicingSettings, MPSSupport and DynamicMIG, all off by default as upstream's
   * {@code pkg/featuregates} has them. Other gates are errors, so none is silently ignored.
   */
  private GpuClaimPreparation.FeatureGates draDriver(Cursor c) {
    c.checkKnown(Set.of("featureGates"), true);
    var gates = GpuClaimPreparation.FeatureGates.DEFAULTS;
    Optional<Cursor> written = c.get("featureGates");
    if (written.isPresent()) {
      for (var e : written.get().entries().entrySet()) {
        var next = gates.with(e.getKey(), e.getValue().asBoolean());
        if (next.isEmpty()) {
          e.getValue().error("not modelled by gpufleet: DRA driver feature gate \"" + e.getKey() + "\"; the twin "
              + "models " + String.join(", ", GpuClaimPreparation.FeatureGates.NAMES));
        }
        gates = next.orElse(gates);
      }
    }
    return gates;
  }

  private InstanceCatalog catalog(Cursor c) {
    String path = c.asString();
    if (path.equals("builtin")) {
      return InstanceCatalog.builtIn();
    }
    String text = sources.read(path, c.location());
    return InstanceCatalogFile.read(sources.name(path), text).applyToBuiltIn();
  }

  /**
   * {@code spec.apiServer}: kube-apiserver's {@code enableAdmissionPlugins} and
   * {@code disableAdmissionPlugins} over EKS's set, as its two flags change the default set.
   */
  private AdmissionPlugins admissionPlugins(Cursor c) {
    c.checkKnown(Set.of("enableAdmissionPlugins", "disableAdmissionPlugins"), true);
    List<String> enable = c.list("enableAdmissionPlugins").stream().map(Cursor::asString).toList();
    List<String> disable = c.list("disableAdmissionPlugins").stream().map(Cursor::asString).toList();
    try {
      return AdmissionPlugins.defaults().changed(enable, disable);
    } catch (IllegalArgumentException e) {
      c.error(e.getMessage());
      return AdmissionPlugins.defaults();
    }
  }

  private GpuCatalog gpuCatalog(Cursor c) {
    String path = c.asString();
    if (path.equals("builtin")) {
      return GpuCatalog.builtIn();
    }
    return GpuCatalogFile.overBuiltIn(sources.name(path), sources.read(path, c.location()));
  }

  /**
   * The catalogue with the cards the cluster's nodes report that it lacks, read from their labels as
   * {@code smi} and {@code node describe} read them ({@link NodeGpus}; the cluster assembly says each
   * warning, at the node's field): so the simulator's GPU Operator models such a card, and GFD's labels on it (which
   * pods select) survive its registration, as they do in those commands.
   */
  private GpuCatalog withNodesCards(GpuCatalog base) {
    Map<String, GpuModel> found = new LinkedHashMap<>();
    for (Sourced s : objects) {
      if (s.object() instanceof KubeObject.NodeObject n
          && NodeGpus.of(n.node(), base, catalog.instanceTypeGpus()) instanceof NodeGpus.Found.Gpus g) {
        GpuModel m = g.inventory().model();
        if (base.byId(m.id()).isEmpty()) {
          found.putIfAbsent(m.id(), m);
        }
      }
    }
    return found.isEmpty() ? base : base.with(GpuCatalog.of(found.values()));
  }

  // ---- device plugin ----

  private NamedConfigs deviceConfigs(Optional<Cursor> section) {
    NamedConfigs configs = NamedConfigs.NONE;
    Diagnostics d = diagnostics;
    Optional<String> wanted = section.flatMap(s -> s.optString("configMap"));
    for (Sourced s : objects) {
      if (s.object() instanceof KubeObject.ConfigMapObject cm
          && DevicePluginManifests.kind(cm) == DevicePluginManifests.Kind.DEVICE_PLUGIN
          && (wanted.isEmpty() || wanted.get().equals(cm.meta().namespace() + "/" + cm.name())
              || wanted.get().equals(cm.name()))) {
        configs = DevicePluginManifests.namedConfigs(cm, s.text(), d);
      }
    }
    if (wanted.isPresent() && configs == NamedConfigs.NONE) {
      section.get().get("configMap").ifPresent(c -> c.error("no device-plugin ConfigMap \"" + wanted.get()
          + "\" among spec.cluster's manifests"));
    }
    return configs;
  }

  /**
   * The MIG manager's custom configs: the mig-parted ConfigMap among spec.cluster's manifests (as
   * the GPU Operator's {@code migManager.config.name} names one), read as {@code node describe} reads it.
   */
  private MigPartedConfig migPartedConfigs() {
    MigPartedConfig configs = MigPartedConfig.of(Map.of());
    for (Sourced s : objects) {
      if (s.object() instanceof KubeObject.ConfigMapObject cm
          && DevicePluginManifests.kind(cm) == DevicePluginManifests.Kind.MIG_PARTED) {
        configs = DevicePluginManifests.migParted(cm, s.text(), diagnostics);
      }
    }
    return configs;
  }

  private DevicePlugin devicePlugin(Optional<Cursor> section, NamedConfigs configs, MigPartedConfig migParted) {
    DevicePlugin plugin = DevicePluginWiring.of(configs, migParted, gpuCatalog);
    if (section.isEmpty()) {
      return plugin;
    }
    Cursor s = section.get();
    s.checkKnown(Set.of("configMap", "registrationDelay", "neverRegistersOn", "daemonSet", "migReconfiguration"),
        true);
    Optional<Duration> delay = duration(s, "registrationDelay");
    if (delay.isPresent()) {
      plugin = plugin.withRegistrationDelay(delay.get());
    }
    Optional<Cursor> ds = s.get("daemonSet");
    if (ds.isPresent()) {
      String v = ds.get().asString();
      if (v.split("/", -1).length != 2 || v.startsWith("/") || v.endsWith("/")) {
        ds.get().error("expected namespace/name of the plugin's DaemonSet, found \"" + v + "\"");
      } else {
        plugin = plugin.inDaemonSet(v.substring(0, v.indexOf('/')), v.substring(v.indexOf('/') + 1));
      }
    }
    Optional<Duration> mig = duration(s, "migReconfiguration");
    if (mig.isPresent()) {
      plugin = plugin.withMigReconfiguration(mig.get());
    }
    Optional<Cursor> never = s.get("neverRegistersOn");
    if (never.isPresent()) {
      plugin = plugin.neverRegisteringOn(kube.labelSelector(never.get()));
    }
    return plugin;
  }

  // ---- settings ----

  /** The node classes the starting NodePools refer to. */
  private static Set<String> nodeClassesOf(List<ClusterObject> objects) {
    Set<String> out = new TreeSet<>();
    for (ClusterObject o : objects) {
      if (o instanceof ClusterObject.NodePoolObject p) {
        out.add(p.nodePool().template().nodeClassRef().name());
      }
    }
    return out;
  }

  /** An image's size as a quantity of bytes ({@code 9Gi}, {@code 9e9}), as a node's status would report it. */
  private static Optional<Long> imageSize(Cursor c) {
    String text = c.asString();
    try {
      Quantity q = Quantity.parse(text);
      if (q.signum() < 0) {
        c.error("expected a non-negative size such as 9Gi, found \"" + text + "\"");
        return Optional.empty();
      }
      return Optional.of(q.value());
    } catch (QuantityFormatException e) {
      c.error("expected a size such as 9Gi, found \"" + text + "\": " + e.getMessage());
      return Optional.empty();
    }
  }

  private SimulationSettings simulation(Cursor c, Set<String> nodeClasses) {
    c.checkKnown(Set.of("launchToRegistration", "registrationToReady", "startupTaintRemoval", "defaultImagePull",
        "imagePulls", "imageSizes", "containerStart", "readiness", "spotInterruptionsPerHour", "invariants", "horizon", "kubelet"),
        true);
    SimulationSettings d = SimulationSettings.DEFAULTS;
    Map<String, Duration> pulls = new LinkedHashMap<>(d.imagePulls());
    for (var e : c.get("imagePulls").map(Cursor::entries).orElse(Map.of()).entrySet()) {
      durationOf(e.getValue()).ifPresent(v -> pulls.put(e.getKey(), v));
    }
    Map<String, Long> sizes = new LinkedHashMap<>(d.imageSizes());
    for (var e : c.get("imageSizes").map(Cursor::entries).orElse(Map.of()).entrySet()) {
      imageSize(e.getValue()).ifPresent(v -> sizes.put(e.getKey(), v));
    }
    double rate = c.get("spotInterruptionsPerHour").map(x -> number(x)).orElse(d.spotInterruptionsPerHour());
    SimulationSettings.InvariantMode mode = d.invariants();
    Optional<Cursor> inv = c.get("invariants");
    if (inv.isPresent()) {
      String v = inv.get().asString();
      switch (v) {
        case "full" -> mode = SimulationSettings.InvariantMode.FULL;
        case "incremental" -> mode = SimulationSettings.InvariantMode.INCREMENTAL;
        case "off" -> mode = SimulationSettings.InvariantMode.OFF;
        default -> inv.get().error("expected full, incremental or off, found \"" + v + "\"");
      }
    }
    return new SimulationSettings(
        duration(c, "launchToRegistration").orElse(d.launchToRegistration()),
        duration(c, "registrationToReady").orElse(d.registrationToReady()),
        duration(c, "startupTaintRemoval").orElse(d.startupTaintRemoval()),
        duration(c, "defaultImagePull").orElse(d.defaultImagePull()),
        pulls,
        sizes,
        duration(c, "containerStart").orElse(d.containerStart()),
        duration(c, "readiness").orElse(d.readiness()),
        d.interruptionNoticeDelay(),
        d.spotReclaimAfterWarning(),
        rate, mode, d.recordEvents(),
        duration(c, "horizon").orElse(d.horizon()),
        c.get("kubelet").map(k -> kubelets(k, nodeClasses)).orElse(d.kubelets()),
        d.draDriver(), d.explainDecisions());
  }

  /**
   * {@code simulation.kubelet}: the image-pull settings of every node, and per EC2NodeClass under
   * {@code nodeClasses}; what a level leaves out comes from the level above, and at the top from the
   * EKS-optimized AMIs (parallel, unbounded pulls).
   */
  private KubeletConfig.PerNodeClass kubelets(Cursor c, Set<String> known) {
    c.checkKnown(Set.of("serializeImagePulls", "maxParallelImagePulls", "nodeClasses"), true);
    KubeletConfig top = kubelet(c, KubeletConfig.EKS_AMI);
    Map<String, KubeletConfig> classes = new LinkedHashMap<>();
    for (var e : c.get("nodeClasses").map(Cursor::entries).orElse(Map.of()).entrySet()) {
      e.getValue().checkKnown(Set.of("serializeImagePulls", "maxParallelImagePulls"), true);
      if (!known.contains(e.getKey())) {
        e.getValue().warning("no NodePool in spec.cluster refers to a node class \"" + e.getKey()
            + "\" (known: " + String.join(", ", known) + "); these kubelet settings apply only to NodePools applied later "
            + "that name it");
      }
      classes.put(e.getKey(), kubelet(e.getValue(), top));
    }
    return new KubeletConfig.PerNodeClass(top, classes);
  }

  private static KubeletConfig kubelet(Cursor c, KubeletConfig inherited) {
    boolean serialize = c.optBool("serializeImagePulls").orElse(inherited.serializeImagePulls());
    OptionalInt max = c.optInt("maxParallelImagePulls");
    if (max.isPresent() && max.getAsInt() < 1) {
      c.get("maxParallelImagePulls").get().error("expected a positive number of pulls, found " + max.getAsInt());
      return inherited;
    }
    if (max.isEmpty()) {
      max = serialize ? OptionalInt.empty() : inherited.maxParallelImagePulls();
    }
    if (serialize && max.orElse(1) > 1) {
      // The kubelet's own validation (KubeletConfiguration) refuses this pair.
      c.get("maxParallelImagePulls").orElse(c).error("maxParallelImagePulls " + max.getAsInt()
          + " needs serializeImagePulls: false; the kubelet refuses more than 1 parallel pull with serialized pulls");
      return inherited;
    }
    return new KubeletConfig(serialize, max);
  }

  /**
   * Karpenter's feature gates ({@code FEATURE_GATES}) with their defaults
   * ({@code K:pkg/operator/options/options.go}). The twin models two; the others may only be
   * written with their default value, since the twin behaves as Karpenter does with them so.
   */
  private static final Map<String, Boolean> FEATURE_GATES = featureGateDefaults();

  private static Map<String, Boolean> featureGateDefaults() {
    Map<String, Boolean> m = new LinkedHashMap<>();
    m.put("NodeRepair", false);
    m.put("ReservedCapacity", true);
    m.put("SpotToSpotConsolidation", false);
    m.put("NodeOverlay", false);
    m.put("StaticCapacity", false);
    m.put("CapacityBuffer", false);
    return Collections.unmodifiableMap(m);
  }

  private static final Set<String> MODELLED_GATES = Set.of("SpotToSpotConsolidation", "NodeOverlay");

  /**
   * {@code spec.autoscaler}: Karpenter's operator settings (the batch window, the feature gates)
   * and gpufleet's own (sizing, initializationTimeout, draRequests), the one place a scenario sets them.
   */
  private AutoscalerSettings autoscaler(Cursor c) {
    for (String moved : List.of("spotToSpotConsolidation", "nodeOverlay")) {
      c.get(moved).ifPresent(x -> x.error("Karpenter's feature gates are written under featureGates, as "
          + "FEATURE_GATES names them: featureGates: {" + Character.toUpperCase(moved.charAt(0)) + moved.substring(1)
          + ": " + (x.node() instanceof YNode.YScalar v ? v.text() : "true") + "}"));
    }
    c.checkKnown(Set.of("sizing", "initializationTimeout", "batchIdleDuration", "batchMaxDuration", "featureGates",
        "spotToSpotConsolidation", "nodeOverlay", "draRequests", "ignoreDRARequests"), true);
    AutoscalerSettings a = AutoscalerSettings.DEFAULTS;
    Optional<Cursor> sizing = c.get("sizing");
    if (sizing.isPresent()) {
      String v = sizing.get().asString();
      switch (v) {
        case "physical" -> a = a.withSizing(AutoscalerSettings.GpuSizing.PHYSICAL);
        case "advertised" -> a = a.withSizing(AutoscalerSettings.GpuSizing.ADVERTISED);
        default -> sizing.get().error("expected physical (as Karpenter) or advertised (gpufleet), found \"" + v
            + "\"");
      }
    }
    // Karpenter's --ignore-dra-requests (IGNORE_DRA_REQUESTS, default true, K:pkg/operator/options/options.go).
    Optional<Cursor> flag = c.get("ignoreDRARequests");
    Optional<Cursor> dra = c.get("draRequests");
    if (flag.isPresent() && dra.isPresent()) {
      flag.get().error("set either ignoreDRARequests (Karpenter's --ignore-dra-requests) or draRequests: allocate "
          + "(gpufleet's DRA-aware sizing, an extension), not both");
    } else if (flag.isPresent()) {
      a = a.withDraRequests(flag.get().asBoolean() ? AutoscalerSettings.DraRequests.IGNORE
          : AutoscalerSettings.DraRequests.KARPENTER);
    }
    if (dra.isPresent() && flag.isEmpty()) {
      String v = dra.get().asString();
      switch (v) {
        case "ignore" -> a = a.withDraRequests(AutoscalerSettings.DraRequests.IGNORE);
        case "allocate" -> a = a.withDraRequests(AutoscalerSettings.DraRequests.ALLOCATE);
        default -> dra.get().error("expected ignore (as Karpenter) or allocate (gpufleet), found \"" + v + "\"");
      }
    }
    Optional<Duration> init = duration(c, "initializationTimeout");
    if (init.isPresent()) {
      a = a.withInitializationTimeout(init);
    }
    a = a.withBatchWindow(duration(c, "batchIdleDuration").orElse(a.batchIdle()),
        duration(c, "batchMaxDuration").orElse(a.batchMax()));
    for (var e : c.get("featureGates").map(Cursor::entries).orElse(Map.of()).entrySet()) {
      String gate = e.getKey();
      if (!FEATURE_GATES.containsKey(gate)) {
        // Karpenter itself ignores a gate it does not know; a misspelt gate here would silently do nothing.
        e.getValue().error("unknown feature gate \"" + gate + "\"; Karpenter's are " + String.join(", ",
            FEATURE_GATES.keySet()));
        continue;
      }
      boolean on = e.getValue().asBoolean();
      switch (gate) {
        case "SpotToSpotConsolidation" -> a = a.withSpotToSpotConsolidation(on);
        case "NodeOverlay" -> a = a.withNodeOverlay(on);
        case "ReservedCapacity" -> {
          if (!on) {
            e.getValue().error("gpufleet models capacity reservations with the feature gate ReservedCapacity on, its "
                + "default; ReservedCapacity=false is not modelled");
          }
        }
        default -> {
          if (on != FEATURE_GATES.get(gate)) {
            e.getValue().error("the feature gate " + gate + " is not modelled by gpufleet, which behaves as Karpenter "
                + "does with its default (" + gate + "=" + FEATURE_GATES.get(gate) + "); modelled: "
                + String.join(", ", MODELLED_GATES.stream().sorted().toList()));
          }
        }
      }
    }
    return a;
  }

  private static double number(Cursor c) {
    if (c.node() instanceof YNode.YScalar s
        && (s.type() == YNode.YScalar.Type.INTEGER || s.type() == YNode.YScalar.Type.FLOAT)) {
      double v = Double.parseDouble(s.text());
      if (v < 0) {
        c.error("expected a non-negative number, found " + s.text());
      }
      return Math.max(0, v);
    }
    c.expected("a number");
    return 0;
  }

  private static Optional<Duration> duration(Cursor parent, String key) {
    return parent.get(key).flatMap(ScenarioReader::durationOf);
  }

  private static Optional<Duration> durationOf(Cursor c) {
    String s = c.asString();
    Duration d = GoDuration.parse(s);
    if (d == null) {
      c.error("expected a duration such as 30s, 3m or 1h30m, found \"" + s + "\"");
      return Optional.empty();
    }
    Duration horizon = SimulationSettings.DEFAULTS.horizon();
    if (d.compareTo(horizon) > 0) {
      c.error("expected a duration of at most " + KubeDuration.format(horizon) + " (a run's horizon of "
          + horizon.toDays() + " days of virtual time), found \"" + s + "\"");
      return Optional.empty();
    }
    return Optional.of(d);
  }

  // ---- actions ----

  private Optional<ScenarioAction> action(Cursor a, String scenarioText) {
    List<String> keys = a.keys();
    if (keys.size() != 1 || !ACTIONS.contains(keys.getFirst())) {
      a.error("expected exactly one action of " + String.join(", ", ACTIONS.stream().sorted().toList())
          + ", found " + (keys.isEmpty() ? a.node().describe() : String.join(", ", keys)));
      return Optional.empty();
    }
    String verb = keys.getFirst();
    Cursor arg = a.get(verb).orElse(a);
    return switch (verb) {
      case "apply" -> Optional.of(apply(arg, scenarioText));
      case "label" -> {
        arg.checkKnown(Set.of("node", "key", "value"), true);
        yield Optional.of(new ScenarioAction.LabelNode(nodeRef(arg.require("node")), arg.requiredString("key"),
            arg.string("value", "")));
      }
      case "unlabel" -> {
        arg.checkKnown(Set.of("node", "key"), true);
        yield Optional.of(new ScenarioAction.UnlabelNode(nodeRef(arg.require("node")), arg.requiredString("key")));
      }
      case "scale" -> {
        arg.checkKnown(Set.of("workload", "replicas"), true);
        int replicas = arg.require("replicas").map(Cursor::asInt).orElse(0);
        if (replicas < 0) {
          arg.get("replicas").ifPresent(c -> c.error("expected a non-negative integer, found " + replicas));
        }
        yield Optional.of(new ScenarioAction.Scale(arg.requiredString("workload"), replicas));
      }
      case "delete" -> {
        arg.checkKnown(Set.of("kind", "name"), true);
        yield Optional.of(new ScenarioAction.Delete(arg.requiredString("kind"), arg.requiredString("name")));
      }
      case "interrupt" -> interrupt(arg);
      case "insufficientCapacity" -> insufficientCapacity(arg);
      case "expireReservation" -> {
        arg.checkKnown(Set.of("id", "in"), true);
        String id = arg.requiredString("id");
        if (!id.isEmpty() && !reservationIds.contains(id)) {
          arg.get("id").get().error("no capacity reservation \"" + id + "\" in spec.capacityReservations"
              + (reservationIds.isEmpty() ? "" : "; declared: " + String.join(", ", reservationIds)));
        }
        Duration in = duration(arg, "in").orElse(Duration.ZERO);
        yield id.isEmpty() ? Optional.empty() : Optional.of(new ScenarioAction.ExpireReservation(id, in));
      }
      case "wait" -> durationOf(arg).map(ScenarioAction.Wait::new);
      case "show" -> Optional.of(new ScenarioAction.Checkpoint(arg.asString()));
      case "waitUntil" -> {
        arg.checkKnown(Set.of("condition", "timeout"), true);
        Condition c = condition(arg.require("condition"));
        Duration timeout = duration(arg, "timeout").orElse(Duration.ofMinutes(30));
        yield Optional.of(new ScenarioAction.WaitUntil(c, timeout));
      }
      case "expect" -> expect(arg);
      default -> throw new IllegalStateException(verb);
    };
  }

  /**
   * {@code expect}: a {@code condition} now, or a condition that must hold {@code throughout} or
   * {@code never} hold from now on, {@code for} a while or to the end of the run.
   */
  private Optional<ScenarioAction> expect(Cursor arg) {
    arg.checkKnown(Set.of("that", "condition", "throughout", "never", "for"), true);
    List<String> given = Stream.of("condition", "throughout", "never")
        .filter(k -> arg.get(k).isPresent()).toList();
    if (given.size() != 1) {
      (given.isEmpty() ? arg : arg.get(given.get(1)).orElseThrow()).error("expected exactly one of condition (now), "
          + "throughout or never (from now on), found " + (given.isEmpty() ? "none" : String.join(", ", given)));
      return Optional.empty();
    }
    String kind = given.getFirst();
    Condition c = condition(arg.get(kind));
    if (kind.equals("condition")) {
      arg.get("for").ifPresent(f -> f.error("for applies to throughout and never; a condition is checked once, now"));
      return Optional.of(new ScenarioAction.Expect(arg.string("that", ConditionText.of(c)), c));
    }
    Optional<Duration> window = duration(arg, "for");
    String text = arg.string("that", kind + " " + ConditionText.of(c)
        + window.map(d -> " for " + KubeDuration.format(d)).orElse(""));
    return Optional.of(new ScenarioAction.Watch(text, c, kind.equals("never"), window));
  }

  /**
   * {@code interrupt}: a notice about a node's instance, of {@code kind} spotInterruption (the default),
   * rebalanceRecommendation, scheduledChange or stateChange (with {@code state} stopping, stopped,
   * shutting-down or terminated, the states the provider's state-change parser accepts).
   */
  private Optional<ScenarioAction> interrupt(Cursor arg) {
    arg.checkKnown(Set.of("node", "kind", "state"), true);
    NodeRef node = nodeRef(arg.require("node"));
    String kind = arg.string("kind", InterruptionNotice.SPOT_INTERRUPTION.kind());
    Optional<String> state = arg.optString("state");
    List<String> kinds = Stream.of(InterruptionNotice.values()).map(InterruptionNotice::kind).distinct().toList();
    if (!kinds.contains(kind)) {
      arg.get("kind").orElse(arg).error("expected one of " + String.join(", ", kinds) + ", found \"" + kind + "\"");
      return Optional.empty();
    }
    List<InterruptionNotice> ofKind = Stream.of(InterruptionNotice.values()).filter(n -> n.kind().equals(kind))
        .toList();
    if (ofKind.getFirst().state().isEmpty()) {
      if (state.isPresent()) {
        arg.get("state").orElseThrow().error("state applies to kind stateChange, not " + kind);
      }
      return Optional.of(new ScenarioAction.Interrupt(node, ofKind.getFirst()));
    }
    List<String> states = ofKind.stream().map(n -> n.state().orElseThrow()).toList();
    Optional<InterruptionNotice> notice = ofKind.stream().filter(n -> n.state().equals(state)).findFirst();
    if (notice.isEmpty()) {
      arg.get("state").orElse(arg).error("expected state one of " + String.join(", ", states) + " for kind "
          + kind + ", found " + state.map(x -> "\"" + x + "\"").orElse("none"));
      return Optional.empty();
    }
    return Optional.of(new ScenarioAction.Interrupt(node, notice.get()));
  }

  /** {@code insufficientCapacity}: EC2 has none of an instance type (in a zone, of a capacity type) for a while. */
  private Optional<ScenarioAction> insufficientCapacity(Cursor arg) {
    arg.checkKnown(Set.of("instanceType", "zone", "capacityType", "for"), true);
    String type = arg.requiredString("instanceType");
    Optional<String> zone = arg.optString("zone");
    Optional<CapacityType> capacityType = Optional.empty();
    Optional<Cursor> ct = arg.get("capacityType");
    if (ct.isPresent()) {
      capacityType = CapacityType.fromWire(ct.get().asString());
      if (capacityType.isEmpty()) {
        ct.get().error("expected one of " + String.join(", ", WireEnum.wireNames(
            CapacityType.class)) + ", found \"" + ct.get().asString() + "\"");
      }
    }
    Optional<Duration> window = duration(arg, "for");
    if (type.isEmpty()) {
      return Optional.empty();
    }
    Optional<InstanceType> t = catalog.find(type);
    if (t.isEmpty()) {
      arg.get("instanceType").orElse(arg).error("no instance type \"" + type + "\" in the instance catalogue");
      return Optional.empty();
    }
    Optional<CapacityType> want = capacityType;
    boolean offered = t.get().offerings().stream().anyMatch(o -> zone.map(o.zone()::equals).orElse(true)
        && want.map(w -> w == o.capacityType()).orElse(true));
    if (!offered && (ct.isEmpty() || want.isPresent())) {
      arg.error(type + " has no offering" + want.map(w -> " of capacity type " + w.wireName()).orElse("")
          + zone.map(z -> " in " + z).orElse("") + " to take away; its offerings: " + String.join(", ",
              t.get().offerings().stream().map(o -> o.capacityType().wireName() + " in " + o.zone()).distinct()
                  .toList()));
    }
    return Optional.of(new ScenarioAction.InsufficientCapacity(type, zone, capacityType, window));
  }

  private ScenarioAction apply(Cursor arg, String scenarioText) {
    int before = objects.size();
    // Applying a workload, NodePool or PDB the cluster already has updates it, as kubectl apply does,
    // so only two of one name within the same apply are refused here.
    DuplicateObjects names = new DuplicateObjects(diagnostics);
    if (arg.node() instanceof YNode.YList) {
      for (Cursor e : arg.asList()) {
        collect(e, scenarioText, names);
      }
    } else {
      collect(arg, scenarioText, names);
    }
    List<Sourced> added = new ArrayList<>(objects.subList(before, objects.size()));
    return new ScenarioAction.Apply(clusterObjects(added, false));
  }

  // ---- node references and conditions ----

  /** A node by name ({@code node: ip-10-0-1-17}), by selector and index, or as the host of a workload's pod. */
  NodeRef nodeRef(Optional<Cursor> c) {
    if (c.isEmpty()) {
      return NodeRef.named("");
    }
    Cursor n = c.get();
    if (!n.isMap()) {
      return NodeRef.named(n.asString());
    }
    n.checkKnown(Set.of("name", "selector", "index", "hosting"), true);
    if (n.get("name").isPresent()) {
      return NodeRef.named(n.requiredString("name"));
    }
    if (n.get("selector").isPresent()) {
      LabelSelector s = kube.labelSelector(n.get("selector").get());
      return NodeRef.selected(s, n.integer("index", 0));
    }
    Optional<Cursor> hosting = n.get("hosting");
    if (hosting.isPresent()) {
      hosting.get().checkKnown(Set.of("workload", "index"), true);
      return NodeRef.hosting(hosting.get().requiredString("workload"), hosting.get().integer("index", 0));
    }
    n.error("expected name, selector (with index) or hosting");
    return NodeRef.named("");
  }

  Condition condition(Optional<Cursor> c) {
    if (c.isEmpty()) {
      return new Condition.All(List.of());
    }
    Cursor cond = c.get();
    List<String> keys = cond.keys();
    Set<String> kinds = Set.of("podRunningOn", "podReady", "readyPods", "nodeCount", "nodeClaimCount",
        "nodeInitialized", "resourceAdvertised", "pendingPods", "events", "disruptions", "evictions", "cost", "all",
        "not");
    if (keys.size() != 1 || !kinds.contains(keys.getFirst())) {
      cond.error("expected exactly one condition of " + String.join(", ", kinds.stream().sorted().toList())
          + ", found " + (keys.isEmpty() ? cond.node().describe() : String.join(", ", keys)));
      return new Condition.All(List.of());
    }
    String kind = keys.getFirst();
    Cursor a = cond.get(kind).orElse(cond);
    return switch (kind) {
      case "podRunningOn" -> {
        a.checkKnown(Set.of("workload", "node"), true);
        yield new Condition.PodRunningOn(a.requiredString("workload"), nodeRef(a.require("node")));
      }
      case "podReady" -> new Condition.PodReady(a.asString());
      case "readyPods" -> {
        Count n = count(a, Set.of("workload"));
        yield new Condition.ReadyPods(a.requiredString("workload"), n.comparison(), (int) n.value());
      }
      case "nodeCount" -> {
        Count n = count(a, Set.of("selector"));
        LabelSelector s = a.get("selector").map(kube::labelSelector).orElse(LabelSelector.EVERYTHING);
        yield new Condition.NodeCount(s, n.comparison(), (int) n.value());
      }
      case "nodeClaimCount" -> {
        Count n = count(a, Set.of("selector"));
        LabelSelector s = a.get("selector").map(kube::labelSelector).orElse(LabelSelector.EVERYTHING);
        yield new Condition.NodeClaimCount(s, n.comparison(), (int) n.value());
      }
      case "events" -> events(a);
      case "disruptions" -> {
        Count n = count(a, Set.of("method", "reason"));
        Optional<String> method = oneOf(a, "method", WireEnum.wireNames(
            DisruptionCommand.Method.class));
        Optional<String> reason = oneOf(a, "reason", REMOVAL_REASONS);
        yield new Condition.Disruptions(method, reason, n.comparison(), (int) n.value());
      }
      case "evictions" -> {
        Count n = count(a, Set.of("reason"));
        yield new Condition.Evictions(oneOf(a, "reason", REMOVAL_REASONS), n.comparison(), (int) n.value());
      }
      case "cost" -> {
        Count n = count(a, Set.of());
        yield new Condition.Cost(n.comparison(), n.at().map(ScenarioReader::number).orElse(0.0));
      }
      case "nodeInitialized" -> {
        a.checkKnown(Set.of("node"), true);
        yield new Condition.NodeInitialized(nodeRef(a.require("node")));
      }
      case "resourceAdvertised" -> {
        Count n = count(a, Set.of("node", "resource"));
        yield new Condition.ResourceAdvertised(nodeRef(a.require("node")), a.requiredString("resource"),
            n.comparison(), n.value());
      }
      case "pendingPods" -> {
        Count n = count(a, Set.of());
        yield new Condition.PendingPods(n.comparison(), (int) n.value());
      }
      case "all" -> new Condition.All(a.asList().stream().map(x -> condition(Optional.of(x))).toList());
      case "not" -> new Condition.Not(condition(Optional.of(a)));
      default -> throw new IllegalStateException(kind);
    };
  }

  /** Why Karpenter deletes a NodeClaim (and evicts its pods), as its events and metrics name the reasons. */
  private static final List<String> REMOVAL_REASONS = Arrays.stream(
      RemovalReason.values()).map(RemovalReason::text)
      .toList();

  /** An optional field whose value must be one of {@code allowed}. */
  private static Optional<String> oneOf(Cursor a, String field, List<String> allowed) {
    Optional<Cursor> c = a.get(field);
    if (c.isEmpty()) {
      return Optional.empty();
    }
    String v = c.get().asString();
    if (!allowed.contains(v)) {
      c.get().error("expected one of " + String.join(", ", allowed) + ", found \"" + v + "\"");
    }
    return Optional.of(v);
  }

  /** {@code events}: run-record entries of a type, a Karpenter or Kueue event reason and an object, each where given. */
  private Condition events(Cursor a) {
    Count n = count(a, Set.of("type", "reason", "object"));
    List<String> types = WireEnum.wireNames(RunRecord.Kind.class);
    Optional<RunRecord.Kind> type = oneOf(a, "type", types)
        .flatMap(t -> WireEnum.fromWire(RunRecord.Kind.class, t));
    Optional<String> reason = a.optString("reason");
    if (reason.isPresent() && type.isPresent() && type.get() != RunRecord.Kind.KARPENTER_EVENT
        && type.get() != RunRecord.Kind.KUEUE_EVENT) {
      a.get("reason").orElseThrow().error("an event reason belongs to KarpenterEvent and KueueEvent entries; type "
          + type.get().wireName() + " has none");
    }
    countsDecisions |= type.filter(t -> t == RunRecord.Kind.DISRUPTION_CONSIDERED).isPresent();
    return new Condition.Events(type, reason, a.optString("object"), n.comparison(), (int) n.value());
  }

  private record Count(Comparison comparison, Optional<Cursor> at) {
    long value() {
      return at.map(Cursor::asLong).orElse(0L);
    }
  }

  /** One of equals / atLeast / atMost / moreThan / lessThan, beside the condition's own fields. */
  private static Count count(Cursor a, Set<String> fields) {
    Set<String> known = new HashSet<>(fields);
    for (Comparison c : Comparison.values()) {
      known.add(c.field());
    }
    a.checkKnown(known, true);
    Count found = null;
    // In the enum's order, so a second comparison is the one reported, the same way every run.
    for (Comparison c : Comparison.values()) {
      Optional<Cursor> v = a.get(c.field());
      if (v.isPresent()) {
        if (found != null) {
          v.get().error("only one of equals, atLeast, atMost, moreThan, lessThan may be given");
        }
        found = new Count(c, v);
      }
    }
    if (found == null) {
      a.error("expected one of equals, atLeast, atMost, moreThan, lessThan");
      return new Count(Comparison.EQ, Optional.empty());
    }
    return found;
  }

  /**
   * How long each Job's completed pods ran, from a dump's Succeeded pods that record both
   * {@code status.startTime} and their containers' {@code finishedAt}.
   */
  private static Map<ObjectRef, List<Duration>> completedRuns(List<KubeObject> objects) {
    Map<ObjectRef, List<Duration>> out = new HashMap<>();
    for (KubeObject o : objects) {
      if (o instanceof KubeObject.PodObject p && p.phase().equals(Optional.of(KubeObject.PodObject.Phase.SUCCEEDED))
          && p.started().isPresent() && p.finishedAt().isPresent()) {
        Duration d = Duration.between(p.started().get().at(), p.finishedAt().get());
        p.pod().meta().owner().filter(r -> r.kind().equals("Job") && !d.isNegative()).ifPresent(r -> out.computeIfAbsent(
            new ObjectRef("Job", p.pod().meta().namespace(), r.name()), k -> new ArrayList<>()).add(d));
      }
    }
    return out;
  }

  /**
   * A Job that declares no {@code gpufleet.io/run-for} but whose completed pods say how long they ran:
   * each of its pods is taken to run their median (the lower of the two middle ones: a time one of
   * them took), and a warning says so at the Job. Without either, its pods run until the run ends.
   */
  private Workload withRunFromHistory(KubeObject.WorkloadObject w, Map<ObjectRef, List<Duration>> ran) {
    if (!(w.workload() instanceof Workload.Job j) || j.runFor().isPresent()) {
      return w.workload();
    }
    List<Duration> runs = ran.get(ObjectRef.of("Job", j.meta()));
    if (runs == null) {
      return w.workload();
    }
    List<Duration> sorted = runs.stream().sorted().toList();
    Duration median = sorted.get((sorted.size() - 1) / 2);
    diagnostics.warning(w.location(), "metadata.annotations[" + KubeDecoder.RUN_FOR_ANNOTATION + "]",
        "not set: each pod of " + ObjectRef.of("Job", j.meta()) + " is taken to run "
            + KubeDuration.format(median) + ", the median of its " + runs.size() + " completed pod(s)");
    return new Workload.Job(j.meta(), j.parallelism(), j.completions(), j.selector(), j.template(), Optional.of(median));
  }
}
