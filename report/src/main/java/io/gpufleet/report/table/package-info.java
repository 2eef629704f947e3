/**
 * The kubectl-style text table every text report prints through.
 */
package io.gpufleet.report.table;
