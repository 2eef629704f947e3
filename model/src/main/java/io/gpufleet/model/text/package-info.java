/** Text from users' files and remote servers made safe to print on a terminal, a page or a report. */
package io.gpufleet.model.text;
