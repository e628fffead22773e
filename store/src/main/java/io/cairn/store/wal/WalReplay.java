package io.cairn.store.wal;

import java.util.List;

/**
 * What {@link WriteAheadLog#replay(java.util.function.Consumer, boolean, boolean)} did.
 *
 * @param highestSequenceId the highest sequence id of a replayed record, 0 when none
 * @param damages what a salvaging replay skipped (always empty otherwise: damage is an error)
 */
public record WalReplay(long highestSequenceId, List<WalDamage> damages) {
  public WalReplay {
    damages = List.copyOf(damages);
  }
}
