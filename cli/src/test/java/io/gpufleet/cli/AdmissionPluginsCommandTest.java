package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which admission plugins the API server runs is a setting: EKS's set by default, changed with
 * kube-apiserver's two flags, the same in schedule, smi, lint and simulate -f.
 */
class AdmissionPluginsCommandTest {

  /** A node tainted nvidia.com/gpu and a GPU pod that writes no toleration. */
  private static final String CLUSTER = """
      apiVersion: v1
      kind: Node
      metadata:
        name: gpu-1
        labels: {node.kubernetes.io/instance-type: g5.xlarge}
      spec:
        taints: [{key: nvidia.com/gpu, value: "true", effect: NoSchedule}]
      status:
        allocatable: {cpu: "4", memory: 16Gi, pods: "110"}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: vllm}
      spec:
        containers:
        - name: vllm
          image: vllm/vllm-openai
          resources: {limits: {nvidia.com/gpu: 1}}
      """;

  private static Path cluster(Path dir) throws IOException {
    Path f = dir.resolve("cluster.yaml");
    Files.writeString(f, CLUSTER);
    return f;
  }

  @Test
  void eksTolerationIsOnByDefaultAndOffWhereTheClusterDisablesIt(@TempDir Path dir) throws IOException {
    String f = cluster(dir).toString();

    CliRun eks = CliRun.of("schedule", "-f", f);
    assertThat(eks.exitCode()).isZero();
    assertThat(eks.out()).containsPattern("vllm +0/1 +ContainerCreating +0 +0s +gpu-1");

    String off = "--disable-admission-plugins=ExtendedResourceToleration";
    CliRun kubeadm = CliRun.of("schedule", "-f", f, off);
    assertThat(kubeadm.out()).containsPattern("vllm +0/1 +Pending")
        .contains("1 node(s) had untolerated taint(s)");
    assertThat(CliRun.of("smi", "-f", f, off).out()).contains("default/vllm", "untolerated taint");
    assertThat(CliRun.of("lint", "-f", f, off).out()).contains("gpu-pod-untolerated");
    assertThat(CliRun.of("lint", "-f", f).out()).doesNotContain("gpu-pod-untolerated");
    CliRun simulated = CliRun.of("simulate", "-f", f, off, "--for", "1m", "--out", dir.resolve("run").toString());
    assertThat(simulated.exitCode()).isZero();
    assertThat(simulated.out()).contains("untolerated taint(s)");
  }

  @Test
  void aNameKubeApiserverDoesNotHaveIsAnError(@TempDir Path dir) throws IOException {
    CliRun r = CliRun.of("schedule", "-f", cluster(dir).toString(), "--disable-admission-plugins", "ExtendedToleration");
    assertThat(r.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(r.err()).contains("--enable-admission-plugins/--disable-admission-plugins: unknown admission plugin "
        + "\"ExtendedToleration\": kube-apiserver has ");
    CliRun both = CliRun.of("schedule", "-f", cluster(dir).toString(), "--enable-admission-plugins", "AlwaysPullImages",
        "--disable-admission-plugins", "AlwaysPullImages");
    assertThat(both.err()).contains("admission plugin \"AlwaysPullImages\" is both enabled and disabled");
  }

  @Test
  void aScenarioNamesItsPluginsInSpecApiServer(@TempDir Path dir) throws IOException {
    cluster(dir);
    Path scenario = dir.resolve("s.yaml");
    Files.writeString(scenario, """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: kubeadm}
        spec:
          apiServer:
            disableAdmissionPlugins: [ExtendedResourceToleration, NoSuchPlugin]
          cluster:
          - file: cluster.yaml
          steps:
          - title: a minute
            actions:
            - wait: 60s
        """);
    CliRun r = CliRun.of("simulate", scenario.toString(), "--out", dir.resolve("run").toString());
    assertThat(r.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(r.err()).contains("s.yaml:6:5: ").contains("unknown admission plugin \"NoSuchPlugin\"");
    CliRun withOption = CliRun.of("simulate", scenario.toString(), "--disable-admission-plugins=Priority");
    assertThat(withOption.err()).contains("a SCENARIO file names its admission plugins with spec.apiServer");
  }
}
