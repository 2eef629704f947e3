package io.gpufleet.engine.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.dra.AttributeValue;
import io.gpufleet.model.dra.Device;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * DRA selectors with Kubernetes' quantity and semver libraries. Expressions marked "upstream" are the
 * examples of {@code k8s.io/apiserver/pkg/cel/library/quantity.go} and {@code semverlib.go}.
 */
class CelDeviceSelectorTest {

  private final CelDeviceSelector cel = new CelDeviceSelector();

  /** The driver's device for one H100 on a node whose GFD saw driver 550.54.15. */
  private static final Device H100 = new NvidiaDraDriver(GpuCatalog.builtIn()).slice(Node.of("n",
      Labels.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3", "nvidia.com/gpu.count", "1",
          "nvidia.com/cuda.driver-version.full", "550.54.15", "nvidia.com/cuda.runtime-version.full", "12.4"),
      List.of(), ResourceList.of("cpu", "8"))).orElseThrow().devices().getFirst();

  private CelDeviceSelector.Outcome on(String expression, Device d) {
    return cel.evaluate(expression, NvidiaDraDriver.DRIVER, d);
  }

  private boolean matches(String expression) {
    CelDeviceSelector.Outcome o = on(expression, H100);
    assertThat(o).as(expression).isNotInstanceOf(CelDeviceSelector.Outcome.Failed.class);
    return o instanceof CelDeviceSelector.Outcome.Match;
  }

  @Test
  void capacityIsAQuantity() {
    assertThat(H100.capacity()).containsKey("memory");
    assertThat(matches("device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0")).isTrue();
    assertThat(matches("device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"100Gi\")) >= 0")).isFalse();
    assertThat(matches("device.capacity[\"gpu.nvidia.com\"].memory.isGreaterThan(quantity(\"80G\"))")).isTrue();
    assertThat(matches("device.capacity[\"gpu.nvidia.com\"].memory.isLessThan(quantity(\"80Gi\"))")).isTrue();
  }

  @Test
  void theQuantityLibraryAsUpstreamDocumentsIt() {
    // upstream
    assertThat(matches("quantity(\"200M\").compareTo(quantity(\"0.2G\")) == 0")).isTrue();
    assertThat(matches("quantity(\"50M\").compareTo(quantity(\"50Mi\")) == -1")).isTrue();
    assertThat(matches("quantity(\"50Mi\").compareTo(quantity(\"50M\")) == 1")).isTrue();
    assertThat(matches("quantity(\"50k\").asInteger() == 50000")).isTrue();
    assertThat(matches("quantity(\"50k\").add(20) == quantity(\"50020\")")).isTrue();
    assertThat(matches("quantity(\"50k\").sub(quantity(\"20k\")) == quantity(\"30k\")")).isTrue();
    assertThat(matches("isQuantity(\"1.3Gi\") && !isQuantity(\"200K\") && !isQuantity(\"Mi\")")).isTrue();
    assertThat(matches("quantity(\"1.5\").isInteger()")).isFalse();
  }

  @Test
  void versionAttributesAreSemanticVersions() {
    assertThat(H100.attributes().get("driverVersion")).isEqualTo(new AttributeValue.Version("550.54.15"));
    assertThat(matches("device.attributes[\"gpu.nvidia.com\"].driverVersion.isGreaterThan(semver(\"550.0.0\"))"))
        .isTrue();
    assertThat(matches("device.attributes[\"gpu.nvidia.com\"].driverVersion.major() == 550")).isTrue();
    assertThat(matches("device.attributes[\"gpu.nvidia.com\"].cudaComputeCapability.compareTo(semver(\"8.0.0\")) > 0"))
        .isTrue();
    assertThat(matches("device.attributes[\"gpu.nvidia.com\"].driverVersion == semver(\"550.54.15\")")).isTrue();
  }

  @Test
  void theSemverLibraryAsUpstreamDocumentsIt() {
    // upstream
    assertThat(matches("semver(\"1.2.3\").compareTo(semver(\"2.0.0\")) == -1")).isTrue();
    assertThat(matches("semver(\"1.2.3\").compareTo(semver(\"0.1.2\")) == 1")).isTrue();
    assertThat(matches("semver(\"v1.0.0\", true) == semver(\"1.0.0\")")).isTrue();
    assertThat(matches("semver(\"01.01.01\", true) == semver(\"1.1.1\")")).isTrue();
    assertThat(matches("isSemver(\"1.0.0\") && !isSemver(\"hello\") && !isSemver(\"v1.0\") && isSemver(\"v1.0\", true)"))
        .isTrue();
    // semver.org's precedence: a pre-release sorts before its release, numeric identifiers before others.
    assertThat(matches("semver(\"1.0.0-alpha\").isLessThan(semver(\"1.0.0\"))")).isTrue();
    assertThat(matches("semver(\"1.0.0-alpha.1\").isLessThan(semver(\"1.0.0-alpha.beta\"))")).isTrue();
    assertThat(matches("semver(\"1.0.0-rc.1+build.5\") == semver(\"1.0.0-rc.1\")")).isTrue();
  }

  @Test
  void badTextFailsWithTheLibrariesWords() {
    // resource.ParseQuantity's ErrSuffix and ErrFormatWrong.
    assertThat(on("quantity(\"200K\").isInteger()", H100)).isEqualTo(new CelDeviceSelector.Outcome.Failed(
        "CEL runtime error: unable to parse quantity's suffix"));
    assertThat(on("quantity(\"Three\").isInteger()", H100)).isEqualTo(new CelDeviceSelector.Outcome.Failed(
        "CEL runtime error: quantities must match the regular expression "
            + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
    assertThat(on("semver(\"Three\").major() == 3", H100)).isInstanceOf(CelDeviceSelector.Outcome.Failed.class)
        .extracting(o -> ((CelDeviceSelector.Outcome.Failed) o).message()).asString()
        .contains("No Major.Minor.Patch elements found");
    assertThat(on("quantity(1) > 0", H100)).isInstanceOf(CelDeviceSelector.Outcome.Failed.class)
        .extracting(o -> ((CelDeviceSelector.Outcome.Failed) o).message()).asString()
        .startsWith("compilation failed: ").contains("found no matching overload for 'quantity' applied to '(int)'");
  }

  @Test
  void aVersionAttributeThatIsNoSemanticVersionFailsAsUpstreamsDeviceMatches() {
    Device d = new Device("gpu-0", Map.of("driverVersion", new AttributeValue.Version("550.54")), Map.of());
    assertThat(on("true", d)).isEqualTo(new CelDeviceSelector.Outcome.Failed(
        "CEL runtime error: attribute driverVersion: parse semantic version: No Major.Minor.Patch elements found"));
  }

  @Test
  void aDomainWithNothingUnderItIsAnEmptyMapAndAMissingAttributeIsNoSuchKey() {
    // newStringInterfaceMapWithDefault: an unknown domain reads as {}, so membership is false ...
    assertThat(matches("\"productName\" in device.attributes[\"gpu.nvidia.com\"]")).isTrue();
    assertThat(matches("!(\"healthy\" in device.attributes[\"other.example.com\"])")).isTrue();
    assertThat(matches("size(device.capacity[\"other.example.com\"]) == 0")).isTrue();
    // ... and a lookup in it fails with cel-go's words, as a lookup of a missing attribute does.
    assertThat(on("device.attributes[\"other.example.com\"].healthy", H100))
        .isEqualTo(new CelDeviceSelector.Outcome.Failed("CEL runtime error: no such key: healthy"));
    assertThat(on("device.attributes[\"gpu.nvidia.com\"].healthy", H100))
        .isEqualTo(new CelDeviceSelector.Outcome.Failed("CEL runtime error: no such key: healthy"));
  }

  private String compileError(String expression) {
    return cel.compileError(expression).orElseThrow(() -> new AssertionError("compiles: " + expression));
  }

  @Test
  void theKubernetesEnvironmentThatDevCelOffers() {
    String gpu = "device.attributes[\"gpu.nvidia.com\"]";
    // Standard macros and matches().
    assertThat(matches("has(" + gpu + ".productName)")).isTrue();
    assertThat(matches(gpu + ".productName.matches(\"^NVIDIA H100\")")).isTrue();
    assertThat(matches("device.attributes.exists(d, d == \"gpu.nvidia.com\")")).isTrue();
    // ext.Strings, ext.Sets, cel.bind, optional types, two-variable comprehensions.
    assertThat(matches(gpu + ".productName.lowerAscii().split(\" \")[0] == \"nvidia\"")).isTrue();
    assertThat(matches("sets.contains([\"hopper\", \"blackwell\"], [" + gpu + ".architecture.lowerAscii()])"))
        .isTrue();
    assertThat(matches("cel.bind(g, " + gpu + ", g.productName.startsWith(\"NVIDIA\") && g.architecture != \"\")"))
        .isTrue();
    assertThat(matches(gpu + ".?nvlink.orValue(false) == false")).isTrue();
    assertThat(matches(gpu + ".exists(name, value, name == \"architecture\" && value == \"Hopper\")")).isTrue();
    // Cross-type numeric ordering (CrossTypeNumericComparisons); equality stays within a type, as in cel-go.
    assertThat(matches("2 > 1.5 && 1 < 1.5")).isTrue();
    assertThat(compileError("1 == 1.0")).contains("found no matching overload for '_==_'");
  }

  @Test
  void aSelectorThatDoesNotCompileSaysWhyInCelsWords() {
    assertThat(compileError("device.foo == 1")).startsWith("compilation failed: ")
        .contains("undefined field 'foo'");
    // A result that is neither bool nor dyn: cel/compile.go's own words.
    assertThat(compileError("device.driver")).contains("must evaluate to bool or the unknown type, not string");
    // A regular expression literal is checked when compiled (cel.ValidateRegexLiterals).
    assertThat(compileError("device.driver.matches(\"[\")")).startsWith("compilation failed: ")
        .containsIgnoringCase("regex");
    // Homogeneous aggregate literals.
    assertThat(compileError("[1, \"a\"].size() == 2")).startsWith("compilation failed: ");
    // A Kubernetes library function dev.cel does not offer: CEL's error, no stack trace.
    assertThat(compileError("device.driver.find(\"a\") == \"a\""))
        .startsWith("compilation failed: ").contains("find").doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void aSelectorThatYieldsAStringFailsAsUpstreamsDeviceMatchesAndNotAsNoMatch() {
    // cel/compile.go DeviceMatches: result.ConvertToNative(bool) fails for a dyn-typed string; the
    // allocator reports it as the claim's CEL runtime error, not as "cannot allocate all claims".
    assertThat(on("device.attributes[\"gpu.nvidia.com\"].productName", H100)).isEqualTo(new CelDeviceSelector.Outcome.Failed(
        "CEL runtime error: CEL result of type string could not be converted to bool: "
            + "unsupported native conversion from string to 'bool'"));
  }
}
