/**
 * Replay and sweep results as terminal summaries, CSV curves and the comparison with the FGD
 * paper's published figures, in locale-independent number formats. Rendering only; the replays
 * run in {@code sim.replay}.
 */
package io.gpufleet.report.replay;
