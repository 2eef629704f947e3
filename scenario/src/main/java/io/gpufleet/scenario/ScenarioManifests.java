package io.gpufleet.scenario;

import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YamlReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The manifests a scenario names: {@code spec.cluster} and each step's {@code apply}, objects
 * written in place or {@code {file: ...}} entries naming files or directories relative to the
 * scenario. One reading serves the simulator ({@link ScenarioReader}) and {@code gpufleet lint},
 * which checks a scenario's manifests where they are written.
 */
public final class ScenarioManifests {

  private ScenarioManifests() {}

  /**
   * Manifests from one place: a file the scenario names (its name as messages give it, its text,
   * its documents), or one object written in the scenario ({@code inPlace}: the scenario's name and
   * text, the object's node).
   */
  public record Part(String file, String text, List<YNode> docs, boolean inPlace) {
    public Part {
      docs = List.copyOf(docs);
    }
  }

  /** A part and what brings it into the cluster: {@code spec.cluster}, or a step ({@code step 3.1}). */
  public record Applied(Part part, String by) {}

  /** Whether a document is a {@code gpufleet.io/v1alpha1 Scenario}. */
  public static boolean isScenario(YNode doc) {
    return doc instanceof YNode.YMap m && scalar(m, "apiVersion").equals(ScenarioReader.API_VERSION)
        && scalar(m, "kind").equals("Scenario");
  }

  private static String scalar(YNode.YMap m, String key) {
    var e = m.entries().get(key);
    return e != null && e.value() instanceof YNode.YScalar s ? s.text() : "";
  }

  /**
   * Every part the scenario applies: {@code spec.cluster}'s, then each step's {@code apply} actions'
   * in order. A file that cannot be read, or an entry of the wrong shape, is a
   * {@code ManifestException} at the place the scenario names it; nothing else of the scenario is
   * checked here ({@code gpufleet simulate} reads the rest).
   */
  public static List<Applied> applied(String file, String text, YNode doc, ScenarioSources sources) {
    Diagnostics diagnostics = new Diagnostics();
    YamlReader yaml = new YamlReader();
    List<Applied> out = new ArrayList<>();
    Cursor root = Cursor.root(doc, diagnostics);
    Optional<Cursor> spec = root.get("spec");
    if (spec.isPresent() && spec.get().isMap()) {
      for (Cursor entry : spec.get().list("cluster")) {
        entry(entry, text, sources, yaml).forEach(p -> out.add(new Applied(p, "spec.cluster")));
      }
      int index = 0;
      for (Cursor step : spec.get().list("steps")) {
        index++;
        if (!step.isMap()) {
          continue;
        }
        String id = step.string("id", "");
        String by = "step " + (id.isEmpty() ? String.valueOf(index) : id);
        for (Cursor action : step.list("actions")) {
          Optional<Cursor> apply = action.isMap() ? action.get("apply") : Optional.empty();
          if (apply.isEmpty()) {
            continue;
          }
          for (Cursor entry : apply.get().node() instanceof YNode.YList ? apply.get().asList() : List.of(apply.get())) {
            entry(entry, text, sources, yaml).forEach(p -> out.add(new Applied(p, by)));
          }
        }
      }
    }
    diagnostics.throwIfErrors();
    return out;
  }

  /**
   * The parts one manifest entry stands for: an object written in place, or {@code {file: ...}}
   * naming what {@code kubectl -f} takes: a file, a directory (its .json, .yaml and .yml files in
   * name order; its subdirectories too with {@code recursive: true}, as {@code -R}), or a list of
   * them. A wrong shape is reported at the entry and gives no part.
   */
  static List<Part> entry(Cursor entry, String scenarioText, ScenarioSources sources, YamlReader yaml) {
    if (!entry.isMap()) {
      entry.expected("{file: path} or a Kubernetes object");
      return List.of();
    }
    Optional<Cursor> file = entry.get("file");
    if (file.isEmpty()) {
      return List.of(new Part(entry.location().file(), scenarioText, List.of(entry.node()), true));
    }
    entry.checkKnown(Set.of("file", "recursive"), true);
    boolean recursive = entry.bool("recursive", false);
    List<Cursor> named = file.get().node() instanceof YNode.YList ? file.get().asList() : List.of(file.get());
    List<Part> out = new ArrayList<>();
    for (Cursor f : named) {
      for (String path : sources.expand(f.asString(), recursive, f.location())) {
        String text = sources.read(path, f.location());
        out.add(new Part(sources.name(path), text, yaml.readAll(sources.name(path), text), false));
      }
    }
    return out;
  }
}
