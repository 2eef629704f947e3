package io.gpufleet.report.browser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Opens a report in Debian's headless Chromium through chromedriver and returns what its console
 * said. Skips the test where no browser is installed, unless {@code GPUFLEET_REQUIRE_BROWSER=1}
 * (set by CI), where a missing browser fails it.
 */
public final class HeadlessChromium implements AutoCloseable {

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  private final ChromeDriver driver;

  private HeadlessChromium(ChromeDriver driver) {
    this.driver = driver;
  }

  public static HeadlessChromium start() {
    boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    if (!present && "1".equals(System.getenv("GPUFLEET_REQUIRE_BROWSER"))) {
      throw new AssertionError("GPUFLEET_REQUIRE_BROWSER=1 but " + CHROMIUM + " or " + CHROMEDRIVER
          + " is missing (Debian packages chromium and chromium-driver)");
    }
    Assumptions.assumeTrue(present, "no headless Chromium here (install chromium and chromium-driver)");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--allow-file-access-from-files");
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
    return new HeadlessChromium(new ChromeDriver(service, options));
  }

  public WebDriver driver() {
    return driver;
  }

  /** Loads a file and returns the console messages logged at SEVERE (errors). */
  public List<String> open(Path file) {
    driver.get(file.toUri().toString());
    return consoleErrors();
  }

  public List<String> consoleErrors() {
    return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
        .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
        .map(LogEntry::getMessage).toList();
  }

  @Override
  public void close() {
    driver.quit();
  }
}
