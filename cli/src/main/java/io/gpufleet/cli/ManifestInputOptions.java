package io.gpufleet.cli;

import io.gpufleet.manifest.ManifestBundle;
import io.gpufleet.manifest.ManifestInput;
import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.manifest.ManifestSource;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

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

  /** The texts the options name, in kubectl's order; none given is a usage error. */
  List<ManifestSource> sources() {
    if (filenames.isEmpty()) {
      throw new UserError("no input: give -f FILE (a file, a directory, or - for stdin)");
    }
    return ManifestInput.expand(filenames, recursive, System.in);
  }

  /** Every object of every source, read as one set (duplicates across files are errors). */
  ManifestBundle read() {
    return new ManifestReader(strict).read(sources());
  }
}
