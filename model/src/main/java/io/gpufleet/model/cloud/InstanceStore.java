package io.gpufleet.model.cloud;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The instance-store (local NVMe) volumes' total size of each built-in instance type, in decimal GB,
 * as EC2's {@code InstanceStorageInfo.TotalSizeInGB} gives it (the table and its source are in
 * {@code aws-instance-store.txt}). A type not listed has none.
 */
public final class InstanceStore {
  private InstanceStore() {}

  static final String RESOURCE = "aws-instance-store.txt";

  private static final Map<String, Long> TOTAL_GB = load();

  /** The type's instance-store total in GB, if it has instance storage. */
  public static OptionalLong totalGb(String instanceType) {
    Long gb = TOTAL_GB.get(instanceType);
    return gb == null ? OptionalLong.empty() : OptionalLong.of(gb);
  }

  private static Map<String, Long> load() {
    try (InputStream in = InstanceStore.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the built-in instance-store table " + RESOURCE + " is missing");
      }
      Map<String, Long> out = new TreeMap<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        String l = line.strip();
        if (l.isEmpty() || l.startsWith("#")) {
          continue;
        }
        String[] f = l.split("\\s+");
        out.put(f[0], Long.parseLong(f[1]));
      }
      return Map.copyOf(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
