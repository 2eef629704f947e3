/**
 * The NVIDIA device plugin, GPU Feature Discovery and the kubelet's device manager as pure
 * functions: what a node advertises and is labelled when the plugin registers, which devices
 * each container gets, and which pods a GPU fault reaches. No clock and no cluster: the
 * simulator and the commands decide when these run.
 */
package io.gpufleet.engine.deviceplugin;
