/**
 * Reads the openb trace's CSV node and pod lists (the FGD paper's data) into the model's shared-
 * GPU values, with file:line errors. No placement or replay logic.
 */
package io.gpufleet.manifest.openb;
