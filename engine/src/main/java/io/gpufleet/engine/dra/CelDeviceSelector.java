package io.gpufleet.engine.dra;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelErrorCode;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.validator.CelValidator;
import dev.cel.validator.CelValidatorFactory;
import dev.cel.validator.validators.HomogeneousLiteralValidator;
import dev.cel.validator.validators.RegexLiteralValidator;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.gpufleet.model.dra.AttributeValue;
import io.gpufleet.model.dra.Device;
import io.gpufleet.model.dra.SelectorCompiler;
import io.gpufleet.model.resource.Quantity;
import java.util.AbstractMap;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 * on a cluster. The rest of the environment is what {@link Cel} lists. Not offered by {@code dev.cel},
 * so not modelled: Kubernetes' own lists ({@code isSorted}, {@code sum}, {@code min}, {@code max},
 * {@code indexOf}, {@code lastIndexOf}), regex ({@code find}, {@code findAll}), URL, IP, CIDR, format
 * and image libraries, ; an expression using those functions fails to compile with CEL's message.
 *
 * <p>Cost, as the API server and scheduler bound it with {@code CELSelectorExpressionMaxCost}
 * ({@value #COST_LIMIT}, k8s.io/api resource/v1 types.go): an expression whose estimated worst-case
 * cost ({@link CelCostEstimate}) exceeds it is {@link #tooComplex too complex} when read and is never
 * run; a run is stopped once its actual cost passes the limit ({@link RuntimeCost}), failing with
 * cel-go's words, so no selector can loop for long or build an unbounded string or list.
 *
 * <p>Each instance caches its compiled programs (upstream keeps an LRU cache of them); it is used
 * by one scheduling run, never shared.
 */
public final class CelDeviceSelector implements SelectorCompiler, DeviceSelector {

  /** What one expression made of one device. */
  public sealed interface Outcome {
    record Match() implements Outcome {}

    record NoMatch() implements Outcome {}

    /** The expression did not compile or failed at run time (a missing attribute, a wrong type). */
    record Failed(String message) implements Outcome {}
  }

  private sealed interface Compiled {
    /** A program and its estimated worst-case cost ({@link CelCostEstimate}). */
    record Ok(CelRuntime.Program program, long estimatedCost) implements Compiled {}

    record Invalid(String message) implements Compiled {}
  }

  /**
   * CEL's compiler and runtime, made when the first expression is compiled: the Kubernetes CEL
   * environment as {@code dev.cel} offers it ({@code k8s.io/apiserver/pkg/cel/environment/base.go}
   * plus DRA's {@code ext.Bindings}): the standard macros ({@code has}, {@code all}, {@code exists},
   * {@code exists_one}, {@code map}, {@code filter}), cross-type numeric comparisons, optional types,
   * the strings and sets extensions, two-variable comprehensions, {@code cel.bind}, regular
   * expression literals checked at compile time, homogeneous aggregate literals, and the quantity and
   * semver libraries ({@link CelLibraries}).
   */
  private record Cel(CelCompiler compiler, CelValidator validator, CelRuntime runtime) {
    static Cel make() {
      CelOptions options = CelOptions.current().enableHeterogeneousNumericComparisons(true)
          .enableOptionalSyntax(true).build();
      CelCompiler compiler = CelCompilerFactory.standardCelCompilerBuilder()
          .setOptions(options)
          .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
          .setTypeProvider(Environment.DEVICE_TYPES)
          .addVar("device", Environment.DEVICE)
          .addFunctionDeclarations(CelLibraries.declarations())
          .addLibraries(CelExtensions.strings(), CelExtensions.sets(options), CelExtensions.optional(),
              CelExtensions.bindings(), CelExtensions.comprehensions())
          .build();
      CelRuntime runtime = CelRuntimeFactory.standardCelRuntimeBuilder()
          .setOptions(options)
          .addFunctionBindings(CelLibraries.bindings())
          .addLibraries(CelExtensions.strings(), CelExtensions.sets(options), CelExtensions.optional(),
              CelExtensions.comprehensions())
          .build();
      CelValidator validator = CelValidatorFactory.standardCelValidatorBuilder(compiler, runtime)
          .addAstValidators(RegexLiteralValidator.INSTANCE, HomogeneousLiteralValidator.newInstance())
          .build();
      return new Cel(compiler, validator, runtime);
    }
  }

  /**
   * The environment, built once when the first expression is compiled (the holder idiom: immutable
   * once made, and CEL's compiler and runtime are thread-safe). Every schedule run makes a selector
   * and the manifest reader another, and loading CEL (with protobuf and guava) cost a pod-less or
   * DRA-less run about a third of its start-up, so neither builds it until a selector is seen; nor
   * the device's CEL type, which loads CEL's type classes and guava's immutable collections.
   */
  private static final class Environment {
    /**
     * Upstream's {@code kubernetes.DRADevice}: {@code driver}, {@code attributes} (domain to name to
     * value), {@code capacity} (domain to name to quantity) and, with DRAConsumableCapacity (on by
     * default in v1.37), {@code allowMultipleAllocations}; any other field is a compile error.
     */
    static final StructType DEVICE = StructType.create("kubernetes.DRADevice",
        ImmutableSet.of("driver", "attributes", "capacity", "allowMultipleAllocations"), field -> switch (field) {
          case "driver" -> Optional.of(SimpleType.STRING);
          case "allowMultipleAllocations" -> Optional.of(SimpleType.BOOL);
          case "attributes" -> Optional.of(MapType.create(SimpleType.STRING, MapType.create(SimpleType.STRING,
              SimpleType.DYN)));
          case "capacity" -> Optional.of(MapType.create(SimpleType.STRING, MapType.create(SimpleType.STRING,
              CelLibraries.QUANTITY)));
          default -> Optional.empty();
        });

    static final CelTypeProvider DEVICE_TYPES = new CelTypeProvider() {
      @Override
      public ImmutableCollection<CelType> types() {
        return ImmutableList.of(DEVICE);
      }

      @Override
      public Optional<CelType> findType(String name) {
        return name.equals(DEVICE.name()) ? Optional.of(DEVICE) : Optional.empty();
      }
    };

    /** Made after the two above, which it uses. */
    static final Cel CEL = Cel.make();
  }

  /** {@code resource.CELSelectorExpressionMaxCost}: the estimated and the runtime cost limit alike. */
  public static final long COST_LIMIT = 1_000_000;

  /** cel-go's interpreter when a run passes its cost limit ({@code interpreter/runtimecost.go}). */
  static final String COST_EXCEEDED = "operation cancelled: actual cost limit exceeded";

  /** validateCELSelector's words for an expression whose estimate exceeds the limit. */
  static final String TOO_COMPLEX = "too complex, exceeds cost limit";

  private final Map<String, Compiled> programs = new HashMap<>();
  private final boolean estimate;

  public CelDeviceSelector() {
    this(true);
  }

  /**
   * With {@code estimate} false the estimated-cost check is skipped (upstream's
   * {@code Options.DisableCostEstimation}), so the runtime limit alone stops a run: for tests.
   */
  CelDeviceSelector(boolean estimate) {
    this.estimate = estimate;
  }

  /** One run: its outcome and the cost it counted (0 when it did not run). */
  record Run(Outcome outcome, double cost) {}

  /**
   * A run's actual cost, counted as CEL evaluates each node (cel-java's evaluation listener): 1 per
   * node, plus a tenth of the size of each string, list or map it yields (cel-go's
   * {@code StringTraversalCostFactor}); past {@link #COST_LIMIT} the run is stopped by throwing.
   */
  private static final class RuntimeCost implements dev.cel.runtime.CelEvaluationListener {
    private double cost;

    @Override
    public void callback(dev.cel.common.ast.CelExpr expr, Object result) {
      cost += 1;
      if (result instanceof CharSequence cs) {
        cost += 0.1 * cs.length();
      } else if (result instanceof java.util.Collection<?> c) {
        cost += 0.1 * c.size();
      } else if (result instanceof Map<?, ?> m) {
        cost += 0.1 * m.size();
      } else if (result instanceof dev.cel.common.values.CelByteString b) {
        cost += 0.1 * b.size();
      }
      if (cost > COST_LIMIT) {
        throw new CostExceeded();
      }
    }
  }

  /** Thrown from inside CEL's interpreter to stop a run; carries no stack trace. */
  private static final class CostExceeded extends RuntimeException {
    CostExceeded() {
      super(COST_EXCEEDED, null, false, false);
    }
  }

  /**
   * Whether {@code expression} compiles and its estimated worst-case cost exceeds {@link #COST_LIMIT}:
   * the API server refuses it ({@code Forbidden: too complex, exceeds cost limit}).
   */
  @Override
  public boolean tooComplex(String expression) {
    return compile(expression) instanceof Compiled.Ok ok && ok.estimatedCost() > COST_LIMIT;
  }

  /** The estimated worst-case cost of a compiled expression; empty when it does not compile. */
  public java.util.OptionalLong estimatedCost(String expression) {
    return compile(expression) instanceof Compiled.Ok ok ? java.util.OptionalLong.of(ok.estimatedCost())
        : java.util.OptionalLong.empty();
  }

  /** The compile error of an expression, if any. */
  @Override
  public Optional<String> compileError(String expression) {
    return compile(expression) instanceof Compiled.Invalid i ? Optional.of(i.message()) : Optional.empty();
  }

  @Override
  public Outcome evaluate(String expression, String driver, Device device) {
    return run(expression, driver, device).outcome();
  }

  Run run(String expression, String driver, Device device) {
    RuntimeCost cost = new RuntimeCost();
    return new Run(outcome(expression, driver, device, cost), cost.cost);
  }

  private Outcome outcome(String expression, String driver, Device device, RuntimeCost cost) {
    return switch (compile(expression)) {
      case Compiled.Invalid i -> new Outcome.Failed(i.message());
      case Compiled.Ok ok when estimate && ok.estimatedCost() > COST_LIMIT -> new Outcome.Failed(TOO_COMPLEX);
      case Compiled.Ok ok -> {
        try {
          Object result = ok.program().trace(Map.of("device", variable(driver, device)), cost);
          if (!(result instanceof Boolean b)) {
            // An expression typed dyn (an attribute's value) that yields no bool fails as a runtime error,
            // as cel/compile.go DeviceMatches fails ConvertToNative(bool); cel-go's words for a string.
            yield new Outcome.Failed("CEL runtime error: " + notBool(result));
          }
          yield b ? new Outcome.Match() : new Outcome.NoMatch();
        } catch (CelEvaluationException e) {
          // cel-java wraps what the listener throws in its evaluation error, with the node's position.
          yield new Outcome.Failed("CEL runtime error: " + (e.getCause() instanceof CostExceeded ? COST_EXCEEDED
              : runtimeMessage(e)));
        } catch (BadAttribute e) {
          yield new Outcome.Failed("CEL runtime error: " + e.getMessage());
        } catch (CostExceeded e) {
          yield new Outcome.Failed("CEL runtime error: " + COST_EXCEEDED);
        }
      }
    };
  }

  private Compiled compile(String expression) {
    return programs.computeIfAbsent(expression, e -> {
      try {
        Cel cel = Environment.CEL;
        CelAbstractSyntaxTree ast = cel.validator().validate(cel.compiler().compile(e).getAst()).getAst();
        CelType type = ast.getResultType();
        if (!type.equals(SimpleType.BOOL) && !type.equals(SimpleType.DYN)) {
          // cel/compile.go CompileCELExpression: the result must be bool or dyn, checked after compiling.
          return new Compiled.Invalid("must evaluate to bool or the unknown type, not " + type.name());
        }
        return new Compiled.Ok(cel.runtime().createProgram(ast), CelCostEstimate.of(ast.getExpr()));
      } catch (CelValidationException ex) {
        return new Compiled.Invalid("compilation failed: " + ex.getMessage());
      } catch (CelEvaluationException ex) {
        return new Compiled.Invalid(ex.getMessage());
      }
    });
  }

  /**
   * {@code CEL result of type <t> could not be converted to bool: ...}: cel/compile.go DeviceMatches,
   * with cel-go's ConvertToNative error for a string ({@code unsupported native conversion from string
   * to 'bool'}); for another type the cause after the colon is left out, as its words were not checked.
   */
  static String notBool(Object result) {
    String type = result instanceof String ? "string" : result instanceof Long ? "int" : result instanceof Double
        ? "double" : result == null ? "null_type" : result.getClass().getSimpleName();
    String prefix = "CEL result of type " + type + " could not be converted to bool";
    return result instanceof String ? prefix + ": unsupported native conversion from string to 'bool'" : prefix;
  }

  /** A device value CEL cannot be given; upstream's {@code DeviceMatches} fails with these words. */
  static final class BadAttribute extends Exception {
    BadAttribute(String message) {
      super(message);
    }
  }

  /**
   * cel-go's words where cel-java's differ: a map lookup of a missing key is {@code no such key: <key>}
   * (cel-java says {@code evaluation error at <input>:<offset>: key '<key>' is not present in map.}).
   */
  private static String runtimeMessage(CelEvaluationException e) {
    String m = e.getMessage();
    if (e.getErrorCode() == CelErrorCode.ATTRIBUTE_NOT_FOUND) {
      Matcher at = MISSING_KEY.matcher(m);
      if (at.matches()) {
        Matcher key = NOT_PRESENT.matcher(at.group(1));
        return "no such key: " + (key.matches() ? key.group(1) : at.group(1));
      }
    }
    return m;
  }

  private static final Pattern NOT_PRESENT =
      Pattern.compile("key '(.*)' is not present in map\\.", Pattern.DOTALL);
  private static final Pattern MISSING_KEY =
      Pattern.compile("evaluation error at <input>:\\d+: (.*)", Pattern.DOTALL);

  /**
   * Upstream's {@code newStringInterfaceMapWithDefault}: looking up a domain the device has nothing
   * under gives an empty map, so {@code device.attributes["other.domain"].x} fails with {@code no such
   * key: x} and {@code "x" in device.attributes["other.domain"]} is false, rather than the domain
   * itself being missing.
   */
  private static final class DomainMap extends AbstractMap<String, Object> {
    private final Map<String, Map<String, Object>> byDomain;

    DomainMap(Map<String, Map<String, Object>> byDomain) {
      this.byDomain = byDomain;
    }

    @Override
    public boolean containsKey(Object key) {
      return key instanceof String;
    }

    @Override
    public Object get(Object key) {
      Map<String, Object> m = byDomain.get(key);
      return m != null || !(key instanceof String) ? m : Map.of();
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
      return Collections.unmodifiableMap(new TreeMap<String, Object>(byDomain)).entrySet();
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
    return Map.of("driver", driver, "attributes", new DomainMap(byDomain), "capacity", new DomainMap(capacity),
        "allowMultipleAllocations", device.allowMultipleAllocations());
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
