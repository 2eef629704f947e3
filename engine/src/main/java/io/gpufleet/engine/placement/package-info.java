/**
 * Shared-GPU placement policies of the FGD paper's world (FGD, our CPU-aware FGD, BestFit,
 * DotProduct, GpuPacking, GpuClustering, Random) over per-card node images and pod shapes, with
 * the fragmentation measure. Scoring and card choice only; the replay loop that drives them
 * lives in {@code sim.replay}.
 */
package io.gpufleet.engine.placement;
