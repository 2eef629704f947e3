package io.gpufleet.bench;

import io.gpufleet.manifest.ManifestBundle;
import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YamlReader;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How fast gpufleet reads large inputs (issue 17): a single-document {@code kind: List} dump of
 * Nodes as {@code kubectl get nodes -o yaml} writes them, and one long scalar (a ConfigMap value).
 * The inputs are generated here, at the sizes the issue names ({@code -p megabytes=50} for the List,
 * 16 for the scalar by default). JMH prints reads per second and, as the {@code mb} counter, the read
 * rate in MB (10^6 characters) per second. Run from the project root:
 * {@code scripts/bench YamlReadBench}; figures in docs/input-limits.md.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g"})
@Warmup(iterations = 2, time = 10)
@Measurement(iterations = 3, time = 10)
public class YamlReadBench {

  /** Size of the List dump in MB. */
  @Param("50")
  public int listMegabytes;

  /** Size of the long scalar in MB. */
  @Param("16")
  public int scalarMegabytes;

  private String list;
  private String scalar;

  /** The read rate: MB read per second of the benchmark's time. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Rate {
    public double mb;

    @Setup(Level.Iteration)
    public void reset() {
      mb = 0;
    }
  }

  @Setup
  public void generate() {
    list = nodeList(listMegabytes * 1_000_000L);
    scalar = longScalar(scalarMegabytes * 1_000_000L);
  }

  /** A {@code kind: List} of Nodes, each about 1.2 kB as the API server writes them, up to {@code size} characters. */
  static String nodeList(long size) {
    StringBuilder b = new StringBuilder((int) Math.min(Integer.MAX_VALUE - 16, size + 4096));
    b.append("apiVersion: v1\nkind: List\nmetadata:\n  resourceVersion: \"\"\nitems:\n");
    for (int i = 0; b.length() < size; i++) {
      b.append("- apiVersion: v1\n  kind: Node\n  metadata:\n")
          .append("    name: ip-10-").append(i / 65536 % 256).append('-').append(i / 256 % 256).append('-')
          .append(i % 256).append(".ec2.internal\n")
          .append("    labels:\n")
          .append("      kubernetes.io/hostname: node-").append(i).append('\n')
          .append("      node.kubernetes.io/instance-type: p5.48xlarge\n")
          .append("      topology.kubernetes.io/zone: us-east-1a\n")
          .append("      karpenter.sh/capacity-type: on-demand\n")
          .append("      nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3\n")
          .append("      nvidia.com/gpu.count: \"8\"\n")
          .append("      nvidia.com/gpu.memory: \"81559\"\n")
          .append("  spec:\n    providerID: aws:///us-east-1a/i-").append(String.format("%017x", i)).append('\n')
          .append("    taints:\n    - key: nvidia.com/gpu\n      value: \"true\"\n      effect: NoSchedule\n")
          .append("  status:\n    capacity:\n      cpu: \"192\"\n      memory: 2097152Mi\n")
          .append("      nvidia.com/gpu: \"8\"\n      pods: \"110\"\n")
          .append("    allocatable:\n      cpu: 191450m\n      memory: 2062000Mi\n")
          .append("      nvidia.com/gpu: \"8\"\n      pods: \"110\"\n")
          .append("    conditions:\n    - type: Ready\n      status: \"True\"\n      reason: KubeletReady\n")
          .append("      lastTransitionTime: \"2026-11-29T08:00:00Z\"\n")
          .append("      message: kubelet is posting ready status\n");
    }
    return b.toString();
  }

  /** A ConfigMap whose one value is a plain scalar of {@code size} characters. */
  static String longScalar(long size) {
    StringBuilder b = new StringBuilder((int) size + 128);
    b.append("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  blob: ");
    while (b.length() < size) {
      b.append("abcdefghij");
    }
    return b.append('\n').toString();
  }

  /** The YAML layer alone: located trees of the 50 MB List. */
  @Benchmark
  public List<YNode> listYaml(Rate rate) {
    List<YNode> docs = new YamlReader().readAll("list.yaml", list);
    rate.mb += list.length() / 1e6;
    return docs;
  }

  /** What every command does with it: YAML, then the Kubernetes objects decoded and checked. */
  @Benchmark
  public ManifestBundle listManifest(Rate rate) {
    ManifestBundle bundle = new ManifestReader().read("list.yaml", list);
    rate.mb += list.length() / 1e6;
    return bundle;
  }

  /** The 16 MB scalar through the YAML layer. */
  @Benchmark
  public List<YNode> scalarYaml(Rate rate) {
    List<YNode> docs = new YamlReader().readAll("scalar.yaml", scalar);
    rate.mb += scalar.length() / 1e6;
    return docs;
  }
}
