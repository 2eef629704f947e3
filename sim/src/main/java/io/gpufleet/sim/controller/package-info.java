/**
 * The simulated control plane: the API server that holds the cluster image, and the kube-
 * scheduler, kubelet, taint manager, workload controllers, cloud and Karpenter loop that react
 * to events, plus the scenario player. Wiring and timing only; the decisions they call live in
 * {@code engine} and {@code autoscaler}.
 */
package io.gpufleet.sim.controller;
