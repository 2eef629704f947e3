package io.gpufleet.sim.invariant;

import java.util.Optional;

/**
 * An eviction as the Eviction API saw it when it let it through: the pod's one PDB (if any) and the
 * disruptions it allowed just before, and whether the pod asked not to be disrupted. Forced
 * deletions at a NodePool's grace deadline are exempt from both rules (reference §1.8).
 */
public record Eviction(String pod, boolean forced, Optional<String> pdb, int allowedBefore, boolean doNotDisrupt) {}
