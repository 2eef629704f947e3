package io.gpufleet.report.browser;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/** The harness itself must see console errors, or a clean report proves nothing. */
class HeadlessChromiumTest {

  @Test
  void seesConsoleErrorsAndTheirAbsence(@TempDir Path dir) throws IOException {
    Path clean = dir.resolve("clean.html");
    Files.writeString(clean, "<!doctype html><html><body><svg id='c' width='10' height='10'></svg></body></html>");
    Path broken = dir.resolve("broken.html");
    Files.writeString(broken, "<!doctype html><html><body><script>undefinedFunction();</script></body></html>");
    try (HeadlessChromium chrome = HeadlessChromium.start()) {
      assertThat(chrome.open(clean)).isEmpty();
      assertThat(chrome.driver().findElements(By.id("c"))).hasSize(1);
      assertThat(chrome.open(broken)).singleElement().asString().contains("undefinedFunction");
    }
  }
}
