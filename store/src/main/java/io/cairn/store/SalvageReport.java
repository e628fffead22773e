package io.cairn.store;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What opening a durable store with {@code cairn.open.salvage=true} found damaged and gave up
 * (docs/format-store.md, "Salvage"): empty when the store was intact. Each loss is also logged at
 * WARN when the store opens.
 *
 * @param losses what was lost, in the order found: WAL problems first, then block files
 */
public record SalvageReport(List<Loss> losses) {
  public static final SalvageReport NONE = new SalvageReport(List.of());

  public SalvageReport {
    losses = List.copyOf(losses);
  }

  /**
   * One missing or damaged file.
   *
   * @param file where the file was (or should have been)
   * @param problem what was expected and what was found, and what is lost with it
   * @param keptAt where the damaged file was moved or copied to, under {@code DIR/salvaged/}; empty
   *     when it was missing
   */
  public record Loss(Path file, String problem, Optional<Path> keptAt) {
    public Loss {
      requireNonNull(file, "file is null");
      requireNonNull(problem, "problem is null");
      requireNonNull(keptAt, "keptAt is null");
    }
  }

  public boolean isEmpty() {
    return losses.isEmpty();
  }
}
