package io.gpufleet.engine.placement;

import java.util.random.RandomGenerator;

/**
 * A placement policy as a kube-scheduler score plugin plus its card choice: the scheduler keeps the
 * nodes that {@linkplain NodeImage#fits fit} and takes the highest {@link #score} (how it breaks ties
 * is the scheduler's business, not the policy's), and the policy then picks the cards on the chosen
 * node. A policy that {@linkplain #drawsNode draws its node} instead has one fitting node drawn
 * uniformly at random, as the Random plugin does in its pre-score step.
 *
 * <p>A score is a pure function of the node image and the pod shape, so callers may cache it per
 * (node image, pod shape). Policies that memoise internally are made per run and are not shared
 * between threads.
 */
public sealed interface PlacementPolicy
    permits RandomFit, DotProduct, GpuClustering, GpuPacking, BestFit, FragmentationGradientDescent,
        CpuAwareFragmentationGradientDescent {

  /** The policy's name as tables print it. */
  String name();

  /** The node's score for the pod, higher is better; called only for nodes the pod fits. */
  double score(NodeImage node, PodShape pod);

  /** Whether the node is drawn uniformly among those that fit rather than chosen by score. */
  default boolean drawsNode() {
    return false;
  }

  /** The cards the pod takes on the chosen node, as a mask of device indices (0 for a CPU-only pod). */
  long cards(NodeImage node, PodShape pod, RandomGenerator rng);

  /** The score kube-scheduler caps every plugin's score at. */
  int MAX_NODE_SCORE = 100;
  /** The CPU (milli) and GPU (milli) of the largest node shape, the scale BestFit and DotProduct use. */
  int MAX_SPEC_MILLI_CPU = 128_000;
  int MAX_SPEC_MILLI_GPU = 8_000;
}
