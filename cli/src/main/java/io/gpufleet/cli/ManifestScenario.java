package io.gpufleet.cli;

import io.gpufleet.manifest.ManifestSource;
import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.scenario.ScenarioReader;
import io.gpufleet.scenario.ScenarioSources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Manifests given with {@code -f} or {@code --kubeconfig} run as a scenario of one step: the cluster
 * as they describe it, then {@code runFor} with no changes. The scenario names each source as its
 * own file, so problems in it point at the user's file (or the live snapshot) by line and column.
 */
final class ManifestScenario {
  private ManifestScenario() {}

  static ScenarioFile of(String name, List<ManifestSource> sources, Duration runFor, boolean strict) {
    return of(name, sources, Optional.empty(), List.of(), List.of(), runFor, strict);
  }

  /**
   * As above, with a GPU catalogue file ({@code --gpu-catalog}) as the scenario's {@code spec.gpuCatalog},
   * and the admission options as its {@code spec.apiServer}.
   */
  static ScenarioFile of(String name, List<ManifestSource> manifests, Optional<ManifestSource> gpuCatalog,
      List<String> enableAdmission, List<String> disableAdmission, Duration runFor, boolean strict) {
    List<ManifestSource> sources = new ArrayList<>(manifests);
    gpuCatalog.ifPresent(sources::add);
    StringBuilder y = new StringBuilder()
        .append("apiVersion: ").append(ScenarioReader.API_VERSION).append('\n')
        .append("kind: Scenario\n")
        .append("metadata: {name: \"").append(name).append("\"}\n")
        .append("spec:\n");
    if (gpuCatalog.isPresent()) {
      y.append("  gpuCatalog: \"").append(manifests.size()).append("\"\n");
    }
    if (!enableAdmission.isEmpty() || !disableAdmission.isEmpty()) {
      y.append("  apiServer:\n")
          .append("    enableAdmissionPlugins: ").append(flow(enableAdmission)).append('\n')
          .append("    disableAdmissionPlugins: ").append(flow(disableAdmission)).append('\n');
    }
    y.append("  cluster:\n");
    for (int i = 0; i < manifests.size(); i++) {
      y.append("  - {file: \"").append(i).append("\"}\n");
    }
    y.append("  steps:\n")
        .append("  - title: \"").append(runFor.getSeconds()).append("s with no changes\"\n")
        .append("    actions:\n")
        .append("    - wait: ").append(runFor.getSeconds()).append("s\n");
    return ScenarioReader.read("<manifests>", y.toString(), new ScenarioSources() {
      @Override
      public String read(String path, Location at) {
        return source(path).text();
      }

      @Override
      public String name(String path) {
        return source(path).name();
      }

      private ManifestSource source(String path) {
        int i = Integer.parseInt(path);
        if (i < 0 || i >= sources.size()) {
          throw new ManifestException(ManifestProblem.error(Location.unknown(path), "file", "no such input"));
        }
        return sources.get(i);
      }
    }, strict);
  }

  /** Names as a YAML flow list of quoted strings (the names were checked to be plugin names first). */
  private static String flow(List<String> names) {
    return names.stream().map(n -> "\"" + n + "\"").collect(Collectors.joining(", ", "[", "]"));
  }
}
