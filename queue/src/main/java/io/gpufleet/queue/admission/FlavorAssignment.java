package io.gpufleet.queue.admission;

/** The flavor chosen for one resource of a pod set, with its mode and borrowing height. */
public record FlavorAssignment(String flavor, FlavorAssignmentMode mode, int borrow) {}
