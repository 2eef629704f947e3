/**
 * Entry point for reading Kubernetes manifest files (multi-document YAML, lists, stdin) into a
 * bundle of model values with the warnings seen. Reading only: no scheduling or simulation logic
 * (the layering test forbids it).
 */
package io.gpufleet.manifest;
