package io.gpufleet.web.server;

import io.gpufleet.sim.forecast.JobForecast;

/**
 * What the when view asks of the command that started the dashboard: the job's manifest (its text)
 * added to the cluster the dashboard was started with, played forward for {@code within} once per
 * seed, exactly as {@code gpufleet when} plays it. The command reads manifests; the dashboard does
 * not, so the question goes back to it.
 */
public interface Forecaster {

  /** The cluster the question is asked against, as the command names its inputs. */
  String cluster();

  /** How far {@code when} plays forward unless told ({@code --within}'s default). */
  String within();

  /** The seeds {@code when} runs unless told ({@code --seeds}'s default). */
  String seeds();

  /** The forecast, or why the question was refused (bad YAML, no job in it, a bad duration or seed list). */
  Answer forecast(String job, String within, String seeds);

  /** A forecast, or a refusal in one message. */
  sealed interface Answer {
    record Forecast(JobForecast forecast) implements Answer {}

    record Refused(String message) implements Answer {}
  }
}
