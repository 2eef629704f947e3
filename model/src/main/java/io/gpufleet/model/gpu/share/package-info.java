/**
 * Pods and nodes as a shared-GPU placement sees them (the openb trace's world): milli-GPU
 * fractions or whole cards, CPU, memory and the card models a pod accepts. Values only; the
 * placement policies over them live in {@code engine.placement}.
 */
package io.gpufleet.model.gpu.share;
