package io.gpufleet.manifest;

import io.gpufleet.manifest.apiserver.Admission;
import io.gpufleet.manifest.apiserver.AdmissionPlugins;
import io.gpufleet.manifest.kube.DuplicateObjects;
import io.gpufleet.manifest.kube.KubeDecoder;
import io.gpufleet.manifest.kube.KubeObject;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YamlReader;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads Kubernetes manifest files (multi-document YAML, {@code kind: List}, {@code -} for stdin)
 * into a {@link ManifestBundle}, defaulted and admitted as the API server would ({@link Admission},
 * with EKS's admission plugins unless told otherwise). Two objects of one kind, namespace and name, in any of the files, are
 * an error. Throws {@link ManifestException} with every error found.
 */
public final class ManifestReader {

  private final YamlReader yaml = new YamlReader();
  private final boolean strict;
  private final AdmissionPlugins plugins;

  /** A reader that warns of unknown fields, as {@code kubectl --validate=warn} does. */
  public ManifestReader() {
    this(false);
  }

  /** {@code strict}: unknown fields are errors, as with {@code kubectl --validate=strict}. */
  public ManifestReader(boolean strict) {
    this(strict, AdmissionPlugins.defaults());
  }

  /** As {@link #ManifestReader(boolean)}, with these admission plugins on. */
  public ManifestReader(boolean strict, AdmissionPlugins plugins) {
    this.strict = strict;
    this.plugins = plugins;
  }

  /**
   * The one entry point for manifests: every source in order (see {@link ManifestInput} for how
   * {@code -f} arguments become sources). Objects of {@code kind: List} contribute their items.
   */
  public ManifestBundle read(List<ManifestSource> sources) {
    Diagnostics diagnostics = new Diagnostics();
    DuplicateObjects duplicates = new DuplicateObjects(diagnostics);
    List<KubeObject> objects = new ArrayList<>();
    // One decoder for every source: each new one reads the API's field tables again (a directory of
    // 12,000 small files opened the jar 12,000 times).
    KubeDecoder decoder = new KubeDecoder(diagnostics, strict);
    for (ManifestSource source : sources) {
      objects.addAll(decode(source.name(), source.text(), diagnostics, duplicates, decoder));
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

  private List<KubeObject> decode(String name, String text, Diagnostics diagnostics, DuplicateObjects duplicates,
      KubeDecoder decoder) {
    List<YNode> docs = yaml.readAll(name, text);
    if (docs.isEmpty()) {
      // kubectl refuses such input ("no objects passed to apply"); here it is said, not silently fine.
      diagnostics.warning(Location.unknown(name), "", "no objects: the file is empty or holds only comments");
    }
    duplicates.check(docs);
    return decoder.decodeAll(docs);
  }

  private ManifestBundle finish(List<KubeObject> objects, List<ManifestSource> sources, Diagnostics diagnostics) {
    List<KubeObject> resolved = new Admission(plugins).admit(objects, diagnostics);
    diagnostics.throwIfErrors();
    return new ManifestBundle(resolved, diagnostics.warnings(), sources);
  }
}
