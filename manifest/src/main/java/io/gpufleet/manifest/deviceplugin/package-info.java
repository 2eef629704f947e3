/**
 * Decodes the NVIDIA device plugin's config and mig-parted configs, stand-alone or embedded in
 * ConfigMaps, strictly and with errors located in the user's file. What a node advertises under
 * them is the engine's business.
 */
package io.gpufleet.manifest.deviceplugin;
