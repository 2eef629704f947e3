/**
 * The API server's validation of the pod fields gpufleet models, with its exact wording, as
 * field errors. Pure checks over values; turning them into file:line:column messages is the
 * manifest reader's job.
 */
package io.gpufleet.model.validation;
