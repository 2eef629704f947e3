package io.gpufleet.manifest.advise;

import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YamlReader;
import io.gpufleet.model.advise.Boundness;
import io.gpufleet.model.advise.Burstiness;
import io.gpufleet.model.advise.Trust;
import io.gpufleet.model.advise.WorkloadKind;
import io.gpufleet.model.advise.WorkloadProfile;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads {@code kind: WorkloadProfile} documents ({@code apiVersion: gpufleet.io/v1alpha1}), one or
 * more per file. Every problem is reported at its file, line and column; unknown fields are errors
 * (a misspelt field would silently become a default). See {@code examples/advise/} for the format.
 */
public final class WorkloadProfileReader {

  public static final String API_VERSION = "gpufleet.io/v1alpha1";
  public static final String KIND = "WorkloadProfile";

  private final YamlReader yaml = new YamlReader();

  public ProfileSet read(List<Path> files) {
    Diagnostics d = new Diagnostics();
    List<Located> found = new ArrayList<>();
    List<String> assumptions = new ArrayList<>();
    for (Path file : files) {
      String text;
      try {
        text = Files.readString(file);
      } catch (NoSuchFileException e) {
        throw new ManifestException(ManifestProblem.error(Location.unknown(file.toString()), "", "no such file"));
      } catch (IOException e) {
        throw new ManifestException(ManifestProblem.error(Location.unknown(file.toString()), "", "cannot read: " + e.getMessage()));
      }
      found.addAll(decode(file.toString(), text, d, assumptions));
    }
    return finish(found, d, assumptions);
  }

  /** Reads profiles from text in memory (tests, built-in examples). */
  public ProfileSet read(String file, String text) {
    Diagnostics d = new Diagnostics();
    List<String> assumptions = new ArrayList<>();
    return finish(decode(file, text, d, assumptions), d, assumptions);
  }

  private record Located(WorkloadProfile profile, Optional<String> gpu, Cursor gpuAt, Cursor at) {}

  private ProfileSet finish(List<Located> found, Diagnostics d, List<String> assumptions) {
    if (found.isEmpty() && !d.hasErrors()) {
      d.error(new Location("(input)", 0, 0), "", "no " + KIND + " documents found");
    }
    Map<String, Located> byName = new LinkedHashMap<>();
    Optional<String> gpu = Optional.empty();
    for (Located l : found) {
      Located before = byName.putIfAbsent(l.profile().name(), l);
      if (before != null) {
        l.at().error("workload \"" + l.profile().name() + "\" is defined twice (first at " + before.at().location() + ")");
      }
      if (l.gpu().isPresent()) {
        if (gpu.isPresent() && !gpu.get().equals(l.gpu().get())) {
          l.gpuAt().error("all profiles must name the same GPU, found \"" + l.gpu().get() + "\" after \"" + gpu.get() + "\"");
        }
        gpu = gpu.or(l::gpu);
      }
    }
    d.throwIfErrors();
    Optional<String> gpuAt = found.stream().filter(l -> l.gpu().isPresent()).findFirst()
        .map(l -> l.gpuAt().location().toString());
    return new ProfileSet(found.stream().map(Located::profile).toList(), gpu, gpuAt, assumptions);
  }

