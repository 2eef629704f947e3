package io.gpufleet.engine.scheduler.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.affinity.NodeAffinity;
import io.gpufleet.model.affinity.NodeSelector;
import io.gpufleet.model.affinity.NodeSelectorTerm;
import io.gpufleet.model.affinity.PodAffinity;
import io.gpufleet.model.affinity.PodAffinityTerm;
import io.gpufleet.model.affinity.PreferredSchedulingTerm;
import io.gpufleet.model.affinity.WeightedPodAffinityTerm;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.label.SelectorOperator;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.validation.FieldError;
import io.gpufleet.model.validation.PodValidation;
import io.gpufleet.model.validation.ResourceNameValidation;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The API server's validation of the fields the scheduler reads, from {@code
 * pkg/apis/core/validation/validation_test.go}: TestValidatePod (node and pod affinity errors and the
 * valid specs beside them), TestValidateContainers (compute resources) and TestValidateResourceNames
 * (whose table has no names: each case is named by its row, as written). Upstream compares field
 * path, error type and, where it gives one, the detail; so do these.
 */
final class ValidationCases {
  private ValidationCases() {}

  static final String FILE = "pkg/apis/core/validation/validation_test.go";
  private static final String PLUGIN = "API validation";
  private static final String NA = "spec.affinity.nodeAffinity";
  private static final String REQUIRED = NA + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
  private static final String NAME_PART_REGEX = "name part must consist of alphanumeric characters, '-', '_' or '.', "
      + "and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex "
      + "used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

  /** An expected error: path, type and (null when upstream gives none) detail. */
  private record E(String path, FieldError.Kind kind, String detail) {}

  private static E e(String path, FieldError.Kind kind, String detail) {
    return new E(path, kind, detail);
  }

  /** upstream's validPodSpec: one container, no resources. */
  private static PodSpec spec() {
    return PodSpec.of(Container.of("ctr", "image", ResourceList.EMPTY, ResourceList.EMPTY));
  }

  private static PodSpec nodeAffinity(NodeAffinity a) {
    return spec().withNodeAffinity(a);
  }

  private static PodSpec podAffinity(PodAffinity affinity, PodAffinity anti) {
    return spec().withPodAffinity(affinity, anti);
  }

  private static Requirement req(String key, SelectorOperator op, String... values) {
    return new Requirement(key, op, List.of(values));
  }

  private static LabelSelector exprs(Requirement... r) {
    return new LabelSelector(Labels.EMPTY, List.of(r));
  }

  private static PodAffinityTerm term(LabelSelector selector, List<String> namespaces, String topologyKey) {
    return new PodAffinityTerm(Optional.ofNullable(selector), namespaces, topologyKey, Optional.empty(), List.of(),
        List.of());
  }

  private static PodAffinity required(PodAffinityTerm t) {
    return new PodAffinity(List.of(t), List.of());
  }

  private static PodAffinity preferred(int weight, PodAffinityTerm t) {
    return new PodAffinity(List.of(), List.of(new WeightedPodAffinityTerm(weight, t)));
  }

  /** Upstream compares the lists without regard to order. */
  private static void assertErrors(PodSpec spec, E... expected) {
    List<FieldError> errors = PodValidation.validate(spec, "spec");
    assertThat(errors).as("errors").hasSize(expected.length);
    for (E want : expected) {
      assertThat(errors).as("expected %s", want).anySatisfy(got -> {
        assertThat(got.path()).isEqualTo(want.path());
        assertThat(got.kind()).isEqualTo(want.kind());
        if (want.detail() != null) {
          assertThat(got.detail()).isEqualTo(want.detail());
        }
      });
    }
  }

  private static UpstreamCase valid(String name, PodSpec spec) {
    return UpstreamCase.of(PLUGIN, FILE, name, () -> assertThat(PodValidation.validate(spec, "spec")).isEmpty());
  }

  private static UpstreamCase invalid(String name, PodSpec spec, E... expected) {
    return UpstreamCase.of(PLUGIN, FILE, name, () -> assertErrors(spec, expected));
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> all = new ArrayList<>();
    all.addAll(validatePod());
    all.addAll(validateContainers());
    all.addAll(validateResourceNames());
    return all;
  }

