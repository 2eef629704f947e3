/**
 * The HTTP side of {@code gpufleet serve}: Javalin routes over the views, a fixed list of assets
 * from the jar, request checking, and the bounds on runs kept and played at once.
 */
package io.gpufleet.web.server;
