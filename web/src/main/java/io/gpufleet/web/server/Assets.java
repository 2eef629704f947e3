package io.gpufleet.web.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The only files the dashboard serves: a fixed list, read from the jar once. A request names an
 * entry of the list, never a path, so nothing outside it (no {@code ..}, no other resource of the
 * classpath) can be reached.
 */
final class Assets {

  /** A file of the page: its bytes and media type. */
  record Asset(byte[] bytes, String contentType) {}

  /** Served name → classpath resource and media type. The charts come from the echarts webjar. */
  private static final Map<String, String[]> FILES = Map.of(
      "index.html", new String[] {"/io/gpufleet/web/assets/index.html", "text/html; charset=utf-8"},
      "app.js", new String[] {"/io/gpufleet/web/assets/app.js", "text/javascript; charset=utf-8"},
      "app.css", new String[] {"/io/gpufleet/web/assets/app.css", "text/css; charset=utf-8"},
      "echarts.min.js", new String[] {"/META-INF/resources/webjars/echarts/5.3.1/dist/echarts.min.js",
          "text/javascript; charset=utf-8"},
      "echarts-LICENSE.txt", new String[] {"/META-INF/resources/webjars/echarts/5.3.1/LICENSE",
          "text/plain; charset=utf-8"});

  private final Map<String, Asset> loaded;

  private Assets(Map<String, Asset> loaded) {
    this.loaded = loaded;
  }

  /** Reads every asset; a missing one is a broken build and fails at start, not on a request. */
  static Assets load() {
    TreeMap<String, Asset> m = new TreeMap<>();
    FILES.forEach((name, where) -> {
      try (InputStream in = Assets.class.getResourceAsStream(where[0])) {
        if (in == null) {
          throw new IllegalStateException("the dashboard's asset " + where[0] + " is missing from the build");
        }
        m.put(name, new Asset(in.readAllBytes(), where[1]));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    return new Assets(Collections.unmodifiableMap(m));
  }

  Optional<Asset> get(String name) {
    return Optional.ofNullable(loaded.get(name));
  }
}
