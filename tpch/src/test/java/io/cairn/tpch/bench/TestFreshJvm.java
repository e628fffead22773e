package io.cairn.tpch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestFreshJvm {
  @Test
  void embeddedStoresAreReplacedByAFreshMemoryDatabase() {
    for (String url : List.of("jdbc:cairn:mem:lineitem", "jdbc:cairn:file:/tmp/li")) {
      FreshJvm.Plan plan = FreshJvm.plan(url, 6_000_000);
      assertThat(plan.url()).isEqualTo(FreshJvm.MEMORY_URL);
      assertThat(plan.sql()).isEqualTo(FreshJvm.QUERY);
      assertThat(plan.setupRows()).isEqualTo(FreshJvm.SETUP_ROWS);
      assertThat(plan.expected()).isEqualTo(FreshJvm.SETUP_ROWS / 2);
    }
  }

  @Test
  void aServerIsAskedTheSuitesCountWhere() {
    FreshJvm.Plan plan = FreshJvm.plan("jdbc:cairn://127.0.0.1:7575/db", 6_001_215);
    assertThat(plan.url()).isEqualTo("jdbc:cairn://127.0.0.1:7575/db");
    assertThat(plan.sql()).isEqualTo(LineitemSuite.COUNT_WHERE);
    assertThat(plan.setupRows()).isZero();
    assertThat(plan.expected()).isEqualTo(6_001_215);
  }

  @Test
  void childAnswersAndIsTimed() {
    List<String> progress = new ArrayList<>();
    QueryResult r = FreshJvm.measure("jdbc:cairn:mem:x", 0, 2, progress::add);
    assertThat(r.failed()).as(String.valueOf(r.error())).isFalse();
    assertThat(r.check()).isEqualTo("ok");
    assertThat(r.runsNanos()).hasSize(2).allSatisfy(n -> assertThat(n).isPositive());
    assertThat(r.stats().medianMs()).isPositive();
    assertThat(r.extra().get("childCommand").toString())
        .contains(FreshJvm.class.getName())
        .contains("<this JVM's class path>");
    assertThat(progress).hasSize(2);
  }

  @Test
  void aChildThatFailsIsAnError() {
    QueryResult r = FreshJvm.measure("jdbc:cairn://127.0.0.1:1/nothing", 0, 1, s -> {});
    assertThat(r.failed()).isTrue();
    assertThat(r.error()).contains("the child JVM exited with");
  }
}
