package io.cairn.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

final class TestCloseables {
  @Test
  void closesEveryResourceAndThrowsTheFirstFailureWithTheOthersSuppressed() {
    List<String> closed = new ArrayList<>();
    IOException first = new IOException("first");
    IllegalStateException second = new IllegalStateException("second");
    AutoCloseable a =
        () -> {
          closed.add("a");
          throw first;
        };
    AutoCloseable b = () -> closed.add("b");
    AutoCloseable c =
        () -> {
          closed.add("c");
          throw second;
        };

    assertThatThrownBy(() -> Closeables.closeAll(a, null, b, c))
        .isSameAs(first)
        .satisfies(e -> assertThat(e.getSuppressed()).containsExactly(second));
    assertThat(closed).containsExactly("a", "b", "c");
  }

  @Test
  void closesQuietlyWhenNothingFails() throws Exception {
    List<String> closed = new ArrayList<>();
    Closeables.closeAll(List.of(() -> closed.add("a"), () -> closed.add("b")));
    assertThat(closed).containsExactly("a", "b");
  }

  @Test
  void uncheckedKeepsRuntimeExceptionsAndWrapsCheckedOnes() {
    IllegalArgumentException runtime = new IllegalArgumentException("runtime");
    assertThatThrownBy(
            () ->
                Closeables.closeAllUnchecked(
                    List.of(
                        () -> {
                          throw runtime;
                        })))
        .isSameAs(runtime);

    Exception other = new Exception("other");
    assertThatThrownBy(
            () ->
                Closeables.closeAllUnchecked(
                    List.of(
                        () -> {
                          throw other;
                        })))
        .isInstanceOf(IllegalStateException.class)
        .hasCause(other);
  }

  @Test
  void aGivenCheckedTypeIsThrownAsIs() {
    IOException io = new IOException("io");
    assertThatThrownBy(
            () ->
                Closeables.closeAll(
                    List.of(
                        () -> {
                          throw io;
                        }),
                    IOException.class))
        .isSameAs(io);
    Exception other = new Exception("other");
    assertThatThrownBy(
            () ->
                Closeables.closeAll(
                    List.of(
                        () -> {
                          throw other;
                        }),
                    IOException.class))
        .isInstanceOf(IllegalStateException.class)
        .hasCause(other);
  }

  @Test
  void runsEveryActionAndThrowsTheFirstFailure() {
    List<String> ran = new ArrayList<>();
    RuntimeException first = new RuntimeException("first");
    RuntimeException second = new RuntimeException("second");
    List<Runnable> actions =
        Arrays.asList(
            () -> {
              ran.add("a");
              throw first;
            },
            () -> ran.add("b"),
            () -> {
              ran.add("c");
              throw second;
            });

    assertThatThrownBy(() -> Closeables.runAll(actions))
        .isSameAs(first)
        .satisfies(e -> assertThat(e.getSuppressed()).containsExactly(second));
    assertThat(ran).containsExactly("a", "b", "c");
  }

  @Test
  void useOrSuppressKeepsTheFirst() {
    Exception first = new Exception("first");
    Exception next = new Exception("next");
    assertThat(Closeables.useOrSuppress(null, first)).isSameAs(first);
    assertThat(Closeables.useOrSuppress(first, next)).isSameAs(first);
    assertThat(Closeables.useOrSuppress(first, first)).isSameAs(first);
    assertThat(first.getSuppressed()).containsExactly(next);
  }
}
