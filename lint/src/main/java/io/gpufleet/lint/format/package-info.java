/**
 * How findings are written: text for people, JSON for scripts, SARIF 2.1.0 for code-scanning
 * tools. Rendering only; the findings and their order come from the linter.
 */
package io.gpufleet.lint.format;
