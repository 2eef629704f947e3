package io.gpufleet.manifest.kube;

import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import java.util.List;

/** The problems reading a manifest text reports, each as its printed line; none when it reads. */
final class ReadErrors {

  private ReadErrors() {}

  static List<String> of(String file, String text) {
    try {
      new ManifestReader().read(file, text);
    } catch (ManifestException e) {
      return e.problems().stream().map(ManifestProblem::toString).toList();
    }
    return List.of();
  }
}
