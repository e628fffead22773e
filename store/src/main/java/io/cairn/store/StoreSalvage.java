package io.cairn.store;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.store.file.BlockFileReader;
import io.cairn.store.file.FileSeal;
import io.cairn.store.file.ReadContext;
import io.cairn.store.io.AtomicFiles;
import io.cairn.store.wal.WalDamage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checks of a durable store's files at open, and what {@code cairn.open.salvage=true} does when
 * they fail (docs/format-store.md, "Salvage"): without salvage a damaged file is an error
 * (DATA_CORRUPTED naming it); with salvage it is set aside under {@code DIR/salvaged/} (same
 * relative path; moved, or copied when the store still needs to read it) and the loss recorded for
 * the {@link SalvageReport} and logged at WARN. Used by the opening thread only.
 */
final class StoreSalvage {
  private static final Logger LOG = LoggerFactory.getLogger(StoreSalvage.class);
  static final String SALVAGED = "salvaged";
  static final String HINT =
      "; to open the store anyway, setting damaged files aside and reporting what is lost, open it"
          + " with cairn.open.salvage=true (docs/format-store.md, \"Salvage\")";

  private final Path storeDir;
  private final boolean enabled;
  private final List<SalvageReport.Loss> losses = new ArrayList<>();

  StoreSalvage(Path storeDir, boolean enabled) {
    this.storeDir = storeDir;
    this.enabled = enabled;
  }

  boolean enabled() {
    return enabled;
  }

  /**
   * Opens a block file that the table manifest {@code manifest} lists, checking that it exists,
   * that its header, trailer, file info and indexes are sound (their checksums) and that it carries
   * the file id its name says ({@code <file id>.cbf}) and the seal the manifest recorded for it
   * ({@code seal}, null in manifests written before seals). Returns null when salvage set it aside.
   *
   * @throws CairnException DATA_CORRUPTED naming the file, without salvage; IO_ERROR and
   *     UNSUPPORTED_FORMAT_VERSION always
   */
  BlockFileReader openListedFile(Path manifest, Path file, FileSeal seal, ReadContext context) {
    try {
      if (!Files.exists(file)) {
        throw new CairnException(
            ErrorCode.DATA_CORRUPTED,
            "Table manifest " + manifest + " lists a missing file " + file);
      }
      return BlockFileReader.open(file, context, fileId(file.getFileName().toString()), seal);
    } catch (CairnException e) {
      if (e.errorCode() != ErrorCode.DATA_CORRUPTED) {
        throw e;
      }
      if (!enabled) {
        throw withHint(e);
      }
      String problem =
          e.getMessage() + "; its rows are lost (the manifest " + manifest + " no longer lists it)";
      lose(file, problem, Files.exists(file));
      return null;
    }
  }

  /** DATA_CORRUPTED that salvage would pass, saying so; other errors as they are. */
  static CairnException withHint(CairnException e) {
    if (e.errorCode() != ErrorCode.DATA_CORRUPTED) {
      return e;
    }
    return new CairnException(ErrorCode.DATA_CORRUPTED, e.getMessage() + HINT, e);
  }

  /** The file id a block file's name says ({@code <file id>.cbf}), or -1 when it says none. */
  static long fileId(String fileName) {
    int dot = fileName.indexOf('.');
    if (dot <= 0) {
      return -1;
    }
    try {
      return Long.parseLong(fileName.substring(0, dot));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Records what the log's replay skipped; damaged segments are copied aside (the store deletes the
   * originals once what was replayed is flushed).
   */
  void walDamaged(List<WalDamage> damages) {
    for (WalDamage damage : damages) {
      if (damage.present()) {
        Path kept = keep(damage.file(), false);
        record(damage.file(), damage.problem(), Optional.of(kept));
      } else {
        record(damage.file(), damage.problem(), Optional.empty());
      }
    }
  }

  /** Moves (or copies) a damaged file under {@code DIR/salvaged/} and records the loss. */
  private void lose(Path file, String problem, boolean move) {
    Optional<Path> kept = move ? Optional.of(keep(file, true)) : Optional.empty();
    record(file, problem, kept);
  }

  private void record(Path file, String problem, Optional<Path> kept) {
    LOG.warn(
        "Salvage of store {}: {}{}",
        storeDir,
        problem,
        kept.map(k -> " (the file is kept as " + k + ")").orElse(""));
    losses.add(new SalvageReport.Loss(file, problem, kept));
  }

  private Path keep(Path file, boolean move) {
    Path relative = storeDir.relativize(file);
    Path target = storeDir.resolve(SALVAGED).resolve(relative.toString());
    for (int i = 1; Files.exists(target); i++) {
      target = storeDir.resolve(SALVAGED).resolve(relative + "." + i);
    }
    try {
      Files.createDirectories(target.getParent());
      if (move) {
        Files.move(file, target);
      } else {
        Files.copy(file, target, StandardCopyOption.COPY_ATTRIBUTES);
      }
      AtomicFiles.forceDirectory(target.getParent());
      AtomicFiles.forceDirectory(file.getParent());
    } catch (IOException e) {
      throw new CairnException(
          ErrorCode.IO_ERROR,
          "Cannot set aside the damaged file "
              + file
              + " as "
              + target
              + ": "
              + AtomicFiles.describe(e),
          e);
    }
    return target;
  }

  SalvageReport report() {
    return new SalvageReport(losses);
  }
}
