package io.gpufleet.web.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.report.timeline.NodeLifecycle;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Issue 31: the dashboard's lifecycle lanes use the report's palette (NodeLifecycle#colour), state by state. */
class LifecyclePaletteCssTest {

  @Test
  void everyLaneStateHasTheReportsColour() throws IOException {
    String css;
    try (InputStream in = getClass().getResourceAsStream("/io/gpufleet/web/assets/app.css")) {
      assertThat(in).isNotNull();
      css = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    for (NodeLifecycle s : NodeLifecycle.values()) {
      // A rule whose selector list names .span.<state>, and its background.
      Matcher m = Pattern.compile("[^}]*\\.span\\." + s.wire() + "\\b[^{]*\\{\\s*background:\\s*(#[0-9a-f]{6})").matcher(css);
      assertThat(m.find()).as(s.wire()).isTrue();
      assertThat(m.group(1)).as(s.wire()).isEqualTo(s.colour());
    }
  }
}
