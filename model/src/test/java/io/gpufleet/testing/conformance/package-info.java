/**
 * What every conformance suite shares: a case translated from an upstream system's tests, docs or
 * maintainers' statements ({@link io.gpufleet.testing.conformance.UpstreamCase}: its area, upstream
 * source, test name, check and, for a known difference, the reason), the per-area count of cases and
 * passing cases ({@link io.gpufleet.testing.conformance.Count}), the cases as JUnit dynamic tests with
 * the checks on known differences ({@link io.gpufleet.testing.conformance.Cases}, run by every suite's
 * test through {@link io.gpufleet.testing.conformance.UpstreamSuiteTests}), and the reading of
 * docs/conformance.md's and the README's count tables ({@link
 * io.gpufleet.testing.conformance.ConformanceDoc}).
 *
 * <p>Why here: the suites live in the engine (kube-scheduler), autoscaler (Karpenter), queue (Kueue)
 * and cli (NVIDIA) modules' tests, all of which depend on {@code gpufleet-model}'s test-jar already for
 * {@link io.gpufleet.testing.property}; one implementation here keeps their counting and table
 * reading the same.
 */
package io.gpufleet.testing.conformance;
