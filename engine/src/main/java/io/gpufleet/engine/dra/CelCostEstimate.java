package io.gpufleet.engine.dra;

import dev.cel.common.ast.CelExpr;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The twin's worst-case cost of a DRA selector, computed over its checked AST before it is ever
 * run: the API server's {@code env.EstimateCost} check ({@code validateCELSelector}: {@code Forbidden:
 * too complex, exceeds cost limit} above {@code CELSelectorExpressionMaxCost}). cel-java has no cost
 * estimator, so this one is written here; its figures are not cel-go's, only its shape is: every
 * node costs 1 and a tenth of the size of the string, list or map it yields (as
 * {@link CelDeviceSelector}'s run counts, after cel-go's {@code StringTraversalCostFactor}), a list
 * literal 10 and a map literal 30 more (cel-go's {@code checker/cost.go} constants), a call a tenth of
 * its operands' sizes (walking them); a comprehension costs its range's size times its step. The
 * estimate bounds the run's count for any device ({@code CelCostPropertyTest} checks it). Sizes are
 * bounded conservatively: a literal's own size, anything read from the device at most 64 (attribute
 * string values, {@code DeviceAttributeMaxValueLength}; attributes per device, 32), a concatenation
 * the sum, a bound variable ({@code cel.bind}) its value's, a comprehension's accumulator its start
 * plus what each step adds, times the range's size. Saturates at {@link Long#MAX_VALUE}.
 */
final class CelCostEstimate {

  /** A value's worst case: the cost to compute it, its size, and the size of one of its elements. */
  private record Estimate(double cost, double size, double elem) {}

  /** The bound on any string, list or map read from {@code device} (see the class comment). */
  private static final double DEVICE_VALUE = 64;

  private final Map<String, Estimate> scope = new HashMap<>();

  private CelCostEstimate() {}

  /** The estimated worst-case cost of {@code expr}, saturated to {@link Long#MAX_VALUE}. */
  static long of(CelExpr expr) {
    double cost = new CelCostEstimate().estimate(expr).cost();
    return cost >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.ceil(cost);
  }

  /** A node: what its operands cost, plus 1 and a tenth of its own result's size, as a run counts it. */
  private Estimate estimate(CelExpr e) {
    Estimate inner = operands(e);
    return new Estimate(inner.cost() + 1 + 0.1 * inner.size(), inner.size(), inner.elem());
  }

  private Estimate operands(CelExpr e) {
    return switch (e.getKind()) {
      case CONSTANT -> switch (e.constant().getKind()) {
        case STRING_VALUE -> new Estimate(0, e.constant().stringValue().length(), 1);
        case BYTES_VALUE -> new Estimate(0, e.constant().bytesValue().size(), 1);
        default -> new Estimate(0, 1, 1);
      };
      case IDENT -> {
        Estimate bound = scope.get(e.ident().name());
        yield bound == null ? new Estimate(0, DEVICE_VALUE, DEVICE_VALUE) : new Estimate(0, bound.size(), bound.elem());
      }
      case SELECT -> {
        Estimate operand = estimate(e.select().operand());
        double size = Math.max(DEVICE_VALUE, operand.elem());
        yield new Estimate(operand.cost(), size, size);
      }
      case CALL -> call(e.call());
      case LIST -> {
        double cost = 10;
        double elem = 1;
        for (CelExpr x : e.list().elements()) {
          Estimate v = estimate(x);
          cost += v.cost();
          elem = Math.max(elem, v.size());
        }
        yield new Estimate(cost, e.list().elements().size(), elem);
      }
      case MAP -> {
        double cost = 30;
        double elem = 1;
        for (var entry : e.map().entries()) {
          Estimate k = estimate(entry.key());
          Estimate v = estimate(entry.value());
          cost += k.cost() + v.cost();
          elem = Math.max(elem, Math.max(k.size(), v.size()));
        }
        yield new Estimate(cost, e.map().entries().size(), elem);
      }
      case STRUCT -> {
        double cost = 40;
        for (var f : e.struct().entries()) {
          cost += estimate(f.value()).cost();
        }
        yield new Estimate(cost, 1, 1);
      }
      case COMPREHENSION -> comprehension(e.comprehension());
      case NOT_SET -> new Estimate(0, 0, 0);
    };
  }

  private Estimate call(CelExpr.CelCall call) {
    double cost = 0;
    double sum = 0;
    double max = 0;
    double elem = 1;
    Estimate first = null;
    List<CelExpr> operands = new ArrayList<>();
    call.target().ifPresent(operands::add);
    operands.addAll(call.args());
    for (CelExpr x : operands) {
      Estimate v = estimate(x);
      if (first == null) {
        first = v;
      }
      cost += v.cost() + 0.1 * v.size();
      sum += v.size();
      max = Math.max(max, v.size());
      elem = Math.max(elem, v.elem());
    }
    return switch (call.function()) {
      // Concatenation: the sum of the sizes.
      case "_+_" -> new Estimate(cost, sum, elem);
      // replace(old, new): every character may become the replacement; join: all elements joined.
      case "replace" -> new Estimate(cost, first.size() * Math.max(1, max) + max, 1);
      case "join" -> new Estimate(cost, first.size() * first.elem() + max * first.size(), 1);
      case "_[_]", "_[?_]" -> new Estimate(cost, Math.max(first.elem(), DEVICE_VALUE), DEVICE_VALUE);
      case "size", "_==_", "_!=_", "_<_", "_<=_", "_>_", "_>=_", "_&&_", "_||_", "!_", "@in", "contains",
          "startsWith", "endsWith", "matches" -> new Estimate(cost, 1, 1);
      // Anything else (split, substring, lowerAscii, quantity and semver functions, ...) is no larger
      // than its arguments together, or than a number written out (20 characters).
      default -> new Estimate(cost, Math.max(sum, 20), Math.max(elem, Math.max(max, 20)));
    };
  }

  private Estimate comprehension(CelExpr.CelComprehension c) {
    Estimate range = estimate(c.iterRange());
    double iterations = range.size();
    Estimate init = estimate(c.accuInit());
    Map<String, Estimate> saved = new HashMap<>(scope);
    try {
      scope.put(c.iterVar(), new Estimate(0, range.elem(), DEVICE_VALUE));
      if (!c.iterVar2().isEmpty()) {
        scope.put(c.iterVar2(), new Estimate(0, range.elem(), DEVICE_VALUE));
      }
      // One step with the accumulator at its start tells what a step adds; the accumulator may grow by
      // that much each iteration.
      scope.put(c.accuVar(), init);
      Estimate step = estimate(c.loopStep());
      double grows = Math.max(0, step.size() - init.size());
      Estimate accu = new Estimate(0, init.size() + iterations * grows, Math.max(init.elem(), step.elem()));
      scope.put(c.accuVar(), accu);
      // The step is walked once (twice would make nested comprehensions exponential to estimate); its
      // reading of a grown accumulator costs a tenth of the growth more.
      double perIteration = estimate(c.loopCondition()).cost() + step.cost() + 0.1 * (accu.size() - init.size());
      Estimate result = estimate(c.result());
      return new Estimate(range.cost() + init.cost() + iterations * perIteration + result.cost(), result.size(),
          result.elem());
    } finally {
      scope.clear();
      scope.putAll(saved);
    }
  }
}
