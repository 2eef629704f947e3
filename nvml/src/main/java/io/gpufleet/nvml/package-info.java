/**
 * The real GPUs of this machine through NVML, called with {@code java.lang.foreign} (no JNI, no
 * native build): {@link io.gpufleet.nvml.Nvml} is the role the probe needs, {@link
 * io.gpufleet.nvml.NvmlLibrary} binds it to {@code libnvidia-ml.so.1}, and {@link
 * io.gpufleet.nvml.NodeProbe} turns what it reports into the labels GPU Feature Discovery would
 * publish, through the device-plugin layer's own label code. Where there is no GPU or no driver,
 * {@link io.gpufleet.nvml.GpuUnavailable} carries one line for the user.
 */
package io.gpufleet.nvml;
