package io.gpufleet.manifest;

/** The text of one manifest input, with the name its errors carry ({@code -} is stdin). */
public record ManifestSource(String name, String text) {}
