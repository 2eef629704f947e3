package io.gpufleet.manifest;

import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuCatalogFormatException;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;

/**
 * A user's GPU catalogue file: the built-in {@code gpu-catalog.txt} format (its header explains
 * every key; {@link GpuCatalog#parse} reads both), whose models extend or override the built-in
 * ones ({@link GpuCatalog#with}). {@code GpuCatalog.builtIn().with(GpuCatalogFile.read(name, text))}
 * is the catalogue a command or scenario then uses.
 */
public final class GpuCatalogFile {
  private GpuCatalogFile() {}

  /** The file's models; a problem is a {@link ManifestException} at its file, line and column. */
  public static GpuCatalog read(String name, String text) {
    try {
      return GpuCatalog.parse(name, new StringReader(text));
    } catch (GpuCatalogFormatException e) {
      throw new ManifestException(ManifestProblem.error(new Location(e.file(), e.line(), e.column()), "",
          e.detail()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The built-in catalogue with the file's models laid over it. */
  public static GpuCatalog overBuiltIn(String name, String text) {
    return GpuCatalog.builtIn().with(read(name, text));
  }
}
