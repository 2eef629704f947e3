/**
 * Karpenter conformance: cases translated from kubernetes-sigs/karpenter's and
 * aws/karpenter-provider-aws's Ginkgo suites, each naming its upstream file and {@code It} text, run
 * against the twin's autoscaler; known differences are kept, counted and explained, and
 * docs/conformance.md's Karpenter table is checked against the suite.
 */
package io.gpufleet.autoscaler.conformance;
