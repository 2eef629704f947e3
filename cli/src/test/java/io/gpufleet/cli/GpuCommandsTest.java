package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The "done when" of the device-plugin issue, through the command line on the shipped examples. */
class GpuCommandsTest {

  /** The examples folder at the repository root, found from the module's working directory. */
  private static Path example(String name) {
    Path here = Path.of("").toAbsolutePath();
    for (Path p = here; p != null; p = p.getParent()) {
      Path candidate = p.resolve("examples/gpu").resolve(name);
      if (Files.exists(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException("examples/gpu/" + name + " not found above " + here);
  }

  record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = Main.commandLine();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(CliRun.withWide(args)); // rows whole, as the patterns read them
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void timeSlicedA10gAdvertisesFourAndLabelsShared() {
    Run r = run("node", "describe", "-f", example("lab-time-slicing.yaml").toString());
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("nvidia.com/gpu:  4", "nvidia.com/gpu.product=NVIDIA-A10G-SHARED",
        "nvidia.com/gpu.replicas=4", "nvidia.com/gpu.sharing-strategy=time-slicing",
        "Config:             ts4 (from label nvidia.com/device-plugin.config)");
  }

  @Test
  void fourPodsShareGpuZeroAndTheFifthIsRefused() {
    Run r = run("smi", "-f", example("lab-time-slicing.yaml").toString());
    assertThat(r.code()).isZero();
    assertThat(r.out().lines().filter(l -> l.startsWith("| 0     -     GPU-") && l.contains("default/notebook-")))
        .hasSize(4);
    assertThat(r.out()).containsPattern("default/notebook-\\S+ +Pending +0/1 nodes are available: 1 Insufficient "
        + "nvidia.com/gpu\\.");
  }

  @Test
  void renamedSharingAdvertisesGpuSharedAndKeepsThePlainProduct() {
    Run r = run("node", "describe", "-f", example("node-a10g-renamed.yaml").toString());
    assertThat(r.out()).contains("nvidia.com/gpu.shared:  4", "nvidia.com/gpu.product=NVIDIA-A10G\n")
        .doesNotContain("SHARED").doesNotContain("nvidia.com/gpu:");
  }

  @Test
  void h100AllOneGigMixedAdvertisesSevenMigDevices() {
    Run r = run("node", "describe", "-f", example("node-h100-mig-mixed.yaml").toString());
    assertThat(r.out()).contains("nvidia.com/mig-1g.10gb:  7", "nvidia.com/mig-1g.10gb.count=7",
        "nvidia.com/mig.strategy=mixed", "nvidia.com/mig.config.state=success");
  }

  @Test
  void a10gAskedForMigIsRefused() {
    Run r = run("node", "describe", "-f", example("node-a10g-mig.yaml").toString());
    assertThat(r.out()).contains("MIG is not supported on NVIDIA A10G", "nvidia.com/mig.config.state=failed",
        "nvidia.com/gpu:  1");
  }

  @Test
  void mixedClusterShowsMigDevicesUnderTheirParentAndTheMpsAdmissionError() {
    Run r = run("smi", "-f", example("cluster-mixed.yaml").toString());
    assertThat(r.out()).contains("Node a100-mig   1 x NVIDIA A100-SXM4-80GB   MIG, exclusive",
        "  3g.40gb @4", "5758MiB, 25% threads",
        "UnexpectedAdmissionError: Allocate failed due to rpc error: code = Unknown desc = invalid allocation "
            + "request for \"nvidia.com/gpu\": invalid request: maximum request size for shared resources is 1; "
            + "found 2");
    // Deterministic: the same file and seed print the same bytes.
    assertThat(run("smi", "-f", example("cluster-mixed.yaml").toString()).out()).isEqualTo(r.out());
  }

  @Test
  void badInputIsOneLinePerProblemAndExitCodeTwo(@TempDir Path dir) throws IOException {
    Path bad = dir.resolve("bad.yaml");
    Files.writeString(bad, """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: plugin
        data:
          ts: |-
            version: v1
            sharing:
              timeSlicing:
                resources:
                - name: nvidia.com/gpu
                  replicas: 1
        """);
    Run r = run("smi", "-f", bad.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).isEqualTo(bad + ":12:21: data[ts].sharing.timeSlicing.resources[0].replicas: "
        + "number of replicas must be >= 2, found 1\ngpufleet: 1 error(s); nothing was run.\n");
    assertThat(r.out()).isEmpty();
    Run missing = run("node", "describe", "-f", dir.resolve("none.yaml").toString());
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).isEqualTo(dir.resolve("none.yaml") + ": no such file or directory\n"
        + "gpufleet: 1 error(s); nothing was run.\n");
  }
}
