/**
 * An {@code nvidia-smi}-like view of a cluster's GPUs: cards, MIG devices and the containers
 * holding them. Rendering only.
 */
package io.gpufleet.report.smi;
