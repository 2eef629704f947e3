/**
 * Karpenter conformance: cases translated from kubernetes-sigs/karpenter's and
 * aws/karpenter-provider-aws's Ginkgo and e2e suites, each naming its upstream file and {@code It} text,
 * from the karpenter.sh concept pages' examples ({@code docs:}) and from maintainers' answers in issues
 * ({@code issue:}), run against the twin's autoscaler; known differences are kept, counted and explained, and
 * docs/conformance.md's Karpenter table is checked against the suite.
 */
package io.gpufleet.autoscaler.conformance;
