package io.gpufleet.engine.dra;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.gpufleet.model.dra.AttributeValue;
import io.gpufleet.model.dra.Device;
import io.gpufleet.model.resource.Quantity;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Evaluates a DRA selector ({@code selectors[].cel.expression}) against a device with google's
 * CEL implementation. The variable is upstream's {@code device} ({@code
 * k8s.io/dynamic-resource-allocation/cel/compile.go}): {@code device.driver}, {@code
 * device.attributes} and {@code device.capacity} as maps from domain to a map from name to value, an
 * unqualified name under the driver's own domain. A {@code version} attribute is a semantic version
 * and a capacity a quantity, with the functions of Kubernetes' CEL libraries for them
 * ({@code k8s.io/apiserver/pkg/cel/library}: {@link CelLibraries}), so
 * {@code device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0} and
 * {@code device.attributes["gpu.nvidia.com"].driverVersion.isGreaterThan(semver("550.0.0"))} work as
 * on a cluster. Not modelled: the rest of the Kubernetes base environment (lists, regex, URLs, IP and
 * CIDR libraries, {@code cel.bind}); an expression using them fails to compile with CEL's message.
 *
 * <p>Each instance caches its compiled programs (upstream keeps an LRU cache of them); it is used
 * by one scheduling run, never shared.
 */
public final class CelDeviceSelector {

  /** What one expression made of one device. */
  public sealed interface Outcome {
    record Match() implements Outcome {}

    record NoMatch() implements Outcome {}

    /** The expression did not compile or failed at run time (a missing attribute, a wrong type). */
    record Failed(String message) implements Outcome {}
  }

  private sealed interface Compiled {
    record Ok(CelRuntime.Program program) implements Compiled {}

    record Invalid(String message) implements Compiled {}
  }

  /** CEL's compiler and runtime, made when the first expression is compiled. */
  private record Cel(CelCompiler compiler, CelRuntime runtime) {
    static Cel make() {
      return new Cel(CelCompilerFactory.standardCelCompilerBuilder()
          .addVar("device", MapType.create(SimpleType.STRING, SimpleType.DYN))
          .addFunctionDeclarations(CelLibraries.declarations())
          .setResultType(SimpleType.BOOL)
          .build(), CelRuntimeFactory.standardCelRuntimeBuilder().addFunctionBindings(CelLibraries.bindings()).build());
    }
  }

  // Made on first use: every schedule run builds this selector, and loading CEL (with protobuf and
  // guava) cost a pod-less or DRA-less run about a third of its start-up.
  private Cel cel;
  private final Map<String, Compiled> programs = new HashMap<>();

  /** The compile error of an expression, if any. */
  public java.util.Optional<String> compileError(String expression) {
    return compile(expression) instanceof Compiled.Invalid i ? java.util.Optional.of(i.message())
        : java.util.Optional.empty();
  }

  public Outcome evaluate(String expression, String driver, Device device) {
    return switch (compile(expression)) {
      case Compiled.Invalid i -> new Outcome.Failed(i.message());
      case Compiled.Ok ok -> {
        try {
          Object result = ok.program().eval(Map.of("device", variable(driver, device)));
          yield Boolean.TRUE.equals(result) ? new Outcome.Match() : new Outcome.NoMatch();
        } catch (CelEvaluationException e) {
          yield new Outcome.Failed("CEL runtime error: " + e.getMessage());
        } catch (BadAttribute e) {
          yield new Outcome.Failed("CEL runtime error: " + e.getMessage());
        }
      }
    };
  }

  private Compiled compile(String expression) {
    return programs.computeIfAbsent(expression, e -> {
      try {
        if (cel == null) {
          cel = Cel.make();
        }
        CelAbstractSyntaxTree ast = cel.compiler().compile(e).getAst();
        return new Compiled.Ok(cel.runtime().createProgram(ast));
      } catch (CelValidationException ex) {
        return new Compiled.Invalid("compilation failed: " + ex.getMessage());
      } catch (CelEvaluationException ex) {
        return new Compiled.Invalid(ex.getMessage());
      }
    });
  }

  /** A device value CEL cannot be given; upstream's {@code DeviceMatches} fails with these words. */
  static final class BadAttribute extends Exception {
    BadAttribute(String message) {
      super(message);
    }
  }

  /** {@code device} as upstream lays it out: attributes and capacities grouped by domain. */
  static Map<String, Object> variable(String driver, Device device) throws BadAttribute {
    Map<String, Map<String, Object>> byDomain = new TreeMap<>();
    for (var e : device.attributes().entrySet()) {
      put(byDomain, driver, e.getKey(), celValue(e.getKey(), e.getValue()));
    }
    Map<String, Map<String, Object>> capacity = new TreeMap<>();
    for (var e : device.capacity().entrySet()) {
      // A slice's capacities were checked as quantities when read or derived.
      put(capacity, driver, e.getKey(), Quantity.parse(e.getValue()));
    }
    return Map.of("driver", driver, "attributes", byDomain, "capacity", capacity);
  }

  private static void put(Map<String, Map<String, Object>> byDomain, String driver, String name, Object value) {
    int slash = name.indexOf('/');
    String domain = slash < 0 ? driver : name.substring(0, slash);
    String id = slash < 0 ? name : name.substring(slash + 1);
    byDomain.computeIfAbsent(domain, d -> new TreeMap<>()).put(id, value);
  }

  /** {@code getAttributeValue}: a version attribute is parsed as a semantic version. */
  private static Object celValue(String name, AttributeValue v) throws BadAttribute {
    return switch (v) {
      case AttributeValue.Bool b -> b.value();
      case AttributeValue.Int i -> i.value();
      case AttributeValue.Str s -> s.value();
      case AttributeValue.Version ver -> {
        try {
          yield Semver.parse(ver.value());
        } catch (Semver.Invalid e) {
          throw new BadAttribute("attribute " + name + ": parse semantic version: " + e.getMessage());
        }
      }
    };
  }
}