  private List<Located> decode(String file, String text, Diagnostics d, List<String> assumptions) {
    List<Located> out = new ArrayList<>();
    for (YNode doc : yaml.readAll(file, text)) {
      Cursor root = Cursor.root(doc, d);
      if (!root.isMap()) {
        root.expected("a " + KIND + " mapping");
        continue;
      }
      root.checkKnown(Set.of("apiVersion", "kind", "metadata", "spec"), true);
      String api = root.requiredString("apiVersion");
      String kind = root.requiredString("kind");
      if (!kind.isEmpty() && !kind.equals(KIND)) {
        root.get("kind").orElse(root).error("expected kind " + KIND + ", found \"" + kind + "\"");
        continue;
      }
      if (!api.isEmpty() && !api.equals(API_VERSION)) {
        root.get("apiVersion").orElse(root).error("expected apiVersion " + API_VERSION + ", found \"" + api + "\"");
      }
      ProfileDraft draft = new ProfileDraft();
      Map<String, Cursor> at = new LinkedHashMap<>();
      at.put("", root);
      root.get("metadata").ifPresent(m -> {
        m.checkKnown(Set.of("name"), true);
        draft.name = m.optString("name").orElse(null);
      });
      if (draft.name == null) {
        root.error("metadata.name is required");
      }
      Optional<Cursor> spec = root.require("spec");
      Optional<String> gpu = Optional.empty();
      Cursor gpuAt = root;
      if (spec.isPresent()) {
        Cursor s = spec.get();
        at.put("spec", s);
        s.checkKnown(Set.of("kind", "replicas", "gpu", "request", "memory", "load", "slo", "trust", "resources"), true);
        s.get("kind").ifPresent(c -> draft.kind = parsed(c, WorkloadKind::parse, "inference, notebook, dev or batch"));
        s.get("replicas").ifPresent(c -> {
          int n = c.asInt();
          if (n < 1 || n > WorkloadProfile.MAX_REPLICAS_IN_ALL) {
            c.error("expected 1 to " + WorkloadProfile.MAX_REPLICAS_IN_ALL + " replicas (advise's limit), found " + n);
          } else {
            // An invalid count is reported here once, not again when the profile is built.
            draft.replicas = n;
          }
        });
        if (s.get("gpu").isPresent()) {
          gpuAt = s.get("gpu").get();
          gpu = Optional.of(knownGpu(gpuAt));
        }
        s.get("request").ifPresent(r -> request(r, draft, at));
        s.get("memory").ifPresent(c -> draft.memoryMiB = mib(c));
        s.get("load").ifPresent(l -> {
          at.put("spec.load", l);
          l.checkKnown(Set.of("rate", "burstiness"), true);
          l.get("rate").ifPresent(c -> draft.rate = positive(c, "a rate in requests per second, such as 5 or 0.5"));
          l.get("burstiness").ifPresent(c -> draft.burstiness = parsed(c, t -> Burstiness.parse(t),
              "poisson, bursty or an inter-arrival SCV in [0.01, 100]"));
        });
        s.get("slo").ifPresent(o -> {
          o.checkKnown(Set.of("p99"), true);
          o.get("p99").ifPresent(c -> draft.sloP99Ms = ms(c));
        });
        s.get("trust").ifPresent(c -> draft.trust = parsed(c, Trust::parse, "trusted or untrusted"));
        s.get("resources").ifPresent(r -> {
          r.checkKnown(Set.of("cpu", "memory"), true);
          r.get("cpu").ifPresent(c -> draft.cpuMillis = millicores(c));
          r.get("memory").ifPresent(c -> draft.hostMemoryMiB = mib(c));
        });
      }
      if (draft.name == null || spec.isEmpty()) {
        continue;
      }
      List<String> mine = new ArrayList<>();
      Optional<WorkloadProfile> p = draft.build((field, message) -> {
        Cursor c = locate(at, field);
        c.diagnostics().error(c.location(), field, message);
      }, mine);
      assumptions.addAll(mine);
      p.ifPresent(profile -> out.add(new Located(profile, Optional.empty(), root, root)));
      if (p.isPresent() && gpu.isPresent()) {
        out.set(out.size() - 1, new Located(p.get(), gpu, gpuAt, root));
      }
    }
    return out;
  }

  /** The nearest cursor read for a field path, so a missing field is reported at its parent. */
  private static Cursor locate(Map<String, Cursor> at, String field) {
    String f = field;
    while (true) {
      Cursor c = at.get(f);
      if (c != null) {
        return c;
      }
      int dot = f.lastIndexOf('.');
      if (dot < 0) {
        return at.get("");
      }
      f = f.substring(0, dot);
    }
  }

