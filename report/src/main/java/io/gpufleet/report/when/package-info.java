/** {@code gpufleet when}'s answer, as text and as JSON. */
package io.gpufleet.report.when;
