/**
 * Property tests in plain JUnit: a {@link io.gpufleet.testing.property.Gen generator} draws samples
 * from a {@link java.util.SplittableRandom} seeded per property, {@link
 * io.gpufleet.testing.property.Property#check Property.check} runs the property a fixed number of
 * tries inside an ordinary {@code @Test} method (edge cases first: the bounds of a range, zero and
 * one, the empty list), and on failure shrinks the sample (a list loses chunks and elements, a number
 * moves towards zero) and reports the seed, the try, the first failing sample and the smallest.
 *
 * <p>Why not a library: the property library these tests used before asks AI agents not to use it, and
 * this project is written with AI help. Where it lives: every module that has properties depends on
 * {@code gpufleet-model}, so the helper is in model's test sources and travels to the other modules
 * as model's test-jar (test scope), as report's browser harness and k8s's mock cluster travel to the
 * command line's tests; a module of its own would add a reactor module for five small classes.
 */
package io.gpufleet.testing.property;
