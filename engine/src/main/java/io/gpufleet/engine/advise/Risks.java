package io.gpufleet.engine.advise;

/**
 * The risks the sharing modes carry, as data. Facts carry the reference section or issue they come
 * from; {@code SEED} is the workshop's sharing module, {@code REF} {@code k8s-gpu-semantics.md}.
 */
public final class Risks {
  private Risks() {}

  public static final Risk NO_MEMORY_ISOLATION = new Risk("no-memory-isolation",
      "no memory isolation: one pod can allocate what its co-tenants need and OOM them",
      "SEED time-slicing; REF §2.2; NVIDIA/k8s-device-plugin#323, #461");
  public static final Risk NO_FAULT_ISOLATION = new Risk("no-fault-isolation",
      "no fault isolation: one pod's Xid error can take down the others on the card",
      "SEED time-slicing; REF §2.2");
  public static final Risk CONTEXT_SWITCH = new Risk("context-switch",
      "context switches cost GPU time (8% on the H200) and round-robin turns show up in p99",
      "SEED time-slicing; H200 measurement, big rows");
  public static final Risk NO_PER_POD_METRICS = new Risk("no-per-pod-metrics",
      "DCGM cannot attribute GPU utilisation to pods on a shared card",
      "SEED time-slicing; REF §7.13; NVIDIA/dcgm-exporter#307, #587");
  public static final Risk KARPENTER_COUNTS_PHYSICAL = new Risk("karpenter-physical-gpus",
      "Karpenter sizes new nodes by physical GPUs, not replicas: scale-out over- or under-provisions",
      "REF §7.3; kubernetes-sigs/karpenter#729, #2140");
  public static final Risk SHARED_FAULT_DOMAIN = new Risk("shared-fault-domain",
      "MPS clients share one fault domain: a fatal GPU exception in one reaches every client on the card; tenants must trust each other",
      "SEED MPS (trust your tenants); NVIDIA MPS documentation (Volta MPS: per-client address spaces, shared error containment)");
  public static final Risk MPS_EXPERIMENTAL = new Risk("mps-experimental",
      "MPS in the device plugin is experimental and its control daemon is one more thing to fail",
      "REF §2.2 (experimental since v0.15.0); REF §7.15; NVIDIA/k8s-device-plugin#762, #1105");
  public static final Risk MPS_THREAD_LIMIT = new Risk("mps-thread-limit",
      "the device plugin caps each MPS client at 100/replicas % of the SMs, so a lone busy client cannot use an idle card",
      "REF §2.2 set_default_active_thread_percentage");
  public static final Risk MIG_FIXED_PROFILES = new Risk("mig-fixed-profiles",
      "MIG profiles are fixed; re-partitioning evicts the card's GPU clients and can need a reboot",
      "SEED MIG; REF §2.4, §7.14; NVIDIA/mig-parted#9, NVIDIA/gpu-operator#603");
  public static final Risk MIG_SLICE_SPEED = new Risk("mig-slice-speed",
      "a MIG instance has its share of the memory bandwidth, so each request runs slower than on the whole card",
      "NVIDIA MIG user guide (profiles: fraction of memory and L2)");
  public static final Risk SHARED_FATE = new Risk("shared-fate",
      "every replica of a workload sits on one card or node: one GPU fault or node loss takes them all",
      "SEED Karpenter and GPU fleets (at least two replicas if the SLO matters)");
  public static final Risk IDLE_CAPACITY = new Risk("idle-capacity",
      "most of the GPU capacity paid for stays idle",
      "SEED the utilisation problem");
  public static final Risk TIGHT_SLO = new Risk("tight-slo",
      "the SLO holds with little room: a modest rise in load breaks it",
      "this model's headroom");
}
