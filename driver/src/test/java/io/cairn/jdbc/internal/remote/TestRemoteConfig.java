package io.cairn.jdbc.internal.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.jdbc.internal.ConnectionUrl.ServerAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class TestRemoteConfig {
  private static Properties properties(String... nameValues) {
    Properties p = new Properties();
    for (int i = 0; i < nameValues.length; i += 2) {
      p.setProperty(nameValues[i], nameValues[i + 1]);
    }
    return p;
  }

  @Test
  void defaults() {
    RemoteConfig config = RemoteConfig.from("//db1:8765", null);
    assertThat(config)
        .isEqualTo(
            new RemoteConfig(
                new ServerAddress("db1", 8765, ""),
                "",
                "",
                false,
                Optional.empty(),
                Duration.ofSeconds(10),
                Duration.ofSeconds(60)));
    assertThat(config).isEqualTo(RemoteConfig.of(new ServerAddress("db1", 8765, "")));
    assertThat(config.server()).isEqualTo("db1:8765");
  }

  @Test
  void propertyMapping() {
    RemoteConfig config =
        RemoteConfig.from(
            "//[::1]:1/sales",
            properties(
                "user", "bob",
                "password", "secret",
                "tls", "TRUE",
                "tlsTrustCertificate", "ca.pem",
                "connectTimeout", "1500",
                "requestTimeout", "2m"));
    assertThat(config.address()).isEqualTo(new ServerAddress("::1", 1, "sales"));
    assertThat(config.server()).isEqualTo("[::1]:1");
    assertThat(config.user()).isEqualTo("bob");
    assertThat(config.password()).isEqualTo("secret");
    assertThat(config.tls()).isTrue();
    assertThat(config.tlsTrustCertificate())
        .contains(Path.of("ca.pem").toAbsolutePath().normalize());
    assertThat(config.connectTimeout()).isEqualTo(Duration.ofMillis(1500));
    assertThat(config.requestTimeout()).isEqualTo(Duration.ofMinutes(2));
    assertThat(RemoteConfig.from("//h:1", properties("connectTimeout", "3 s")).connectTimeout())
        .isEqualTo(Duration.ofSeconds(3));
    assertThat(RemoteConfig.from("//h:1", properties("requestTimeout", "250ms")).requestTimeout())
        .isEqualTo(Duration.ofMillis(250));
  }

  @Test
  void thePasswordCountsForSharingButIsNeverShown() {
    RemoteConfig a = RemoteConfig.from("//h:1", properties("user", "u", "password", "one"));
    RemoteConfig b = RemoteConfig.from("//h:1", properties("user", "u", "password", "two"));
    assertThat(a).isNotEqualTo(b);
    assertThat(a.toString()).doesNotContain("one").contains("password=***").contains("user=u");
  }

  @Test
  void badValuesNameThePropertyAndTheValue() {
    assertInvalid(properties("tls", "yes"), "[tls]: expected true or false, found [yes]");
    assertInvalid(
        properties("connectTimeout", "10 sec"),
        "[connectTimeout]: expected milliseconds or a number with unit ms, s or m, found [10 sec]");
    assertInvalid(
        properties("requestTimeout", "0"), "[requestTimeout]: expected a positive duration");
    assertInvalid(properties("tlsTrustCertificate", "ca.pem"), "it only applies with tls=true");
  }

  private static void assertInvalid(Properties p, String message) {
    assertThatThrownBy(() -> RemoteConfig.from("//h:1", p))
        .isInstanceOfSatisfying(
            CairnException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_URL))
        .hasMessageContaining(message);
  }
}
