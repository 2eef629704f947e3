/**
 * Kueue's admission as pure decisions, following kubernetes-sigs/kueue: the API objects
 * ({@code api}), quota with cohorts, borrowing and lending ({@code quota}), and flavor assignment
 * with the scheduler's cycle ({@code admission}). Time is passed in; nothing here reads a clock.
 */
package io.gpufleet.queue;
