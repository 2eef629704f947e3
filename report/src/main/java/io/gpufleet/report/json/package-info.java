/** The one JSON writer every command's {@code -o json} and result file goes through. */
package io.gpufleet.report.json;
