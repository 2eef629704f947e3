package io.gpufleet.lint;

import io.gpufleet.cluster.Cluster;
import io.gpufleet.cluster.ClusterAssembly;
import io.gpufleet.cluster.ClusterNode;
import io.gpufleet.cluster.ClusterSettings;
import io.gpufleet.manifest.ManifestBundle;
import io.gpufleet.manifest.ManifestSource;
import io.gpufleet.manifest.apiserver.Admission;
import io.gpufleet.manifest.apiserver.AdmissionPlugins;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.engine.deviceplugin.NodeGpus;
import io.gpufleet.manifest.deviceplugin.DevicePluginManifests;
import io.gpufleet.manifest.karpenter.NodePoolDecoder;
import io.gpufleet.manifest.kube.DuplicateObjects;
import io.gpufleet.manifest.kube.KubeDecoder;
import io.gpufleet.manifest.kube.KubeObject;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YamlReader;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.InstanceTypeGpus;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.karpenter.RequirementOperator;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.PodDisruptionBudget;
import io.gpufleet.model.workload.Workload;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the rules look at: every object of the inputs with its YAML, the device-plugin and
 * mig-parted configs, and two derived views: the {@link PodSite}s (where pod specs are written) and
 * the {@link GpuTarget}s (where GPU pods could run). Read leniently: what the API server would
 * reject is kept as {@link #rejected()} problems rather than stopping the read, so the rules still
 * see the rest and can explain GPU-specific rejections in their own words.
 */
public final class LintInput {

  /** Capacity types Karpenter knows (reference §1.2); a NodePool that names none gets on-demand. */
  static final List<String> CAPACITY_TYPES = List.of("on-demand", "spot", "reserved");

  private final List<String> files;
  private final List<Located<Node>> nodes;
  private final List<Located<Pod>> pods;
  private final List<Located<Workload>> workloads;
  private final List<Located<PodDisruptionBudget>> pdbs;
  private final List<Located<NodePool>> nodePools;
  private final List<Located<KubeObject.ConfigMapObject>> devicePluginConfigMaps;
  private final NamedConfigs deviceConfigs;
  private final List<ManifestProblem> rejected;
  private final List<ManifestProblem> warnings;
  /**
   * Per file, each object by where it starts, and what brings each document in (see
   * {@link Source#origin()}) by where it starts, for {@link #objectAt} and {@link #origin}: a scan of
   * every object per finding made lint of a dump of 12,000 objects that each get a finding quadratic.
   */
  private final Map<String, TreeMap<Location, Located<?>>> objectStarts = new HashMap<>();
  private final Map<String, TreeMap<Location, String>> originStarts = new HashMap<>();
  private final GpuCatalog catalog;
  /** Each node as every command sees it, by name: registered through the one cluster assembly. */
  private final Map<String, ClusterNode> assembled;
  private final InstanceCatalog instances;
  private final List<PodSite> podSites;
  private final List<PodSite> gpuPodSites;
  private final List<GpuTarget> targets;
  /** Each GPU pod site's admitting targets, computed once: most rules ask, some per pool. */
  private final Map<PodSite, List<GpuTarget>> admitting = new IdentityHashMap<>();

  private LintInput(Builder b, GpuCatalog catalog, InstanceCatalog instances, Map<String, ClusterNode> assembled,
      List<ManifestProblem> assemblyWarnings) {
    this.assembled = Map.copyOf(assembled);
    this.files = List.copyOf(b.files);
    this.nodes = List.copyOf(b.nodes);
    this.pods = List.copyOf(b.pods);
    this.workloads = List.copyOf(b.workloads);
    this.pdbs = List.copyOf(b.pdbs);
    this.nodePools = List.copyOf(b.nodePools);
    this.devicePluginConfigMaps = List.copyOf(b.configMaps);
    this.deviceConfigs = b.deviceConfigs;
    this.rejected = b.diagnostics.errors();
    List<ManifestProblem> seen = new ArrayList<>(b.diagnostics.warnings());
    seen.addAll(assemblyWarnings);
    this.warnings = List.copyOf(seen);
    for (Located<?> l : b.all) {
      // The first object that starts at a place is the one found there, as in the order written.
      objectStarts.computeIfAbsent(l.location().file(), f -> new TreeMap<>(IN_FILE)).putIfAbsent(l.location(), l);
    }
    b.origins.forEach((at, origin) -> originStarts.computeIfAbsent(at.file(), f -> new TreeMap<>(IN_FILE)).put(at, origin));
    this.catalog = catalog;
    this.instances = instances;
    this.podSites = List.copyOf(findPodSites());
    this.targets = List.copyOf(findTargets());
    this.gpuPodSites = podSites.stream().filter(PodSite::requestsGpu).toList();
    // Replicas of a workload, and most pods of a dump, share what admission reads: each distinct
    // scheduling constraint is checked against every target once, not once per pod (7,200 pods on
    // 4,800 nodes were 35 million checks, the most of lint's time).
    Map<GpuTarget.Constraints, List<GpuTarget>> byConstraints = new HashMap<>();
    for (PodSite s : gpuPodSites) {
      GpuTarget.Constraints c = GpuTarget.Constraints.of(s);
      admitting.put(s, byConstraints.computeIfAbsent(c, k -> targets.stream().filter(t -> t.admits(k)).toList()));
    }
  }

  /**
   * One input: a file's documents, or an object written inside another file (a scenario's
   * {@code spec.cluster} entry, say: {@code inPlace}). {@code origin} says what brings the objects
   * in when that is not the file itself ({@code applied by step 3.1 of lab.yaml}); empty for a file
   * given directly. Sources of one origin are applied together, so two objects of one name among
   * them are duplicates; among different origins (a scenario's cluster and a later step's apply)
   * the later one is an update, as {@code kubectl apply} makes it.
   */
  public record Source(String file, String text, List<YNode> docs, boolean inPlace, String origin) {
    public Source {
      docs = List.copyOf(docs);
    }

    /** A whole file given directly, parsed here; YAML that does not parse is a {@code ManifestException}. */
    public static Source of(ManifestSource s) {
      return new Source(s.name(), s.text(), new YamlReader().readAll(s.name(), s.text()), false, "");
    }

    /** The same file however its name is written ({@code ./a.yaml}, {@code a.yaml}); an object by where it starts. */
    private String key() {
      String path;
      try {
        path = Path.of(file).toAbsolutePath().normalize().toString();
      } catch (InvalidPathException e) {
        path = file; // stdin's "-", a live cluster's name: never written two ways
      }
      return inPlace ? path + ":" + docs.getFirst().location().line() + ":" + docs.getFirst().location().column()
          : path;
    }
  }

  /**
   * Reads the sources. YAML that does not parse stops the read (a {@code ManifestException} naming
   * file, line and column); everything the API server would reject is kept in {@link #rejected()}.
   */
  public static LintInput read(List<ManifestSource> sources) {
    return read(sources, false);
  }

  /**
   * As {@link #read(List)}; {@code strict} makes unknown fields rejections ({@code kubectl
   * --validate=strict}) rather than warnings.
   */
  public static LintInput read(List<ManifestSource> sources, boolean strict) {
    return readSources(sources.stream().map(Source::of).toList(), strict);
  }

  /**
   * Reads parsed sources. A file reached twice (given directly and named by a scenario, or applied
   * by two steps) is read once, where it first comes, so its findings are reported once; it keeps
   * the first origin that is not empty.
   */
  public static LintInput readSources(List<Source> sources, boolean strict) {
    return readSources(sources, strict, GpuCatalog.builtIn(), InstanceCatalog.builtIn(), AdmissionPlugins.defaults());
  }

  /**
   * As {@link #readSources(List, boolean)}, over these catalogues (a user's {@code --gpu-catalog}) and
   * with these admission plugins on in the API server.
   */
  public static LintInput readSources(List<Source> sources, boolean strict, GpuCatalog catalog,
      InstanceCatalog instances, AdmissionPlugins plugins) {
    return readOnce(sources, strict, catalog, instances, plugins);
  }

  /** As {@link #read(List, boolean)}, over these catalogues (a user's {@code --gpu-catalog}). */
  public static LintInput read(List<ManifestSource> sources, boolean strict, GpuCatalog catalog,
      InstanceCatalog instances) {
    return readOnce(sources.stream().map(Source::of).toList(), strict, catalog, instances, AdmissionPlugins.defaults());
  }

  private static LintInput readOnce(List<Source> given, boolean strict, GpuCatalog catalog, InstanceCatalog instances,
      AdmissionPlugins plugins) {
    Map<String, Source> once = new LinkedHashMap<>();
    for (Source s : given) {
      once.merge(s.key(), s, (first, later) -> first.origin().isEmpty() && !later.origin().isEmpty()
          ? new Source(first.file(), first.text(), first.docs(), first.inPlace(), later.origin()) : first);
    }
    Builder b = new Builder();
    Set<String> seenFiles = new HashSet<>();
    // One decoder for every source, as ManifestReader's: each new one reads the API's field tables again.
    KubeDecoder decoder = new KubeDecoder(b.diagnostics, strict);
    Map<String, DuplicateObjects> duplicates = new HashMap<>();
    List<KubeObject> objects = new ArrayList<>();
    Map<Location, YNode> trees = new HashMap<>();
    Map<String, String> texts = new HashMap<>();
    for (Source s : once.values()) {
      if (seenFiles.add(s.file())) {
        b.files.add(s.file());
      }
      texts.put(s.file(), s.text());
      duplicates.computeIfAbsent(s.origin(), o -> new DuplicateObjects(b.diagnostics)).check(s.docs());
      trees.putAll(KubeDecoder.byStart(s.docs()));
      for (YNode d : s.docs()) {
        b.origins.put(d.location(), s.origin());
      }
      objects.addAll(decoder.decodeAll(s.docs()));
    }
    // The inputs are applied as one set through the API server's admission chain (EKS's plugins unless the
    // command changes them), so a
    // pod may name a PriorityClass from any of the files and a GPU pod gets ExtendedResourceToleration's
    // toleration; what the chain refuses is a rejection like any other.
    List<KubeObject> admitted = new Admission(plugins).admit(objects, b.diagnostics);
    for (KubeObject o : admitted) {
      b.add(o, trees.get(o.location()), texts.get(o.location().file()));
    }
    // The GPU nodes as every command sees them. Input the API server would refuse is lint's to report
    // (above); where it stops the assembly, nodes are read as written.
    Map<String, ClusterNode> assembled = new HashMap<>();
    List<ManifestProblem> assemblyWarnings = List.of();
    try {
      Cluster cluster = ClusterAssembly.assemble(ManifestBundle.ofDecoded(admitted, texts),
          ClusterSettings.defaults().withGpus(catalog).withInstances(instances), trees);
      cluster.nodes().forEach(n -> assembled.put(n.name(), n));
      assemblyWarnings = cluster.warnings();
    } catch (ManifestException e) {
      // Every such problem is among the rejections lint reports in its own words.
    }
    return new LintInput(b, catalog, instances, assembled, assemblyWarnings);
  }

  /** Collects decoded objects by kind. */
  private static final class Builder {
    final Diagnostics diagnostics = new Diagnostics();
    final List<String> files = new ArrayList<>();
    final List<Located<Node>> nodes = new ArrayList<>();
    final List<Located<Pod>> pods = new ArrayList<>();
    final List<Located<Workload>> workloads = new ArrayList<>();
    final List<Located<PodDisruptionBudget>> pdbs = new ArrayList<>();
    final List<Located<NodePool>> nodePools = new ArrayList<>();
    final List<Located<KubeObject.ConfigMapObject>> configMaps = new ArrayList<>();
    final List<Located<?>> all = new ArrayList<>();
    /** What brings each document in, by where it starts (see {@link Source#origin()}). */
    final Map<Location, String> origins = new HashMap<>();
    NamedConfigs deviceConfigs = NamedConfigs.NONE;

    void add(KubeObject o, YNode tree, String text) {
      switch (o) {
        case KubeObject.NodeObject n ->
            nodes.add(keep(n.node(), ObjectRef.clusterScoped("Node", n.name()), tree));
        case KubeObject.PodObject p -> pods.add(keep(p.pod(), namespaced("Pod", p.pod().meta()), tree));
        case KubeObject.WorkloadObject w ->
            workloads.add(keep(w.workload(), namespaced(w.kind(), w.workload().meta()), tree));
        case KubeObject.PdbObject p ->
            pdbs.add(keep(p.pdb(), namespaced("PodDisruptionBudget", p.pdb().meta()), tree));
        case KubeObject.ConfigMapObject cm -> {
          switch (DevicePluginManifests.kind(cm)) {
            case DEVICE_PLUGIN -> {
              deviceConfigs = DevicePluginManifests.namedConfigs(cm, text, diagnostics);
              configMaps.add(keep(cm, namespaced("ConfigMap", cm.meta()), tree));
            }
            // Read for its errors: a broken mig-parted config is what kubectl would still apply but the MIG
            // manager would refuse; the rules need only the node's mig.config label.
            case MIG_PARTED -> DevicePluginManifests.migParted(cm, text, diagnostics);
            case OTHER -> { }
          }
        }
        case KubeObject.OtherObject other when other.kind().equals("NodePool")
            && other.apiVersion().startsWith(KarpenterLabels.DOMAIN + "/") -> {
          NodePool pool = new NodePoolDecoder(diagnostics).decode(other.cursor(), other.apiVersion());
          nodePools.add(keep(pool, ObjectRef.clusterScoped("NodePool", pool.name()), tree));
        }
        // Kept so that a refusal of the class (a second globalDefault) names it.
        case KubeObject.PriorityClassObject pc -> keep(pc, ObjectRef.clusterScoped("PriorityClass", pc.name()), tree);
        case KubeObject.ResourceObject r -> { } // no lint rule reads DRA objects yet
        case KubeObject.NamespaceObject ns -> { } // read by admission (namespace labels)
        case KubeObject.RuntimeClassObject rc -> { } // read by admission (RuntimeClass)
        case KubeObject.OtherObject other -> { }
      }
    }

    private <T> Located<T> keep(T value, ObjectRef ref, YNode tree) {
      Located<T> l = new Located<>(value, ref, tree);
      all.add(l);
      return l;
    }

    private static ObjectRef namespaced(String kind, ObjectMeta meta) {
      return new ObjectRef(kind, meta.namespace(), meta.name());
    }
  }

  // ---- what was read ----

  /** The sources' names in the order given. */
  public List<String> files() {
    return files;
  }

  public List<Located<Node>> nodes() {
    return nodes;
  }

  public List<Located<Pod>> pods() {
    return pods;
  }

  public List<Located<Workload>> workloads() {
    return workloads;
  }

  public List<Located<PodDisruptionBudget>> pdbs() {
    return pdbs;
  }

  public List<Located<NodePool>> nodePools() {
    return nodePools;
  }

  /** The device plugin's named-config ConfigMaps (the last one read is the one in force). */
  public List<Located<KubeObject.ConfigMapObject>> devicePluginConfigMaps() {
    return devicePluginConfigMaps;
  }

  public NamedConfigs deviceConfigs() {
    return deviceConfigs;
  }

  /** What the API server (or Karpenter's CRD validation) would reject, in file order. */
  public List<ManifestProblem> rejected() {
    return rejected;
  }

  /** Fields gpufleet does not read or model, as every command reports them. */
  public List<ManifestProblem> warnings() {
    return warnings;
  }

  public GpuCatalog catalog() {
    return catalog;
  }

  /** The object whose manifest holds {@code at}: the last one that starts at or before it in its file. */
  public Optional<Located<?>> objectAt(Location at) {
    return Optional.ofNullable(floor(objectStarts, at));
  }

  /**
   * What brings in the object whose manifest holds {@code at}, where that is not its file given
   * directly: {@code applied by step 3.1 of lab.yaml}.
   */
  public Optional<String> origin(Location at) {
    String origin = floor(originStarts, at);
    return origin == null || origin.isEmpty() ? Optional.empty() : Optional.of(origin);
  }

  /** Locations of one file by line, then column. */
  private static final Comparator<Location> IN_FILE = Location.inFiles(List.of());

  /** The value of the last start at or before {@code at} in its file, or null. */
  private static <T> T floor(Map<String, TreeMap<Location, T>> startsByFile, Location at) {
    TreeMap<Location, T> starts = startsByFile.get(at.file());
    Map.Entry<Location, T> e = starts == null ? null : starts.floorEntry(at);
    return e == null ? null : e.getValue();
  }

  // ---- pod sites ----

  public List<PodSite> podSites() {
    return podSites;
  }

  /** Pod sites of pods that ask for GPUs. */
  public List<PodSite> gpuPodSites() {
    return gpuPodSites;
  }

  /**
   * Pod specs as written: Pods and workload templates. A Pod or ReplicaSet whose controller is in
   * the input is the controller's copy (a {@code kubectl get -o yaml} dump holds all three of a
   * Deployment's levels) and is judged through the controller.
   */
  private List<PodSite> findPodSites() {
    Set<String> controllers = new HashSet<>();
    for (Located<Workload> w : workloads) {
      controllers.add(w.ref().kind() + "/" + w.ref().namespace() + "/" + w.ref().name());
    }
    List<PodSite> out = new ArrayList<>();
    for (Located<Workload> lw : workloads) {
      Workload w = lw.value();
      if (ownedByInput(w.meta(), controllers)) {
        continue;
      }
      // On the variant, not the sealed type: no class made at run time (see Workload.variant).
      PodSite.Kind kind = switch (w.variant()) {
        case DEPLOYMENT, REPLICA_SET, STATEFUL_SET -> PodSite.Kind.SERVICE;
        case JOB -> PodSite.Kind.BATCH;
        case DAEMON_SET -> PodSite.Kind.DAEMON;
      };
      int replicas = switch (w.variant()) {
        case DEPLOYMENT -> ((Workload.Deployment) w).replicas();
        case REPLICA_SET -> ((Workload.ReplicaSet) w).replicas();
        case STATEFUL_SET -> ((Workload.StatefulSet) w).replicas();
        case JOB -> ((Workload.Job) w).parallelism();
        case DAEMON_SET -> 1;
      };
      out.add(new PodSite(lw, "spec.template.spec", w.template().spec(), w.template().labels(),
          w.template().annotations(), w.meta().annotations(), w.meta().namespace(), kind, replicas));
    }
    for (Located<Pod> lp : pods) {
      Pod p = lp.value();
      if (ownedByInput(p.meta(), controllers)) {
        continue;
      }
      out.add(new PodSite(lp, "spec", p.spec(), p.meta().labels(), p.meta().annotations(), p.meta().annotations(),
          p.meta().namespace(), PodSite.Kind.POD, 1));
    }
    return out;
  }

  private static boolean ownedByInput(ObjectMeta meta, Set<String> controllers) {
    return meta.owner().isPresent()
        && controllers.contains(meta.owner().get().kind() + "/" + meta.namespace() + "/" + meta.owner().get().name());
  }

  /** The PDBs of the site's namespace whose selector picks its pods. */
  public List<Located<PodDisruptionBudget>> pdbsCovering(PodSite site) {
    return pdbs.stream().filter(p -> p.value().selects(site.namespace(), site.labels())).toList();
  }

  // ---- GPU capacity ----

  /** Every place a GPU pod could run: GPU Nodes, then what each GPU NodePool could launch. */
  public List<GpuTarget> targets() {
    return targets;
  }

  /** The targets a pod of this site may be scheduled to. */
  public List<GpuTarget> targetsAdmitting(PodSite site) {
    List<GpuTarget> known = admitting.get(site);
    return known != null ? known : targets.stream().filter(t -> t.admits(site)).toList();
  }

  /** The NodePools that can launch at least one GPU instance type. */
  public List<Located<NodePool>> gpuNodePools() {
    return nodePools.stream().filter(p -> targets.stream().anyMatch(t -> t.source() == p)).toList();
  }

  /** GPU Nodes: those whose GPUs the engine finds (GFD labels, instance type) or that advertise GPUs. */
  public List<Located<Node>> gpuNodes() {
    return nodes.stream().filter(n -> targets.stream().anyMatch(t -> t.source() == n)).toList();
  }

  private List<GpuTarget> findTargets() {
    List<GpuTarget> out = new ArrayList<>();
    Map<String, Located<NodePool>> pools = new LinkedHashMap<>();
    nodePools.forEach(p -> pools.put(p.value().name(), p));
    InstanceTypeGpus byType = instances.instanceTypeGpus();
    for (Located<Node> ln : nodes) {
      // The node as registered by the cluster assembly (its labels, GFD's among them), as written where
      // the assembly could not read the input.
      Optional<ClusterNode> registered = Optional.ofNullable(assembled.get(ln.value().name()));
      Node n = registered.map(ClusterNode::node).orElse(ln.value());
      Optional<GpuInventory> cards = registered.flatMap(ClusterNode::inventory);
      // A node that advertises cards it does not name has GPUs, of no model a pod could select.
      Optional<GpuModel> model = cards.map(GpuInventory::model)
          .filter(m -> !m.id().equals(NodeGpus.UNNAMED_PRODUCT));
      int count = cards.map(GpuInventory::count).orElse(0);
      long advertised = n.capacity().quantities().entrySet().stream()
          .filter(e -> e.getKey().isNvidiaGpuLike()).mapToLong(e -> e.getValue().value()).sum();
      if (count == 0 && advertised == 0) {
        continue;
      }
      Optional<Located<NodePool>> pool = n.labels().get(KarpenterLabels.NODEPOOL).map(pools::get);
      out.add(new GpuTarget(ln, n.name(), n.labels(), n.taints(), model, count > 0 ? count : (int) advertised, pool,
          registered.map(ClusterNode::selection).orElseGet(() -> deviceConfigs.select(ln.value().labels()))));
    }
    for (Located<NodePool> lp : nodePools) {
      NodePool pool = lp.value();
      for (InstanceType type : instances.types()) {
        Optional<InstanceTypeGpus.Attached> gpus = byType.gpus(type.name());
        if (gpus.isEmpty() || gpus.get().count() == 0) {
          continue;
        }
        for (String capacity : capacityTypes(pool)) {
          Labels labels = launchLabels(pool, type, capacity);
          if (pool.template().requirements().stream().allMatch(r -> r.toSelectorRequirement().matches(labels))) {
            out.add(new GpuTarget(lp, pool.name() + "/" + type.name() + "/" + capacity, labels,
                pool.template().taints(), catalog.find(gpus.get().model()), gpus.get().count(), Optional.of(lp),
                deviceConfigs.select(labels)));
          }
        }
      }
    }
    return out;
  }

  /** The capacity types a NodePool allows: its requirement's, else on-demand (Karpenter's default). */
  static List<String> capacityTypes(NodePool pool) {
    List<String> allowed = new ArrayList<>(List.of("on-demand"));
    for (NodePoolRequirement r : pool.template().requirements()) {
      if (r.key().equals(KarpenterLabels.CAPACITY_TYPE)) {
        allowed = CAPACITY_TYPES.stream()
            .filter(c -> r.toSelectorRequirement().matches(Labels.of(KarpenterLabels.CAPACITY_TYPE, c))).toList();
      }
    }
    return allowed;
  }

  /**
   * The labels a node of this type and capacity type launched by the pool carries: the instance
   * type's, the template's, the pool's name, and for any other key a requirement pins with
   * {@code In} (a zone, say) its first value.
   */
  private static Labels launchLabels(NodePool pool, InstanceType type, String capacity) {
    TreeMap<String, String> m = new TreeMap<>(type.labels().map());
    m.putAll(pool.template().labels().map());
    m.put(KarpenterLabels.NODEPOOL, pool.name());
    m.put(KarpenterLabels.CAPACITY_TYPE, capacity);
    for (NodePoolRequirement r : pool.template().requirements()) {
      if (!m.containsKey(r.key()) && r.operator() == RequirementOperator.IN
          && !r.values().isEmpty()) {
        m.put(r.key(), r.values().getFirst());
      }
    }
    return Labels.of(m);
  }
}
