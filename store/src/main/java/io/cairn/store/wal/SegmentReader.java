package io.cairn.store.wal;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one segment file for replay: checks the header, passes each valid record to a handler, and
 * tells a torn tail (only allowed in the last segment, and then truncated away) from corruption
 * followed by valid data (always an error).
 */
final class SegmentReader {
  private static final Logger log = LoggerFactory.getLogger(SegmentReader.class);

  private static final int WINDOW_BYTES = 1 << 20;

  /**
   * What replaying a segment found.
   *
   * @param maxSequenceId the highest sequence id of a record in the segment, -1 when none
   * @param bytes the segment's size after any truncation
   * @param deleted whether the segment was removed (a last segment torn inside its header)
   */
  record Result(long maxSequenceId, long bytes, boolean deleted) {}

  private final Path file;
  private final FileChannel channel;
  private final long size;
  private byte[] window = new byte[0];
  private long windowStart;
  private int windowLength;

  private SegmentReader(Path file, FileChannel channel, long size) {
    this.file = file;
    this.channel = channel;
    this.size = size;
  }

  /**
   * Replays segment {@code number} stored in {@code file}.
   *
   * @param last whether this is the last segment of the log: only there is a torn tail allowed
   * @throws CairnException DATA_CORRUPTED, UNSUPPORTED_FORMAT_VERSION or IO_ERROR
   */
  static Result replay(Path file, long number, boolean last, Consumer<WalRecord> handler) {
    long tornAt;
    String tornReason;
    long maxSequenceId = -1;
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      SegmentReader reader = new SegmentReader(file, channel, channel.size());
      long size = reader.size;
      if (size < WalFormat.HEADER_BYTES) {
        if (!last) {
          throw reader.corrupt(
              0,
              "segment shorter than its header: expected at least ["
                  + WalFormat.HEADER_BYTES
                  + "] bytes, found ["
                  + size
                  + "], and later segments follow");
        }
        tornAt = -1;
        tornReason = "torn header: [" + size + "] bytes";
      } else {
        int at = reader.fill(0, WalFormat.HEADER_BYTES);
        WalFormat.checkHeader(
            ByteBuffer.wrap(reader.window, at, WalFormat.HEADER_BYTES).slice(), file, number);
        long position = WalFormat.HEADER_BYTES;
        tornAt = size;
        tornReason = null;
        while (position < size) {
          Frame frame = reader.frameAt(position);
          if (frame.problem != null) {
            if (!last) {
              throw reader.corrupt(position, frame.problem + ", and later segments follow");
            }
            long valid = reader.findValidFrameAfter(position, frame.length);
            if (valid >= 0) {
              throw reader.corrupt(
                  position,
                  frame.problem + ", and a valid record follows at offset [" + valid + "]");
            }
            tornAt = position;
            tornReason = frame.problem;
            break;
          }
          WalRecord record;
          try {
            record = WalFormat.decodePayload(frame.payload, frame.payloadOffset, frame.length);
          } catch (IllegalArgumentException e) {
            throw reader.corrupt(
                position, "malformed record with a valid checksum: " + e.getMessage());
          }
          handler.accept(record);
          maxSequenceId = Math.max(maxSequenceId, record.sequenceId());
          position += WalFormat.FRAME_HEADER_BYTES + frame.length;
        }
      }
    } catch (IOException e) {
      throw new CairnException(
          ErrorCode.IO_ERROR, "Cannot read WAL segment [" + file + "]: " + e.getMessage(), e);
    }
    try {
      if (tornAt < 0) {
        log.warn("Deleting WAL segment [{}] torn while it was created ({})", file, tornReason);
        Files.delete(file);
        return new Result(-1, 0, true);
      }
      long size = Files.size(file);
      if (tornAt < size) {
        log.warn(
            "Truncating torn tail of WAL segment [{}] at offset [{}], dropping [{}] bytes: {}",
            file,
            tornAt,
            size - tornAt,
            tornReason);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
          channel.truncate(tornAt);
          channel.force(true);
        }
      }
      return new Result(maxSequenceId, tornAt, false);
    } catch (IOException e) {
      throw new CairnException(
          ErrorCode.IO_ERROR,
          "Cannot truncate torn tail of WAL segment [" + file + "]: " + e.getMessage(),
          e);
    }
  }

  /**
   * The frame at {@code position}: either a checksum-valid payload, or a problem saying why not.
   *
   * @param length the payload length the frame claims, or -1 when not even that is readable
   */
  private record Frame(String problem, int length, byte[] payload, int payloadOffset) {}

  private Frame frameAt(long position) throws IOException {
    long remaining = size - position;
    if (remaining < WalFormat.FRAME_HEADER_BYTES) {
      return new Frame(
          "incomplete record header: expected ["
              + WalFormat.FRAME_HEADER_BYTES
              + "] bytes, found ["
              + remaining
              + "]",
          -1,
          null,
          0);
    }
    int at = fill(position, WalFormat.FRAME_HEADER_BYTES);
    int length = WalFormat.getInt(window, at);
    if (length <= 0 || length > WalFormat.MAX_PAYLOAD_BYTES) {
      return new Frame(
          "bad record length: expected [1.."
              + WalFormat.MAX_PAYLOAD_BYTES
              + "], found ["
              + length
              + "]",
          -1,
          null,
          0);
    }
    if (length > remaining - WalFormat.FRAME_HEADER_BYTES) {
      return new Frame(
          "incomplete record: expected ["
              + length
              + "] payload bytes, found ["
              + (remaining - WalFormat.FRAME_HEADER_BYTES)
              + "]",
          length,
          null,
          0);
    }
    at = fill(position, WalFormat.FRAME_HEADER_BYTES + length);
    int found = WalFormat.getInt(window, at + 4);
    int expected =
        WalFormat.frameChecksum(window, at, window, at + WalFormat.FRAME_HEADER_BYTES, length);
    if (found != expected) {
      return new Frame(
          String.format(
              Locale.ROOT,
              "record checksum mismatch: expected [%08x], found [%08x]",
              expected,
              found),
          length,
          null,
          0);
    }
    return new Frame(null, length, window, at + WalFormat.FRAME_HEADER_BYTES);
  }

  /**
   * The offset of the first checksum-valid, well-formed record that starts after {@code position},
   * or -1 when there is none. Tries the offset the bad frame's length points to first, then every
   * byte offset.
   */
  private long findValidFrameAfter(long position, int claimedLength) throws IOException {
    if (claimedLength > 0) {
      long next = position + WalFormat.FRAME_HEADER_BYTES + claimedLength;
      if (next < size && isValidFrame(next)) {
        return next;
      }
    }
    for (long p = position + 1; p <= size - WalFormat.FRAME_HEADER_BYTES - 1; p++) {
      if (isValidFrame(p)) {
        return p;
      }
    }
    return -1;
  }

  private boolean isValidFrame(long position) throws IOException {
    Frame frame = frameAt(position);
    if (frame.problem != null) {
      return false;
    }
    try {
      WalFormat.decodePayload(frame.payload, frame.payloadOffset, frame.length);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * Makes bytes [position, position + length) of the file available in the window; returns their
   * index there. The caller ensures they lie inside the file.
   */
  private int fill(long position, int length) throws IOException {
    if (position >= windowStart && position + length <= windowStart + windowLength) {
      return (int) (position - windowStart);
    }
    int want = (int) Math.min(Math.max(length, WINDOW_BYTES), size - position);
    if (window.length < want) {
      window = new byte[want];
    }
    ByteBuffer buffer = ByteBuffer.wrap(window, 0, want);
    long p = position;
    while (buffer.hasRemaining()) {
      int n = channel.read(buffer, p);
      if (n < 0) {
        throw new IOException(
            "File [" + file + "] ended at offset [" + p + "], expected [" + size + "] bytes");
      }
      p += n;
    }
    windowStart = position;
    windowLength = want;
    return 0;
  }

  private CairnException corrupt(long offset, String problem) {
    return new CairnException(
        ErrorCode.DATA_CORRUPTED,
        "Corrupt WAL segment [" + file + "] at offset [" + offset + "]: " + problem);
  }
}
