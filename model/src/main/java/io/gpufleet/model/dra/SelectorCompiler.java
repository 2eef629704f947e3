package io.gpufleet.model.dra;

import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Compiles a DRA selector's CEL expression ({@code selectors[].cel.expression}) as the API server
 * does when a DeviceClass, ResourceClaim or ResourceClaimTemplate is created, so a reader can refuse
 * one that does not compile. The engine's CEL environment implements it; a reader finds it through
 * {@link ServiceLoader}, since manifests sit below the engine.
 */
public interface SelectorCompiler {

  /** CEL's message when {@code expression} does not compile ({@code compilation failed: ERROR: <input>:1:8: ...}). */
  Optional<String> compileError(String expression);

  /**
   * Whether {@code expression} compiles but its estimated worst-case cost exceeds
   * {@code CELSelectorExpressionMaxCost}, which the API server refuses ({@code validateCELSelector}:
   * {@code Forbidden: too complex, exceeds cost limit}).
   */
  default boolean tooComplex(String expression) {
    return false;
  }

  /** The implementation on the class path, if any (none when only the model and manifests are). */
  static Optional<SelectorCompiler> installed() {
    return ServiceLoader.load(SelectorCompiler.class).findFirst();
  }
}
