/**
 * The write-ahead log: every edit of the store is appended here before it reaches a memstore, and
 * replayed from here after a crash. Uses only {@code io.cairn.store.io} of the store. The same
 * specification, with the durability guarantees, is in {@code docs/format-wal.md}.
 *
 * <h2>Classes, threads and locks</h2>
 *
 * {@link io.cairn.store.wal.WriteAheadLog} is the front door and the group-commit pipeline: a
 * lock-free queue that callers push records onto and one writer thread that writes and forces them
 * in rounds. {@code WalSegments} owns the segment files (creating, rolling, trimming) and the
 * marker; {@code WalReplayer} checks and replays the log at open, with salvage; {@code
 * SegmentReader}, {@code WalCheck}, {@link io.cairn.store.wal.WalFormat} and {@link
 * io.cairn.store.wal.WalMarker} read and write the bytes.
 *
 * <p>The log is thread-safe; its own locks (the segment list's monitor, the marker's lock, under
 * which the marker file is written, and the replay lock) are innermost and never held while a
 * caller's record is waited for. Replay runs once at open, before any append, with no lock held.
 * The store's commit enqueues a record holding the write locks of every region the batch writes (so
 * two records that write one region reach the log in sequence id order) and awaits its durability
 * after releasing them. Trimming ({@code markFlushedBelow}) is called after a flush with the
 * flushed region's maintenance lock held, or at close.
 *
 * <h2>Files</h2>
 *
 * A log is a directory of segment files named {@code wal-NNNNNNNNNNNNNNNNNNNN.log}: the segment
 * number in 20 decimal digits, zero-padded, so that name order is number order. Numbers grow and
 * are never reused; segments are deleted oldest first once their edits are flushed. The marker
 * {@code wal.marker} ({@link io.cairn.store.wal.WalMarker}) records the oldest segment the log must
 * still hold and the newest ever created; replay first checks that every segment between them is
 * present ({@code DATA_CORRUPTED} naming the missing one otherwise). Other files in the directory
 * are ignored. All fixed-width integers are big-endian.
 *
 * <h2>Segment header (24 bytes, format version 1)</h2>
 *
 * <pre>
 * offset size field
 *  0      8   magic: ASCII "CAIRNWAL" (43 41 49 52 4E 57 41 4C)
 *  8      4   format version: 1
 * 12      8   segment number: equals the number in the file name
 * 20      4   CRC32C of bytes 0..19
 * </pre>
 *
 * A wrong magic, checksum or segment number is {@code DATA_CORRUPTED}; another version is {@code
 * UNSUPPORTED_FORMAT_VERSION}. The header is written and forced before any record.
 *
 * <h2>Record frame (8 + n bytes), repeated up to the end of the file</h2>
 *
 * <pre>
 * offset size field
 *  0      4   n: payload length, 1 .. 2^30
 *  4      4   CRC32C of the 4 length bytes followed by the n payload bytes
 *  8      n   payload
 * </pre>
 *
 * <h2>Payload: one {@link io.cairn.store.wal.WalRecord}</h2>
 *
 * Varints are unsigned LEB128 ({@link io.cairn.store.io.Varints}); a long is taken as unsigned, so
 * a negative table id takes 10 bytes.
 *
 * <pre>
 * varint  sequence id (at least 0)
 * varint  edit count (at least 1)
 * per edit:
 *   varint  table id
 *   1 byte  type: 1 = put, 2 = delete
 *   varint  key length k, then k key bytes
 *   varint  value length v, then v value bytes (v = 0 for a delete)
 * </pre>
 *
 * The payload must be consumed exactly; a payload with a valid checksum that does not parse is
 * {@code DATA_CORRUPTED}.
 *
 * <h2>Replay</h2>
 *
 * Segments are read in number order, records in file order; sequence ids are not monotonic in that
 * order (batches of different tables interleave). In the last segment, a frame that is incomplete
 * or fails its checksum, with no valid frame starting at any later byte offset, is a torn write:
 * the file is truncated to the frame's offset (logged at WARN) and appends continue in a new
 * segment. A last segment shorter than its header is deleted the same way. Any bad frame followed
 * by a valid one, or in a segment that is not the last, is {@code DATA_CORRUPTED} naming the file
 * and offset: later data is never dropped silently.
 */
package io.cairn.store.wal;
