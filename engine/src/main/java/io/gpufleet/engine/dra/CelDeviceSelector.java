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
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Evaluates a DRA selector ({@code selectors[].cel.expression}) against a device with google's
 * CEL implementation. The variable is upstream's {@code device} ({@code
 * k8s.io/dynamic-resource-allocation/cel}): {@code device.driver}, and {@code device.attributes}
 * as a map from domain to a map from attribute name to value, an unqualified name under the
 * driver's own domain. Not modelled: {@code device.capacity} (upstream's quantity type and library)
 * and the semver library ({@code version} attributes are strings); an expression using them fails
 * to compile here with CEL's own message.
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
          .setResultType(SimpleType.BOOL)
          .build(), CelRuntimeFactory.standardCelRuntimeBuilder().build());
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

  /** {@code device} as upstream lays it out: attributes grouped by domain. */
  static Map<String, Object> variable(String driver, Device device) {
    Map<String, Map<String, Object>> byDomain = new TreeMap<>();
    for (var e : device.attributes().entrySet()) {
      String name = e.getKey();
      int slash = name.indexOf('/');
      String domain = slash < 0 ? driver : name.substring(0, slash);
      String id = slash < 0 ? name : name.substring(slash + 1);
      byDomain.computeIfAbsent(domain, d -> new TreeMap<>()).put(id, celValue(e.getValue()));
    }
    return Map.of("driver", driver, "attributes", byDomain);
  }

  private static Object celValue(AttributeValue v) {
    return switch (v) {
      case AttributeValue.Bool b -> b.value();
      case AttributeValue.Int i -> i.value();
      case AttributeValue.Str s -> s.value();
      case AttributeValue.Version ver -> ver.value();
    };
  }
}
