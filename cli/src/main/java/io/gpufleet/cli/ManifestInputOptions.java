package io.gpufleet.cli;

import io.gpufleet.cluster.Cluster;
import io.gpufleet.cluster.ClusterAssembly;
import io.gpufleet.cluster.ClusterSettings;
import io.gpufleet.engine.dra.GpuClaimPreparation;
import io.gpufleet.manifest.GpuCatalogFile;
import io.gpufleet.manifest.ManifestBundle;
import io.gpufleet.manifest.ManifestInput;
import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.manifest.ManifestSource;
import io.gpufleet.manifest.apiserver.AdmissionPlugins;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.nio.file.Path;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.k8s.Snapshot;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * kubectl's input options, one definition for every command that reads Kubernetes manifests
 * ({@code @Mixin}): {@code -f} repeated, {@code -f -}, {@code -f DIR} with {@code -R}, multi-document
 * YAML, {@code kind: List}, JSON; {@code --strict} turns unknown fields into errors.
 */
final class ManifestInputOptions {

  @Option(names = {"-f", "--filename"}, paramLabel = "FILE",
      description = "Manifest file, directory (its .json, .yaml and .yml files) or '-' for stdin; YAML "
          + "(multi-document, kind: List) or JSON. Repeatable.")
  List<String> filenames = new ArrayList<>();

  @Option(names = {"-R", "--recursive"},
      description = "Read the directories given with -f and their subdirectories, as kubectl -R does.")
  boolean recursive;

  @Option(names = "--strict",
      description = "Unknown fields in Kubernetes objects are errors (kubectl --validate=strict), not warnings.")
  boolean strict;

  @Option(names = "--gpu-catalog", paramLabel = "FILE",
      description = "GPU catalogue file in the built-in gpu-catalog.txt format; its models extend or override the "
          + "built-in ones (docs/models.md).")
  String gpuCatalog;

  @Option(names = "--enable-admission-plugins", paramLabel = "NAMES", split = ",",
      description = "kube-apiserver admission plugins to turn on beside EKS's set, comma-separated, as "
          + "kube-apiserver's flag (docs/admission.md).")
  List<String> enableAdmission = new ArrayList<>();

  @Option(names = "--disable-admission-plugins", paramLabel = "NAMES", split = ",",
      description = "Admission plugins of EKS's set to turn off, comma-separated, e.g. ExtendedResourceToleration "
          + "for a cluster that does not enable it (docs/admission.md).")
  List<String> disableAdmission = new ArrayList<>();

  /** {@code --kubeconfig}, {@code --context}, {@code -n}: a live cluster as one more input. */
  @Mixin ClusterOptions cluster = new ClusterOptions();

  @Spec(Spec.Target.MIXEE) CommandSpec mixee;

  /** Whether any input is named, files or a live cluster. */
  boolean given() {
    return !filenames.isEmpty() || cluster.given();
  }

  /**
   * The texts the options name, in kubectl's order, then the live cluster's snapshot: its objects
   * take the same path as a file's (serialised as {@code gpufleet import} writes them, read back by
   * the same reader). None given is a usage error.
   */
  List<ManifestSource> sources() {
    if (!given()) {
      throw new UserError("no input: give -f FILE (a file, a directory, or - for stdin) or --kubeconfig FILE");
    }
    // Read once: a command that asks twice (schedule --explain runs the cluster too) must not find
    // stdin drained or take a second, different snapshot of a live cluster.
    if (sources == null) {
      List<ManifestSource> out = new ArrayList<>(ManifestInput.expand(filenames, recursive, System.in));
      if (cluster.given()) {
        Snapshot s = cluster.read(mixee.commandLine().getErr());
        out.add(new ManifestSource(ClusterOptions.sourceName(s), s.toYaml()));
      }
      sources = List.copyOf(out);
    }
    return sources;
  }

  /** The inputs once read. */
  private List<ManifestSource> sources;

  /** The inputs as a message names them: the -f arguments and the live cluster's context. */
  String names() {
    List<String> names = new ArrayList<>(filenames);
    if (cluster.kubeconfig != null) {
      names.add("cluster:" + (cluster.context == null ? "(current context of " + cluster.kubeconfig + ")"
          : cluster.context));
    }
    return String.join(", ", names);
  }

  /** The GPU catalogue the command uses: the built-in one with {@code --gpu-catalog}'s models over it. */
  GpuCatalog gpuCatalog() {
    return gpuCatalog == null ? GpuCatalog.builtIn()
        : GpuCatalogFile.overBuiltIn(gpuCatalog, Cli.readFile(Path.of(gpuCatalog)));
  }

  /** {@code --gpu-catalog} as a source, for a scenario built from the inputs to name. */
  Optional<ManifestSource> gpuCatalogSource() {
    return Optional.ofNullable(gpuCatalog).map(f -> new ManifestSource(f, Cli.readFile(Path.of(f))));
  }

  /** Every object of every source, read as one set (duplicates across files are errors). */
  ManifestBundle read() {
    return new ManifestReader(strict, admissionPlugins()).read(sources());
  }

  /** The API server's admission plugins: EKS's, with the two options' changes. */
  AdmissionPlugins admissionPlugins() {
    try {
      return AdmissionPlugins.defaults().changed(enableAdmission, disableAdmission);
    } catch (IllegalArgumentException e) {
      throw new UserError("--enable-admission-plugins/--disable-admission-plugins: " + e.getMessage());
    }
  }

  /** Whether either admission option was given. */
  boolean admissionChanged() {
    return !enableAdmission.isEmpty() || !disableAdmission.isEmpty();
  }

  /** The one cluster the inputs describe, as every command sees it ({@link ClusterAssembly}). */
  Cluster cluster() {
    return cluster(GpuClaimPreparation.FeatureGates.DEFAULTS);
  }

  /** The one cluster, NVIDIA's DRA driver running with {@code gates} ({@link DraDriverOptions}). */
  Cluster cluster(GpuClaimPreparation.FeatureGates gates) {
    return ClusterAssembly.assemble(read(), ClusterSettings.defaults().withGpus(gpuCatalog()).withDraDriver(gates));
  }
}
