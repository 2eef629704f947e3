package io.gpufleet.web.view;

/**
 * One step of the scenario on the run's timeline: its id and title, what it does, and the frames
 * where it starts and where its closing checkpoint is (the cluster as the step leaves it).
 */
public record StepMark(String id, String title, String description, int startFrame, int endFrame) {}