  private static List<UpstreamCase> validatePod() {
    var in = SelectorOperator.IN;
    var notIn = SelectorOperator.NOT_IN;
    var exists = SelectorOperator.EXISTS;
    PodAffinityTerm emptyKeyHard = term(exprs(req("key2", in, "value1", "value2")), List.of("ns"), "");
    PodAffinityTerm emptyKeySoft = term(exprs(req("key2", notIn, "value1", "value2")), List.of("ns"), "");
    String podAff = "spec.affinity.podAffinity";
    String anti = "spec.affinity.podAntiAffinity";
    String hard = ".requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey";
    String soft = ".preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey";
    return List.of(
        valid("just about everything", spec().withNodeSelector(Labels.of("key", "value")).withNodeName("foobar")),
        valid("serialized node affinity requirements", nodeAffinity(new NodeAffinity(
            Optional.of(new NodeSelector(List.of(new NodeSelectorTerm(List.of(req("key2", in, "value1", "value2")),
                List.of(req("metadata.name", in, "host1")))))),
            List.of(new PreferredSchedulingTerm(10, NodeSelectorTerm.of(req("foo", in, "bar"))))))),
        valid("serialized node affinity requirements, II", nodeAffinity(new NodeAffinity(
            Optional.of(new NodeSelector(List.of(new NodeSelectorTerm(List.of(), List.of())))),
            List.of(new PreferredSchedulingTerm(10, new NodeSelectorTerm(List.of(), List.of())))))),
        valid("serialized pod affinity in affinity requirements in annotations", podAffinity(
            new PodAffinity(
                List.of(term(exprs(req("key2", in, "value1", "value2")), List.of("ns"), "zone")
                    .withNamespaces(List.of("ns"), exprs(req("key", in, "value1", "value2")))),
                List.of(new WeightedPodAffinityTerm(10,
                    term(exprs(req("key2", notIn, "value1", "value2")), List.of("ns"), "region")))),
            PodAffinity.NONE)),
        valid("serialized pod anti affinity with different Label Operators in affinity requirements in annotations",
            podAffinity(PodAffinity.NONE, new PodAffinity(
                List.of(term(exprs(req("key2", exists)), List.of("ns"), "zone")),
                List.of(new WeightedPodAffinityTerm(10,
                    term(exprs(req("key2", SelectorOperator.DOES_NOT_EXIST)), List.of("ns"), "region")))))),
        invalid("invalid node selector requirement in node affinity, key is invalid",
            nodeAffinity(NodeAffinity.requiring(NodeSelectorTerm.of(req("invalid key ___@#", exists)))),
            e(REQUIRED + "[0].matchExpressions[0].key", FieldError.Kind.INVALID, NAME_PART_REGEX)),
        invalid("invalid node field selector requirement in node affinity, more values for field selector",
            nodeAffinity(NodeAffinity.requiring(new NodeSelectorTerm(List.of(),
                List.of(req("metadata.name", in, "host1", "host2"))))),
            e(REQUIRED + "[0].matchFields[0].values", FieldError.Kind.REQUIRED,
                "must be only one value when `operator` is 'In' or 'NotIn' for node field selector")),
        invalid("invalid node field selector requirement in node affinity, invalid operator",
            nodeAffinity(NodeAffinity.requiring(new NodeSelectorTerm(List.of(), List.of(req("metadata.name", exists))))),
            e(REQUIRED + "[0].matchFields[0].operator", FieldError.Kind.INVALID, "not a valid selector operator")),
        invalid("invalid node field selector requirement in node affinity, invalid key",
            nodeAffinity(NodeAffinity.requiring(new NodeSelectorTerm(List.of(),
                List.of(req("metadata.namespace", in, "ns1"))))),
            e(REQUIRED + "[0].matchFields[0].key", FieldError.Kind.INVALID, "not a valid field selector key")),
        invalid("invalid preferredSchedulingTerm in node affinity, weight should be in range 1-100",
            nodeAffinity(new NodeAffinity(Optional.empty(),
                List.of(new PreferredSchedulingTerm(199, NodeSelectorTerm.of(req("foo", in, "bar")))))),
            e(NA + ".preferredDuringSchedulingIgnoredDuringExecution[0].weight", FieldError.Kind.INVALID,
                "must be in the range 1-100")),
        invalid("invalid requiredDuringSchedulingIgnoredDuringExecution node selector, nodeSelectorTerms must have at "
                + "least one term",
            nodeAffinity(new NodeAffinity(Optional.of(new NodeSelector(List.of())), List.of())),
            e(REQUIRED, FieldError.Kind.REQUIRED, "must have at least one node selector term")),
        invalid("invalid weight in preferredDuringSchedulingIgnoredDuringExecution in pod affinity annotations, weight "
                + "should be in range 1-100",
            podAffinity(preferred(109, term(exprs(req("key2", notIn, "value1", "value2")), List.of("ns"), "region")),
                PodAffinity.NONE),
            e(podAff + ".preferredDuringSchedulingIgnoredDuringExecution[0].weight", FieldError.Kind.INVALID,
                "must be in the range 1-100")),
        invalid("invalid labelSelector in preferredDuringSchedulingIgnoredDuringExecution in podaffinity annotations, "
                + "values should be empty if the operator is Exists",
            podAffinity(PodAffinity.NONE,
                preferred(10, term(exprs(req("key2", exists, "value1", "value2")), List.of("ns"), "region"))),
            e(anti + ".preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.labelSelector"
                + ".matchExpressions[0].values", FieldError.Kind.FORBIDDEN,
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")),
        invalid("invalid namespaceSelector in preferredDuringSchedulingIgnoredDuringExecution in podaffinity, In "
                + "operator must include Values",
            podAffinity(PodAffinity.NONE, preferred(10,
                term(null, List.of("ns"), "region").withNamespaces(List.of("ns"), exprs(req("key2", in))))),
            e(anti + ".preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.namespaceSelector"
                + ".matchExpressions[0].values", FieldError.Kind.REQUIRED,
                "must be specified when `operator` is 'In' or 'NotIn'")),
        invalid("invalid namespaceSelector in preferredDuringSchedulingIgnoredDuringExecution in podaffinity, Exists "
                + "operator can not have values",
            podAffinity(PodAffinity.NONE, preferred(10, term(null, List.of("ns"), "region")
                .withNamespaces(List.of("ns"), exprs(req("key2", exists, "value1", "value2"))))),
            e(anti + ".preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.namespaceSelector"
                + ".matchExpressions[0].values", FieldError.Kind.FORBIDDEN,
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")),
        invalid("invalid name space in preferredDuringSchedulingIgnoredDuringExecution in podaffinity annotations, "
                + "namespace should be valid",
            podAffinity(preferred(10, term(exprs(req("key2", exists)), List.of("INVALID_NAMESPACE"), "region")),
                PodAffinity.NONE),
            e(podAff + ".preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.namespace",
                FieldError.Kind.INVALID, "a lowercase RFC 1123 label must consist of lower case alphanumeric characters "
                    + "or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "
                    + "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')")),
        invalid("invalid hard pod affinity, empty topologyKey is not allowed for hard pod affinity",
            podAffinity(required(emptyKeyHard), PodAffinity.NONE),
            e(podAff + hard, FieldError.Kind.INVALID, "name part must be non-empty"),
            e(podAff + hard, FieldError.Kind.REQUIRED, "can not be empty"),
            e(podAff + hard, FieldError.Kind.INVALID, NAME_PART_REGEX)),
        invalid("invalid hard pod anti-affinity, empty topologyKey is not allowed for hard pod anti-affinity",
            podAffinity(PodAffinity.NONE, required(emptyKeyHard)),
            e(anti + hard, FieldError.Kind.INVALID, "name part must be non-empty"),
            e(anti + hard, FieldError.Kind.REQUIRED, "can not be empty"),
            e(anti + hard, FieldError.Kind.INVALID, NAME_PART_REGEX)),
        invalid("invalid soft pod affinity, empty topologyKey is not allowed for soft pod affinity",
            podAffinity(preferred(10, emptyKeySoft), PodAffinity.NONE),
            e(podAff + soft, FieldError.Kind.INVALID, "name part must be non-empty"),
            e(podAff + soft, FieldError.Kind.REQUIRED, "can not be empty"),
            e(podAff + soft, FieldError.Kind.INVALID, NAME_PART_REGEX)),
        invalid("invalid soft pod anti-affinity, empty topologyKey is not allowed for soft pod anti-affinity",
            podAffinity(PodAffinity.NONE, preferred(10, emptyKeySoft)),
            e(anti + soft, FieldError.Kind.INVALID, "name part must be non-empty"),
            e(anti + soft, FieldError.Kind.REQUIRED, "can not be empty"),
            e(anti + soft, FieldError.Kind.INVALID, NAME_PART_REGEX)),
        invalid("invalid soft pod affinity, key in MatchLabelKeys isn't correctly defined",
            podAffinity(preferred(10, new PodAffinityTerm(Optional.of(exprs(req("key", notIn, "value1", "value2"))),
                List.of(), "k8s.io/zone", Optional.empty(), List.of("/simple"), List.of())), PodAffinity.NONE),
            e(podAff + ".preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.matchLabelKeys[0]",
                FieldError.Kind.INVALID, "prefix part must be non-empty")));
  }

  /** upstream's getResourceLimits(cpu, memory). */
  private static ResourceList cpuMemory(String cpu, String memory) {
    return ResourceList.of("cpu", cpu, "memory", memory);
  }

  private static PodSpec container(ResourceList requests, ResourceList limits) {
    return PodSpec.of(Container.of("abc-123", "image", requests, limits));
  }

  private static List<UpstreamCase> validateContainers() {
    String res = "spec.containers[0].resources";
    return List.of(
        invalid("invalid compute resource", container(ResourceList.EMPTY, ResourceList.of("disk", "10G")),
            e(res + ".limits[disk]", FieldError.Kind.INVALID, "must be a standard resource type or fully qualified"),
            e(res + ".limits[disk]", FieldError.Kind.INVALID, "must be a standard resource for containers")),
        invalid("Resource CPU invalid", container(ResourceList.EMPTY, cpuMemory("-10", "0")),
            e(res + ".limits[cpu]", FieldError.Kind.INVALID, "must be greater than or equal to 0")),
        invalid("Resource Requests CPU invalid", container(cpuMemory("-10", "0"), ResourceList.EMPTY),
            e(res + ".requests[cpu]", FieldError.Kind.INVALID, "must be greater than or equal to 0")),
        invalid("Resource Memory invalid", container(ResourceList.EMPTY, cpuMemory("0", "-10")),
            e(res + ".limits[memory]", FieldError.Kind.INVALID, "must be greater than or equal to 0")),
        invalid("Request limit simple invalid", container(cpuMemory("6", "3"), cpuMemory("5", "3")),
            e(res + ".requests", FieldError.Kind.INVALID, "must be less than or equal to cpu limit of 5")),
        invalid("Request limit multiple invalid", container(cpuMemory("6", "4"), cpuMemory("5", "3")),
            e(res + ".requests", FieldError.Kind.INVALID, "must be less than or equal to cpu limit of 5"),
            e(res + ".requests", FieldError.Kind.INVALID, "must be less than or equal to memory limit of 3")));
  }

  private static List<UpstreamCase> validateResourceNames() {
    List<UpstreamCase> out = new ArrayList<>();
    record Row(String written, String input, boolean success) {}
    List<Row> table = List.of(
        new Row("{\"memory\", true}", "memory", true),
        new Row("{\"cpu\", true}", "cpu", true),
        new Row("{\"network\", false}", "network", false),
        new Row("{\"disk\", false}", "disk", false),
        new Row("{\"\", false}", "", false),
        new Row("{\".\", false}", ".", false),
        new Row("{\"..\", false}", "..", false),
        new Row("{\"my.favorite.app.co/12345\", true}", "my.favorite.app.co/12345", true),
        new Row("{\"my.favorite.app.co/_12345\", false}", "my.favorite.app.co/_12345", false),
        new Row("{\"my.favorite.app.co/12345_\", false}", "my.favorite.app.co/12345_", false),
        new Row("{\"kubernetes.io/..\", false}", "kubernetes.io/..", false),
        new Row("{\"kubernetes.io/\" + strings.Repeat(\"a\", 63), true}", "kubernetes.io/" + "a".repeat(63), true),
        new Row("{\"kubernetes.io/\" + strings.Repeat(\"a\", 64), false}", "kubernetes.io/" + "a".repeat(64), false),
        new Row("{\"kubernetes.io//\", false}", "kubernetes.io//", false),
        new Row("{\"kubernetes.io\", false}", "kubernetes.io", false),
        new Row("{\"kubernetes.io/will/not/work/\", false}", "kubernetes.io/will/not/work/", false));
    for (Row row : table) {
      out.add(UpstreamCase.of(PLUGIN, FILE, "TestValidateResourceNames " + row.written(), () -> {
        List<FieldError> errors = new ArrayList<>();
        ResourceNameValidation.validateResourceName(row.input(), "sth", errors);
        assertThat(errors.isEmpty()).as("%s is valid: %s", row.input(), errors).isEqualTo(row.success());
      }));
    }
    return out;
  }
}
