/**
 * What the NVIDIA device plugin will advertise on a node Karpenter plans or launches, as the
 * role {@code GpuAdvertiser}, implemented over the engine's device-plugin emulation. No device
 * allocation here: that is the engine's.
 */
package io.gpufleet.autoscaler.gpu;