  private static void request(Cursor r, ProfileDraft draft, Map<String, Cursor> at) {
    at.put("spec.request", r);
    r.checkKnown(Set.of("model", "kernels", "measured"), true);
    r.get("model").ifPresent(m -> {
      at.put("spec.request.model", m);
      m.checkKnown(Set.of("parameters", "bytesPerParameter", "tokens"), true);
      Optional<Cursor> params = m.require("parameters");
      params.ifPresent(c -> draft.parameters = count(c));
      m.get("bytesPerParameter").ifPresent(c -> draft.bytesPerParameter = positive(c, "bytes per parameter, such as 2 for bf16"));
      m.get("tokens").ifPresent(c -> {
        int t = c.asInt();
        if (t < 1) {
          c.error("expected at least 1 token, found " + t);
        }
        draft.tokens = Math.max(1, t);
      });
      if (params.isEmpty()) {
        draft.parameters = 1.0; // reported as missing already; keeps the request from counting as absent
      }
    });
    r.get("kernels").ifPresent(c -> {
      int k = c.asInt();
      if (k < 1) {
        c.error("expected at least 1 kernel per request, found " + k);
      }
      draft.kernels = Math.max(1, k);
    });
    r.get("measured").ifPresent(m -> {
      at.put("spec.request.measured", m);
      m.checkKnown(Set.of("gpu", "latency", "throughput", "bound"), true);
      draft.measuredGpu = m.get("gpu").map(WorkloadProfileReader::knownGpu).orElse(null);
      Optional<Cursor> latency = m.get("latency");
      Optional<Cursor> throughput = m.get("throughput");
      if (latency.isPresent() && throughput.isPresent()) {
        throughput.get().error("give latency or throughput, not both (alone and back to back, one is 1/the other)");
      }
      if (latency.isEmpty() && throughput.isEmpty()) {
        m.error("required: latency (a lone request's mean) or throughput (requests per second alone, back to back)");
      }
      draft.measuredLatencyMs = latency.map(WorkloadProfileReader::ms)
          .or(() -> throughput.map(c -> 1000 / positive(c, "requests per second, such as 270")))
          .orElse(1.0);
      m.get("bound").ifPresent(c -> draft.measuredBound = parsed(c, Boundness::parse, "memory or launch"));
    });
  }

  /** A GPU the catalogue knows, with its memory and bandwidth (the model needs both). */
  private static String knownGpu(Cursor c) {
    String name = c.asString();
    Optional<GpuModel> gpu = GpuCatalog.builtIn().find(name);
    if (gpu.isEmpty()) {
      c.error("unknown GPU \"" + name + "\"; known: " + String.join(", ",
          GpuCatalog.builtIn().models().stream().map(GpuModel::id).toList()));
    } else if (gpu.get().bandwidthGBps().isEmpty() || gpu.get().memoryMiB().isEmpty()) {
      c.error("the memory size or bandwidth of " + gpu.get().id() + " is not known, so its sharing cannot be modelled");
    }
    return name;
  }

  private static <T> T parsed(Cursor c, Function<String, Optional<T>> parse, String expected) {
    String text = c.asString();
    Optional<T> v = parse.apply(text);
    if (v.isEmpty()) {
      c.error("expected " + expected + ", found \"" + text + "\"");
      return null;
    }
    return v.get();
  }

  /** A scalar's text whatever YAML typed it as: {@code 5}, {@code 0.5} and {@code "5"} alike. */
  private static String text(Cursor c) {
    if (c.node() instanceof YNode.YScalar s && s.type() != YNode.YScalar.Type.BOOLEAN) {
      return s.text();
    }
    c.expected("a scalar");
    return "";
  }

  private static Double positive(Cursor c, String expected) {
    String t = text(c);
    OptionalDouble v = ProfileValues.positive(t);
    if (v.isEmpty()) {
      c.error("expected " + expected + ", found \"" + t + "\"");
      return 1.0;
    }
    return v.getAsDouble();
  }

  private static Double count(Cursor c) {
    String t = text(c);
    OptionalDouble v = ProfileValues.count(t);
    if (v.isEmpty()) {
      c.error("expected a parameter count such as 1.5B, 350M or 7e9, found \"" + t + "\"");
      return 1.0;
    }
    return v.getAsDouble();
  }

  private static Double ms(Cursor c) {
    String t = text(c);
    OptionalDouble v = ProfileValues.milliseconds(t);
    if (v.isEmpty()) {
      c.error("expected a duration such as 50ms or 0.25s, found \"" + t + "\"");
      return 1.0;
    }
    return v.getAsDouble();
  }

  private static Long mib(Cursor c) {
    String t = text(c);
    OptionalLong v = ProfileValues.mebibytes(t);
    if (v.isEmpty()) {
      c.error("expected a memory quantity such as 4Gi or 3500Mi, found \"" + t + "\"");
      return 1L;
    }
    return v.getAsLong();
  }

  private static long millicores(Cursor c) {
    String t = text(c);
    OptionalLong v = ProfileValues.millicores(t);
    if (v.isEmpty()) {
      c.error("expected a CPU quantity such as 1 or 500m, found \"" + t + "\"");
      return 0;
    }
    return v.getAsLong();
  }
}
