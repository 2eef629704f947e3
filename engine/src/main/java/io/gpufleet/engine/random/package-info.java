/**
 * Seeded random streams, one per purpose, each derived from the seed and the purpose's name alone, so
 * that every command that draws for one purpose (naming the pods a controller makes, breaking
 * kube-scheduler's ties) draws the same numbers from the same seed.
 */
package io.gpufleet.engine.random;
