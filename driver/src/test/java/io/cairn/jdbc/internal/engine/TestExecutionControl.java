package io.cairn.jdbc.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TestExecutionControl {
  @Test
  void cancelRunsTheRegisteredActions() {
    ExecutionControl control = ExecutionControl.unlimited();
    List<String> ran = new ArrayList<>();
    control.onCancel(() -> ran.add("first"));
    control.onCancel(() -> ran.add("second"));
    control.check();
    assertThat(ran).isEmpty();
    control.cancel();
    assertThat(ran).containsExactly("first", "second");
    assertThatThrownBy(control::check)
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.QUERY_CANCELED));
    control.onCancel(() -> ran.add("late"));
    assertThat(ran).containsExactly("first", "second", "late");
  }

  @Test
  void everyActionRunsWhenOneFails() {
    ExecutionControl control = ExecutionControl.unlimited();
    List<String> ran = new ArrayList<>();
    control.onCancel(
        () -> {
          throw new IllegalStateException("first");
        });
    control.onCancel(() -> ran.add("second"));
    control.onCancel(
        () -> {
          throw new IllegalStateException("third");
        });
    assertThatThrownBy(control::cancel)
        .hasMessage("first")
        .satisfies(e -> assertThat(e.getSuppressed()).hasSize(1));
    assertThat(ran).containsExactly("second");
    assertThat(control.isCancelled()).isTrue();
  }

  @Test
  void theDeadlineRunsTheCancelActionsAndReportsATimeout() throws InterruptedException {
    ExecutionControl control = ExecutionControl.withTimeoutSeconds(1);
    CountDownLatch stopped = new CountDownLatch(1);
    control.onCancel(stopped::countDown);
    control.check();
    assertThat(stopped.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(control.isCancelled()).isFalse();
    assertThatThrownBy(control::check)
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.QUERY_TIMEOUT));
  }

  @Test
  void aFinishedExecutionIsNotStoppedAtItsDeadline() throws InterruptedException {
    ExecutionControl control = ExecutionControl.withTimeoutSeconds(1);
    CountDownLatch stopped = new CountDownLatch(1);
    control.onCancel(stopped::countDown);
    control.finish();
    assertThat(stopped.await(1500, TimeUnit.MILLISECONDS)).isFalse();
  }
}
