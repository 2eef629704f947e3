package io.gpufleet.engine.scheduler.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.dra.CelDeviceSelector;
import io.gpufleet.model.dra.AttributeValue;
import io.gpufleet.model.dra.Device;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * DRA's CEL selectors, from {@code staging/src/k8s.io/dynamic-resource-allocation/cel/compile_test.go}
 * (TestCEL, stored copy): an expression compiled for a device with upstream's driver, attributes and
 * capacity, then matched. As upstream's loop checks them: a compile error or a match error must contain
 * the expected words, otherwise the match must be as expected. Upstream's expected cost estimates are
 * not compared (the twin's estimate, {@code CelCostEstimate}, has its own tests). Not translated: the
 * cases on list-typed attributes (DRAListTypeAttributes, not modelled: "list-*", "includes-*",
 * "macro-on-list-*", "in-operator-on-list", "list-result-type-causes-match-error", the only case of a
 * result that is no bool), those expecting cel-go's words for a macro over a scalar ("macro-exists-on-*"),
 * "expensive" (its expression needs {@code find}, which dev.cel does not offer) and those run with an
 * older environment or a feature gate off ("includes-function-compilation-error",
 * "allow_multiple_allocations_disabled", "allow_multiple_allocations_new", "allow_multiple_allocations_enabled").
 */
final class DraCelCases {
  private DraCelCases() {}

  static final String FILE = "staging/src/k8s.io/dynamic-resource-allocation/cel/compile_test.go";
  private static final String PLUGIN = "DRA CEL selectors";
  private static final String DRIVER = "dra.example.com";

  /** A device of upstream's {@code Device{Attributes, Capacity}}: attribute values as given, capacities as quantities. */
  private static Device device(Map<String, AttributeValue> attributes, Map<String, String> capacity, boolean multi) {
    return new Device("device", attributes, capacity, List.of(), Optional.empty(), multi, Map.of());
  }

  private static Map<String, AttributeValue> attrs(Object... kv) {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], (AttributeValue) kv[i + 1]);
    }
    return m;
  }

  private record Scenario(String expression, String driver, Device device) {
    Scenario(String expression) {
      this(expression, "", DraCelCases.device(Map.of(), Map.of(), false));
    }

    CelDeviceSelector.Outcome run() {
      return new CelDeviceSelector().evaluate(expression, driver, device);
    }
  }

  private static Runnable match(Scenario s, boolean expected) {
    return () -> {
      CelDeviceSelector.Outcome o = s.run();
      assertThat(o).as(s.expression()).isNotInstanceOf(CelDeviceSelector.Outcome.Failed.class);
      assertThat(o instanceof CelDeviceSelector.Outcome.Match).as(s.expression()).isEqualTo(expected);
    };
  }

  private static Runnable compileError(Scenario s, String words) {
    return () -> assertThat(new CelDeviceSelector().compileError(s.expression())).as(s.expression())
        .hasValueSatisfying(m -> assertThat(m).contains(words));
  }

  private static Runnable matchError(Scenario s, String words) {
    return () -> {
      assertThat(new CelDeviceSelector().compileError(s.expression())).as(s.expression()).isEmpty();
      assertThat(s.run()).as(s.expression()).isInstanceOfSatisfying(CelDeviceSelector.Outcome.Failed.class,
          f -> assertThat(f.message()).contains(words));
    };
  }

  private static void add(List<UpstreamCase> c, String name, Runnable check) {
    c.add(UpstreamCase.of(PLUGIN, FILE, name, check));
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    AttributeValue yes = new AttributeValue.Bool(true);
    Device name = device(attrs("name", yes), Map.of(), false);
    add(c, "true", match(new Scenario("true"), true));
    add(c, "false", match(new Scenario("false"), false));
    c.add(UpstreamCase.of(PLUGIN, FILE, "syntax-error", compileError(new Scenario("?!"), "Syntax error")).differs(
        "cel-java's parser reports the error without cel-go's \"Syntax error:\" before it "
            + "(\"extraneous input '?' expecting ...\"); the place and the rest agree"));
    add(c, "type-error", compileError(new Scenario("1"), "must evaluate to bool or the unknown type, not int"));
    add(c, "runtime-error-lookup-identifier", matchError(new Scenario(
        "device.attributes[\"no-such-domain\"].noSuchAttr.isGreaterThan(quantity(\"0\"))"), "no such key: noSuchAttr"));
    add(c, "runtime-error-lookup-map", matchError(new Scenario(
        "device.attributes[\"no-such-domain\"][\"noSuchAttr\"].isGreaterThan(quantity(\"0\"))"),
        "no such key: noSuchAttr"));
    c.add(UpstreamCase.of(PLUGIN, FILE, "domain-check-negative", match(new Scenario(
        "\"no-such-domain\" in device.attributes"), false)).differs("the twin's device.attributes says every domain "
        + "is in it, so that looking one up gives an empty map as upstream's does (cel-java needs the key present to "
        + "call its get); upstream's `in` is false for a domain the device has no attribute of"));
    add(c, "domain-check-positive", match(new Scenario("\"dra.example.com\" in device.attributes", "",
        device(attrs("dra.example.com/something", yes), Map.of(), false)), true));
    add(c, "empty-driver-name", match(new Scenario("device.driver == \"\""), true));
    add(c, "real-driver-name", match(new Scenario("device.driver == \"dra.example.com\"", DRIVER,
        device(Map.of(), Map.of(), false)), true));
    add(c, "driver-name-qualifier", match(new Scenario("device.attributes[\"dra.example.com\"].name", DRIVER, name),
        true));
    add(c, "driver-name-qualifier-map-lookup", match(new Scenario("device.attributes[\"dra.example.com\"][\"name\"]",
        DRIVER, name), true));
    add(c, "bind", match(new Scenario("cel.bind(dra, device.attributes[\"dra.example.com\"], dra.name)", DRIVER, name),
        true));
    add(c, "qualified-attribute-name", match(new Scenario("device.attributes[\"other.example.com\"].name", DRIVER,
        device(attrs("other.example.com/name", yes), Map.of(), false)), true));
    add(c, "bool", match(new Scenario("device.attributes[\"dra.example.com\"].name", DRIVER, name), true));
    add(c, "int", match(new Scenario("device.attributes[\"dra.example.com\"].name > 0", DRIVER,
        device(attrs("name", new AttributeValue.Int(1)), Map.of(), false)), true));
    add(c, "string", match(new Scenario("device.attributes[\"dra.example.com\"].name == \"fish\"", DRIVER,
        device(attrs("name", new AttributeValue.Str("fish")), Map.of(), false)), true));
    add(c, "version", match(new Scenario(
        "device.attributes[\"dra.example.com\"].name.isGreaterThan(semver(\"0.0.1\"))", DRIVER,
        device(attrs("name", new AttributeValue.Version("1.0.0")), Map.of(), false)), true));
    add(c, "version_v", match(new Scenario("device.attributes[\"dra.example.com\"].name.isGreaterThan(semver(\"v0.0.1\", "
        + "true)) && isSemver(\"v1.0.0\", true)", DRIVER,
        device(attrs("name", new AttributeValue.Version("1.0.0")), Map.of(), false)), true));
    Device mi = device(Map.of(), Map.of("name", "1Mi"), false);
    add(c, "quantity", match(new Scenario("device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))",
        DRIVER, mi), true));
    add(c, "check-positive", match(new Scenario("\"name\" in device.capacity[\"dra.example.com\"] && "
        + "device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))", DRIVER, mi), true));
    add(c, "check-negative", match(new Scenario("!(\"name\" in device.capacity[\"dra.example.com\"]) || "
        + "device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))"), true));
    add(c, "all", match(new Scenario("""
        device.capacity["dra.example.com"].quantity.isGreaterThan(quantity("1Ki")) &&
        device.attributes["dra.example.com"].bool &&
        device.attributes["dra.example.com"].int > 0 &&
        device.attributes["dra.example.com"].string == "fish" &&
        device.attributes["dra.example.com"].version.isGreaterThan(semver("0.0.1")) &&
        device.capacity["dra.example.com"]["quantity"].isGreaterThan(quantity("1Ki")) &&
        device.attributes["dra.example.com"]["bool"] &&
        device.attributes["dra.example.com"]["int"] > 0 &&
        device.attributes["dra.example.com"]["string"] == "fish" &&
        device.attributes["dra.example.com"]["version"].isGreaterThan(semver("0.0.1"))
        """, DRIVER, device(attrs("bool", yes, "int", new AttributeValue.Int(1), "string", new AttributeValue.Str("fish"),
        "version", new AttributeValue.Version("1.0.0")), Map.of("quantity", "1Mi"), false)), true));
    add(c, "many", match(new Scenario("device.attributes[\"dra.example.com\"].a && device.attributes[\"dra.example.com\"].b"
        + " && device.attributes[\"dra.example.com\"].c", DRIVER, device(attrs("a", yes, "b", yes, "c", yes), Map.of(),
        false)), true));
    Device services = device(attrs("services", new AttributeValue.Str("some_example_value")), Map.of(), false);
    add(c, "check_attribute_domains", match(new Scenario("device.attributes.exists_one(x, x == \"dra.example.com\")",
        DRIVER, services), true));
    add(c, "check_attribute_ids", match(new Scenario(
        "device.attributes[\"dra.example.com\"].exists_one(x, x == \"services\")", DRIVER, services), true));
    add(c, "split_attribute", match(new Scenario(
        "device.attributes[\"dra.example.com\"].services.split(\"example\").size() >= 2", DRIVER, services), true));
    add(c, "regexp_attribute", match(new Scenario("device.attributes[\"dra.example.com\"].services.matches(\"[^a]?sym\")",
        DRIVER, device(attrs("services", new AttributeValue.Str("asymetric")), Map.of(), false)), true));
    Device memory = device(Map.of(), Map.of("memory", "1Mi"), false);
    add(c, "check_capacity_domains", match(new Scenario("device.capacity.exists_one(x, x == \"dra.example.com\")",
        DRIVER, memory), true));
    add(c, "check_capacity_ids", match(new Scenario(
        "device.capacity[\"dra.example.com\"].exists_one(x, x == \"memory\")", DRIVER, memory), true));
    add(c, "allow_multiple_allocations", match(new Scenario("device.allowMultipleAllocations == true", DRIVER,
        device(Map.of(), Map.of(), true)), true));
    add(c, "allow_multiple_allocations_default", match(new Scenario("device.allowMultipleAllocations == false",
        DRIVER, device(Map.of(), Map.of(), false)), true));
    add(c, "allow_multiple_allocations_false", match(new Scenario("device.allowMultipleAllocations == false",
        DRIVER, device(Map.of(), Map.of(), false)), true));
    return c;
  }
}
