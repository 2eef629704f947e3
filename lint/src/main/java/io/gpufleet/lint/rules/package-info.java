/**
 * The lint rules, one per file, and {@link io.gpufleet.lint.rules.Rules}, the registry that lists
 * them. Each rule reads the {@link io.gpufleet.lint.LintInput} and returns findings; none changes
 * anything or depends on another.
 */
package io.gpufleet.lint.rules;
