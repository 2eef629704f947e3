package io.gpufleet.engine.advise;

/**
 * The risks the sharing modes carry, as data. Each names where a user can read it: the upstream
 * document, source file or issue (URLs), or the repository's own measurement ({@code data/...}).
 */
public final class Risks {
  private Risks() {}

  public static final Risk NO_MEMORY_ISOLATION = new Risk("no-memory-isolation",
      "no memory isolation: one pod can allocate what its co-tenants need and OOM them",
      "https://github.com/NVIDIA/k8s-device-plugin#shared-access-to-gpus; https://github.com/NVIDIA/k8s-device-plugin/issues/323, https://github.com/NVIDIA/k8s-device-plugin/issues/461");
  public static final Risk NO_FAULT_ISOLATION = new Risk("no-fault-isolation",
      "no fault isolation: one pod's Xid error can take down the others on the card",
      "https://github.com/NVIDIA/k8s-device-plugin#shared-access-to-gpus");
  public static final Risk CONTEXT_SWITCH = new Risk("context-switch",
      "context switches cost GPU time (8% on the H200) and round-robin turns show up in p99",
      "data/h200-bench-sharing (time-slicing, big rows)");
  public static final Risk NO_PER_POD_METRICS = new Risk("no-per-pod-metrics",
      "DCGM cannot attribute GPU utilisation to pods on a shared card",
      "https://github.com/NVIDIA/dcgm-exporter/issues/307, https://github.com/NVIDIA/dcgm-exporter/issues/587");
  public static final Risk KARPENTER_COUNTS_PHYSICAL = new Risk("karpenter-physical-gpus",
      "Karpenter sizes new nodes by physical GPUs, not replicas: scale-out over- or under-provisions",
      "https://github.com/kubernetes-sigs/karpenter/issues/729, https://github.com/kubernetes-sigs/karpenter/issues/2140");
  public static final Risk SHARED_FAULT_DOMAIN = new Risk("shared-fault-domain",
      "MPS clients share one fault domain: a fatal GPU exception in one reaches every client on the card; tenants must trust each other",
      "https://docs.nvidia.com/deploy/mps/ (Volta MPS: per-client address spaces, shared error containment)");
  public static final Risk MPS_EXPERIMENTAL = new Risk("mps-experimental",
      "MPS in the device plugin is experimental and its control daemon is one more thing to fail",
      "https://github.com/NVIDIA/k8s-device-plugin#with-cuda-mps (experimental since v0.15.0); https://github.com/NVIDIA/k8s-device-plugin/issues/762, https://github.com/NVIDIA/k8s-device-plugin/issues/1105");
  public static final Risk MPS_THREAD_LIMIT = new Risk("mps-thread-limit",
      "the device plugin caps each MPS client at 100/replicas % of the SMs, so a lone busy client cannot use an idle card",
      "https://github.com/NVIDIA/k8s-device-plugin/blob/main/cmd/mps-control-daemon/mps/daemon.go (set_default_active_thread_percentage)");
  public static final Risk MIG_FIXED_PROFILES = new Risk("mig-fixed-profiles",
      "MIG profiles are fixed; re-partitioning evicts the card's GPU clients and can need a reboot",
      "https://docs.nvidia.com/datacenter/tesla/mig-user-guide/; https://github.com/NVIDIA/mig-parted/issues/9, https://github.com/NVIDIA/gpu-operator/issues/603");
  public static final Risk MIG_SLICE_SPEED = new Risk("mig-slice-speed",
      "a MIG instance has its share of the memory bandwidth, so each request runs slower than on the whole card",
      "https://docs.nvidia.com/datacenter/tesla/mig-user-guide/ (profiles: fraction of memory and L2)");
  public static final Risk SHARED_FATE = new Risk("shared-fate",
      "every replica of a workload sits on one card or node: one GPU fault or node loss takes them all",
      "https://kubernetes.io/docs/concepts/scheduling-eviction/topology-spread-constraints/ (spread replicas over nodes)");
  public static final Risk IDLE_CAPACITY = new Risk("idle-capacity",
      "most of the GPU capacity paid for stays idle",
      "this table's UTIL column");
  public static final Risk TIGHT_SLO = new Risk("tight-slo",
      "the SLO holds with little room: a modest rise in load breaks it",
      "this model's headroom");
}
