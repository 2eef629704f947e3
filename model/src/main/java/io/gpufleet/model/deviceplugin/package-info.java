/**
 * The NVIDIA device plugin's and mig-parted's configuration as values: flags, the sharing
 * sections, the strategy a config resolves to, named configs and MIG layouts asked for, and
 * {@code SharingMode}, the one vocabulary of ways to share a card that the device plugin and the
 * performance model both speak. Decoding
 * the YAML lives in {@code manifest.deviceplugin}; what a node advertises under a config lives
 * in {@code engine.deviceplugin}.
 */
package io.gpufleet.model.deviceplugin;
