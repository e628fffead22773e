package io.cairn.store.wal;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.store.io.Varints;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * The byte layout of segment files: header, record frames and record payloads. Specified in
 * package-info.java and docs/format-wal.md; everything is big-endian.
 */
final class WalFormat {
  /** {@code CAIRNWAL} in ASCII. */
  static final long MAGIC = 0x434149524E57414CL;

  static final int VERSION = 1;

  /** Magic (8), version (4), segment number (8), CRC32C of the preceding 20 bytes (4). */
  static final int HEADER_BYTES = 24;

  /** Payload length (4), CRC32C of the length bytes and the payload (4). */
  static final int FRAME_HEADER_BYTES = 8;

  /** The largest payload a frame may carry; a larger length is corruption. */
  static final int MAX_PAYLOAD_BYTES = 1 << 30;

  static final byte TYPE_PUT = 1;
  static final byte TYPE_DELETE = 2;

  private static final Pattern SEGMENT_NAME = Pattern.compile("wal-(\\d{20})\\.log");

  private WalFormat() {}

  /** The file name of segment {@code number}: {@code wal-} + 20 digits + {@code .log}. */
  static String segmentFileName(long number) {
    return String.format(Locale.ROOT, "wal-%020d.log", number);
  }

  /** The segment number a file name denotes, or -1 when it is not a segment's name. */
  static long parseSegmentNumber(String fileName) {
    Matcher m = SEGMENT_NAME.matcher(fileName);
    if (!m.matches()) {
      return -1;
    }
    try {
      return Long.parseLong(m.group(1));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  static ByteBuffer encodeHeader(long segmentNumber) {
    ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.BIG_ENDIAN);
    header.putLong(MAGIC).putInt(VERSION).putLong(segmentNumber);
    CRC32C crc = new CRC32C();
    crc.update(header.array(), 0, HEADER_BYTES - 4);
    header.putInt((int) crc.getValue());
    return header.flip();
  }

  /**
   * Checks a complete header.
   *
   * @throws CairnException DATA_CORRUPTED (magic, checksum or segment number wrong) or
   *     UNSUPPORTED_FORMAT_VERSION
   */
  static void checkHeader(ByteBuffer header, Path file, long expectedSegmentNumber) {
    long magic = header.getLong(0);
    if (magic != MAGIC) {
      throw new CairnException(
          ErrorCode.DATA_CORRUPTED,
          String.format(
              Locale.ROOT,
              "Not a WAL segment [%s]: expected magic [%016x], found [%016x] at offset [0]",
              file,
              MAGIC,
              magic));
    }
    int version = header.getInt(8);
    if (version != VERSION) {
      throw new CairnException(
          ErrorCode.UNSUPPORTED_FORMAT_VERSION,
          "Unsupported WAL format version in ["
              + file
              + "]: expected ["
              + VERSION
              + "], found ["
              + version
              + "]");
    }
    CRC32C crc = new CRC32C();
    crc.update(header.duplicate().position(0).limit(HEADER_BYTES - 4));
    int expectedCrc = (int) crc.getValue();
    int foundCrc = header.getInt(HEADER_BYTES - 4);
    if (expectedCrc != foundCrc) {
      throw new CairnException(
          ErrorCode.DATA_CORRUPTED,
          String.format(
              Locale.ROOT,
              "WAL segment header checksum mismatch in [%s] at offset [0]: expected [%08x], found"
                  + " [%08x]",
              file,
              expectedCrc,
              foundCrc));
    }
    long number = header.getLong(12);
    if (number != expectedSegmentNumber) {
      throw new CairnException(
          ErrorCode.DATA_CORRUPTED,
          "WAL segment ["
              + file
              + "] has the wrong segment number: expected ["
              + expectedSegmentNumber
              + "], found ["
              + number
              + "]");
    }
  }

  /** Serialises a record into a complete frame (length, checksum, payload). */
  static byte[] encodeFrame(WalRecord record) {
    List<WalEdit> edits = record.edits();
    long payloadSize = Varints.size(record.sequenceId()) + Varints.size(edits.size());
    for (WalEdit edit : edits) {
      int keyLength = edit.key().length();
      int valueLength = edit.value().length();
      payloadSize +=
          Varints.size(edit.tableId())
              + 1
              + Varints.size(keyLength)
              + keyLength
              + Varints.size(valueLength)
              + (long) valueLength;
    }
    if (payloadSize > MAX_PAYLOAD_BYTES) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT,
          "WAL record too large: at most ["
              + MAX_PAYLOAD_BYTES
              + "] bytes, found ["
              + payloadSize
              + "]");
    }
    int length = (int) payloadSize;
    byte[] frame = new byte[FRAME_HEADER_BYTES + length];
    int p = FRAME_HEADER_BYTES;
    p = Varints.put(frame, p, record.sequenceId());
    p = Varints.put(frame, p, edits.size());
    for (WalEdit edit : edits) {
      p = Varints.put(frame, p, edit.tableId());
      frame[p++] = edit.delete() ? TYPE_DELETE : TYPE_PUT;
      p = putBytes(frame, p, edit.key());
      p = putBytes(frame, p, edit.value());
    }
    if (p != frame.length) {
      throw CairnException.internal("WAL frame size [" + frame.length + "] != written [" + p + "]");
    }
    putInt(frame, 0, length);
    putInt(frame, 4, frameChecksum(frame, 0, frame, FRAME_HEADER_BYTES, length));
    return frame;
  }

  /** CRC32C over the four length bytes at {@code lengthOffset}, then over the payload. */
  static int frameChecksum(
      byte[] lengthBytes, int lengthOffset, byte[] payload, int payloadOffset, int payloadLength) {
    CRC32C crc = new CRC32C();
    crc.update(lengthBytes, lengthOffset, 4);
    crc.update(payload, payloadOffset, payloadLength);
    return (int) crc.getValue();
  }

  /**
   * Decodes a payload whose checksum matched.
   *
   * @throws IllegalArgumentException when the payload is malformed
   */
  static WalRecord decodePayload(byte[] payload, int offset, int length) {
    ByteBuffer in = ByteBuffer.wrap(payload, offset, length);
    long sequenceId = Varints.get(in);
    if (sequenceId < 0) {
      throw new IllegalArgumentException("negative sequence id [" + sequenceId + "]");
    }
    int count = Varints.getInt(in);
    if (count == 0 || count > length) {
      throw new IllegalArgumentException("bad edit count [" + count + "]");
    }
    List<WalEdit> edits = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      long tableId = Varints.get(in);
      if (!in.hasRemaining()) {
        throw new IllegalArgumentException("payload ends inside edit [" + i + "]");
      }
      byte type = in.get();
      if (type != TYPE_PUT && type != TYPE_DELETE) {
        throw new IllegalArgumentException("unknown edit type [" + type + "] in edit [" + i + "]");
      }
      Bytes key = getBytes(in, payload);
      Bytes value = getBytes(in, payload);
      edits.add(new WalEdit(tableId, key, type == TYPE_DELETE, value));
    }
    if (in.hasRemaining()) {
      throw new IllegalArgumentException("[" + in.remaining() + "] bytes after the last edit");
    }
    return new WalRecord(sequenceId, edits);
  }

  private static Bytes getBytes(ByteBuffer in, byte[] array) {
    int length = Varints.getInt(in);
    if (length > in.remaining()) {
      throw new IllegalArgumentException(
          "byte string of [" + length + "] bytes runs past the payload");
    }
    Bytes bytes = Bytes.copyOf(array, in.position(), length);
    in.position(in.position() + length);
    return bytes;
  }

  private static int putBytes(byte[] out, int offset, Bytes bytes) {
    int p = Varints.put(out, offset, bytes.length());
    System.arraycopy(bytes.peekArray(), 0, out, p, bytes.length());
    return p + bytes.length();
  }

  static void putInt(byte[] out, int offset, int value) {
    out[offset] = (byte) (value >>> 24);
    out[offset + 1] = (byte) (value >>> 16);
    out[offset + 2] = (byte) (value >>> 8);
    out[offset + 3] = (byte) value;
  }

  static int getInt(byte[] in, int offset) {
    return (in[offset] & 0xFF) << 24
        | (in[offset + 1] & 0xFF) << 16
        | (in[offset + 2] & 0xFF) << 8
        | (in[offset + 3] & 0xFF);
  }
}
