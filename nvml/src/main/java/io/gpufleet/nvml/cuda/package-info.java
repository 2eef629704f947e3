/**
 * The CUDA driver API through {@code java.lang.foreign}: a device's primary context, a module
 * from the PTX shipped beside {@code tenant-kernels.cu}, memory, launches and events. Enough to run
 * the sharing benchmark's two tenant kernels, nothing more.
 */
package io.gpufleet.nvml.cuda;
