package io.cairn.server.status;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.core.bytes.Bytes;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TestFormats {
  @Test
  void keysAsHBaseWritesThem() {
    assertThat(Formats.key(Bytes.EMPTY)).isEmpty();
    assertThat(Formats.key(Bytes.wrap("row-1 ~!".getBytes(UTF_8)))).isEqualTo("row-1 ~!");
    assertThat(Formats.key(Bytes.wrap(new byte[] {0, 0x1F, 0x7F, (byte) 0x80, (byte) 0xFF})))
        .isEqualTo("\\x00\\x1F\\x7F\\x80\\xFF");
    assertThat(Formats.key(Bytes.wrap("a\\b".getBytes(UTF_8)))).isEqualTo("a\\x5Cb");
  }

  @Test
  void htmlEscapesEverythingThatMatters() {
    assertThat(Formats.html("plain")).isSameAs("plain");
    assertThat(Formats.html("<a href=\"x\" title='y'>&</a>"))
        .isEqualTo("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
  }

  @Test
  void sizesInBinaryUnits() {
    assertThat(Formats.bytes(0)).isEqualTo("0 B");
    assertThat(Formats.bytes(1023)).isEqualTo("1023 B");
    assertThat(Formats.bytes(1024)).isEqualTo("1.0 KiB");
    assertThat(Formats.bytes(1536)).isEqualTo("1.5 KiB");
    assertThat(Formats.bytes(5L << 30)).isEqualTo("5.0 GiB");
    assertThat(Formats.bytes(Long.MAX_VALUE)).isEqualTo("8.0 EiB");
  }

  @Test
  void durationsForPeople() {
    assertThat(Formats.duration(Duration.ofMillis(850))).isEqualTo("850 ms");
    assertThat(Formats.duration(Duration.ofMillis(12_345))).isEqualTo("12.3 s");
    assertThat(Formats.duration(Duration.ofSeconds(302))).isEqualTo("5m 02s");
    assertThat(Formats.duration(Duration.ofHours(3).plusMinutes(4).plusSeconds(5)))
        .isEqualTo("3h 04m 05s");
    assertThat(Formats.duration(Duration.ofDays(2).plusHours(1).plusMinutes(2)))
        .isEqualTo("2d 01h 02m");
    assertThat(Formats.percent(0.9876)).isEqualTo("98.8%");
  }

  @Test
  void jsonStringsRoundTrip() throws Exception {
    String tricky = "quote\" backslash\\ nl\n tab\t ctl\u0001 <script> & \u2028 é 日本";
    String json =
        new Json()
            .beginObject()
            .field("s", tricky)
            .field("n", Long.MIN_VALUE)
            .field("d", 0.25)
            .field("nan", Double.NaN)
            .field("b", true)
            .name("a")
            .beginArray()
            .value(1)
            .value((String) null)
            .beginObject()
            .endObject()
            .endArray()
            .endObject()
            .toString();
    assertThat(json).doesNotContain("<", ">", "&", "\u2028");
    var node = new ObjectMapper().readTree(json);
    assertThat(node.get("s").asText()).isEqualTo(tricky);
    assertThat(node.get("n").asLong()).isEqualTo(Long.MIN_VALUE);
    assertThat(node.get("d").asDouble()).isEqualTo(0.25);
    assertThat(node.get("nan").isNull()).isTrue();
    assertThat(node.get("b").asBoolean()).isTrue();
    assertThat(node.get("a").toString()).isEqualTo("[1,null,{}]");
  }
}
