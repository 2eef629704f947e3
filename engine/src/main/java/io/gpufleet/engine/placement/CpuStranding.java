package io.gpufleet.engine.placement;

/**
 * The GPU a node cannot feed with its remaining CPU: free milli-GPU beyond what its free CPU covers
 * at the workload's mean CPU per milli-GPU. FGD's measure sees CPU only one pod ahead (can the next
 * typical pod still fit?); this sees the node filled up. A node with 8 free cards and CPU for one
 * more pod looks healthy to FGD, and yet seven cards will sit idle.
 *
 * <p>The rate {@code rho} is the typical GPU pods' CPU over their GPU, both weighted by share, so it
 * comes from the workload, not from a tuning knob.
 */
public final class CpuStranding {

  private final double milliCpuPerMilliGpu;

  public CpuStranding(TypicalPods typical) {
    double cpu = 0;
    double gpu = 0;
    for (TypicalPod p : typical.pods()) {
      if (!p.isCpuOnly()) {
        cpu += p.share() * p.milliCpu();
        gpu += p.share() * p.cards() * p.milliPerCard();
      }
    }
    this.milliCpuPerMilliGpu = gpu == 0 ? 0 : cpu / gpu;
  }

  /** The workload's mean milli-CPU per milli-GPU over its typical GPU pods. */
  public double milliCpuPerMilliGpu() {
    return milliCpuPerMilliGpu;
  }

  /** The node's stranded milli-GPU. */
  public double of(NodeImage node) {
    return stranded(node.milliGpuLeft(), node.milliCpuLeft());
  }

  /** The node's stranded milli-GPU after the pod lands on {@code devices}. */
  public double after(NodeImage node, PodShape pod, long devices) {
    return stranded(node.milliGpuLeft() - Long.bitCount(devices) * pod.milliPerCard(),
        node.milliCpuLeft() - pod.milliCpu());
  }

  private double stranded(int milliGpuLeft, int milliCpuLeft) {
    if (milliCpuPerMilliGpu == 0) {
      return 0;
    }
    return Math.max(0, milliGpuLeft - milliCpuLeft / milliCpuPerMilliGpu);
  }
}
