/**
 * The NVIDIA device plugin's and mig-parted's configuration as values: flags, the sharing
 * sections, the strategy a config resolves to, named configs and MIG layouts asked for. Decoding
 * the YAML lives in {@code manifest.deviceplugin}; what a node advertises under a config lives
 * in {@code engine.deviceplugin}.
 */
package io.gpufleet.model.deviceplugin;
