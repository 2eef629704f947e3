/**
 * kube-scheduler's filter and score plugins that decide GPU placement, each one file behind the
 * {@code FilterPlugin}/{@code ScorePlugin} extension points, with the messages kube-scheduler
 * prints. A plugin judges one pod against one node image and holds no state.
 */
package io.gpufleet.engine.scheduler.plugin;
