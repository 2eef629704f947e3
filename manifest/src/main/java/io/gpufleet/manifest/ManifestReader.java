package io.gpufleet.manifest;

import io.gpufleet.manifest.kube.DuplicateObjects;
import io.gpufleet.manifest.kube.KubeDecoder;
import io.gpufleet.manifest.kube.KubeObject;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YamlReader;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads Kubernetes manifest files (multi-document YAML, {@code kind: List}, {@code -} for stdin)
 * into a {@link ManifestBundle}. Resolves {@code priorityClassName} to the class's value as the
 * Priority admission plugin does. Two objects of one kind, namespace and name, in any of the files, are
 * an error. Throws {@link ManifestException} with every error found.
 */
public final class ManifestReader {

  /** Built-in classes every cluster has. */
  static final Map<String, Integer> SYSTEM_PRIORITY_CLASSES =
      Map.of("system-cluster-critical", 2_000_000_000, "system-node-critical", 2_000_001_000);

  private final YamlReader yaml = new YamlReader();
  private final boolean strict;

  /** A reader that warns of unknown fields, as {@code kubectl --validate=warn} does. */
  public ManifestReader() {
    this(false);
  }

  /** {@code strict}: unknown fields are errors, as with {@code kubectl --validate=strict}. */
  public ManifestReader(boolean strict) {
    this.strict = strict;
  }

  /**
   * The one entry point for manifests: every source in order (see {@link ManifestInput} for how
   * {@code -f} arguments become sources). Objects of {@code kind: List} contribute their items.
   */
  public ManifestBundle read(List<ManifestSource> sources) {
    Diagnostics diagnostics = new Diagnostics();
    DuplicateObjects duplicates = new DuplicateObjects(diagnostics);
    List<KubeObject> objects = new ArrayList<>();
    for (ManifestSource source : sources) {
      objects.addAll(decode(source.name(), source.text(), diagnostics, duplicates));
    }
    return finish(objects, sources, diagnostics);
  }

  /** Files as kubectl's {@code -f} names them, {@code -} being {@code stdin}. */
  public ManifestBundle read(List<Path> files, InputStream stdin) {
    return read(ManifestInput.expand(files.stream().map(Path::toString).toList(), false, stdin));
  }

  /** Reads manifests from text already in memory (built-in scenarios, tests). */
  public ManifestBundle read(String sourceName, String text) {
    return read(List.of(new ManifestSource(sourceName, text)));
  }

  private List<KubeObject> decode(String name, String text, Diagnostics diagnostics, DuplicateObjects duplicates) {
    List<YNode> docs = yaml.readAll(name, text);
    if (docs.isEmpty()) {
      // kubectl refuses such input ("no objects passed to apply"); here it is said, not silently fine.
      diagnostics.warning(Location.unknown(name), "", "no objects: the file is empty or holds only comments");
    }
    duplicates.check(docs);
    return new KubeDecoder(diagnostics, strict).decodeAll(docs);
  }

  private ManifestBundle finish(List<KubeObject> objects, List<ManifestSource> sources, Diagnostics diagnostics) {
    List<KubeObject> resolved = resolvePriorities(objects, diagnostics);
    diagnostics.throwIfErrors();
    return new ManifestBundle(resolved, diagnostics.warnings(), sources);
  }

  private static List<KubeObject> resolvePriorities(List<KubeObject> objects, Diagnostics diagnostics) {
    Map<String, Integer> classes = new HashMap<>(SYSTEM_PRIORITY_CLASSES);
    Optional<Integer> globalDefault = Optional.empty();
    for (KubeObject o : objects) {
      if (o instanceof KubeObject.PriorityClassObject pc) {
        classes.put(pc.name(), pc.value());
        if (pc.globalDefault()) {
          globalDefault = Optional.of(pc.value());
        }
      }
    }
    List<KubeObject> out = new ArrayList<>(objects.size());
    for (KubeObject o : objects) {
      out.add(switch (o) {
        case KubeObject.PodObject p -> new KubeObject.PodObject(
            p.pod().withSpec(withPriority(p.pod().spec(), classes, globalDefault, p.location(), diagnostics)),
            p.location(), p.phase());
        case KubeObject.WorkloadObject w -> new KubeObject.WorkloadObject(
            withTemplatePriority(w.workload(), classes, globalDefault, w.location(), diagnostics), w.location());
        default -> o;
      });
    }
    return out;
  }

  private static io.gpufleet.model.pod.PodSpec withPriority(io.gpufleet.model.pod.PodSpec spec,
      Map<String, Integer> classes, Optional<Integer> globalDefault, Location at, Diagnostics diagnostics) {
    if (spec.priorityClassName().isPresent()) {
      String name = spec.priorityClassName().get();
      Integer value = classes.get(name);
      if (value == null) {
        diagnostics.error(at, "spec.priorityClassName", "no PriorityClass with name " + name + " was found");
        return spec;
      }
      return spec.withPriority(value);
    }
    return globalDefault.map(spec::withPriority).orElse(spec);
  }

  private static Workload withTemplatePriority(Workload w, Map<String, Integer> classes,
      Optional<Integer> globalDefault, Location at, Diagnostics diagnostics) {
    PodTemplate t = w.template();
    PodTemplate nt = new PodTemplate(t.labels(), t.annotations(),
        withPriority(t.spec(), classes, globalDefault, at, diagnostics));
    return switch (w) {
      case Workload.Deployment d -> new Workload.Deployment(d.meta(), d.replicas(), d.selector(), nt, d.maxSurge(),
          d.maxUnavailable());
      case Workload.ReplicaSet r -> new Workload.ReplicaSet(r.meta(), r.replicas(), r.selector(), nt);
      case Workload.StatefulSet s -> new Workload.StatefulSet(s.meta(), s.replicas(), s.selector(), nt);
      case Workload.Job j -> new Workload.Job(j.meta(), j.parallelism(), j.completions(), j.selector(), nt, j.runFor());
      case Workload.DaemonSet ds -> new Workload.DaemonSet(ds.meta(), ds.selector(), nt);
    };
  }
}
