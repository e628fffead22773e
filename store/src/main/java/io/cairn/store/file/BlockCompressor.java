package io.cairn.store.file;

import com.github.luben.zstd.Zstd;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.xerial.snappy.Snappy;

/**
 * Compresses and decompresses block payloads for one {@link Compression}. Instances are stateless
 * and thread-safe. Decompression is told the exact uncompressed length (from the block header) and
 * fails with {@link IllegalArgumentException} unless the payload decompresses to exactly that.
 */
abstract class BlockCompressor {
  static final int ZSTD_LEVEL = 3;
  static final int DEFLATE_LEVEL = 6;

  private static final BlockCompressor NONE_COMPRESSOR = new NoneCompressor();
  private static final BlockCompressor GZIP_COMPRESSOR = new DeflateCompressor();

  /** The compressor for {@code compression}; native codecs are loaded on first use. */
  static BlockCompressor of(Compression compression) {
    return switch (compression) {
      case NONE -> NONE_COMPRESSOR;
      case LZ4 -> Lz4Holder.INSTANCE;
      case SNAPPY -> SnappyHolder.INSTANCE;
      case ZSTD -> ZstdHolder.INSTANCE;
      case GZIP -> GZIP_COMPRESSOR;
    };
  }

  /** An upper bound of the compressed length of {@code length} bytes. */
  abstract int maxCompressedLength(int length);

  /**
   * Compresses {@code src[srcOffset, srcOffset + length)} into {@code dst} from {@code dstOffset}
   * (which has room for {@link #maxCompressedLength}); returns the compressed length.
   */
  abstract int compress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset);

  /**
   * Decompresses {@code src[srcOffset, srcOffset + srcLength)} into {@code dst[dstOffset, dstOffset
   * + dstLength)}.
   *
   * @throws IllegalArgumentException when the input is malformed or does not decompress to exactly
   *     {@code dstLength} bytes
   */
  abstract void decompress(
      byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int dstLength);

  /**
   * Decompresses {@code src[srcOffset, srcOffset + srcLength)} into {@code dst[dstOffset, dstOffset
   * + dstLength)}, heap or direct buffers, without changing their positions or limits. Direct
   * buffers are handed to the codec as they are; the default copies through arrays.
   *
   * @throws IllegalArgumentException as {@link #decompress(byte[], int, int, byte[], int, int)}
   */
  void decompress(
      ByteBuffer src, int srcOffset, int srcLength, ByteBuffer dst, int dstOffset, int dstLength) {
    if (src.hasArray() && dst.hasArray()) {
      decompress(
          src.array(),
          src.arrayOffset() + srcOffset,
          srcLength,
          dst.array(),
          dst.arrayOffset() + dstOffset,
          dstLength);
      return;
    }
    if (src.isDirect() && dst.isDirect()) {
      decompressDirect(src, srcOffset, srcLength, dst, dstOffset, dstLength);
    } else {
      decompressThroughArrays(src, srcOffset, srcLength, dst, dstOffset, dstLength);
    }
  }

  /** Decompresses between direct buffers; by default through arrays. */
  void decompressDirect(
      ByteBuffer src, int srcOffset, int srcLength, ByteBuffer dst, int dstOffset, int dstLength) {
    decompressThroughArrays(src, srcOffset, srcLength, dst, dstOffset, dstLength);
  }

  private void decompressThroughArrays(
      ByteBuffer src, int srcOffset, int srcLength, ByteBuffer dst, int dstOffset, int dstLength) {
    byte[] in = new byte[srcLength];
    src.get(srcOffset, in);
    byte[] out = new byte[dstLength];
    decompress(in, 0, srcLength, out, 0, dstLength);
    dst.put(dstOffset, out);
  }

  /** {@code buffer[offset, offset + length)} as a buffer of its own (position 0). */
  static ByteBuffer window(ByteBuffer buffer, int offset, int length) {
    return buffer.duplicate().limit(offset + length).position(offset).slice();
  }

  static void checkLength(long expected, long found) {
    if (expected != found) {
      throw new IllegalArgumentException(
          "Decompressed length: expected [" + expected + "], found [" + found + "]");
    }
  }

  private static final class NoneCompressor extends BlockCompressor {
    @Override
    int maxCompressedLength(int length) {
      return length;
    }

    @Override
    int compress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
      System.arraycopy(src, srcOffset, dst, dstOffset, length);
      return length;
    }

    @Override
    void decompress(
        byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int dstLength) {
      checkLength(dstLength, srcLength);
      System.arraycopy(src, srcOffset, dst, dstOffset, srcLength);
    }

    @Override
    void decompressDirect(
        ByteBuffer src,
        int srcOffset,
        int srcLength,
        ByteBuffer dst,
        int dstOffset,
        int dstLength) {
      checkLength(dstLength, srcLength);
      dst.put(dstOffset, src, srcOffset, srcLength);
    }
  }

  private static final class Lz4Holder {
    static final BlockCompressor INSTANCE = new Lz4Compressor();
  }

  private static final class Lz4Compressor extends BlockCompressor {
    private final LZ4Compressor compressor;
    private final LZ4SafeDecompressor decompressor;

    Lz4Compressor() {
      LZ4Factory factory = LZ4Factory.fastestInstance();
      this.compressor = factory.fastCompressor();
      this.decompressor = factory.safeDecompressor();
    }

    @Override
    int maxCompressedLength(int length) {
      return compressor.maxCompressedLength(length);
    }

    @Override
    int compress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
      return compressor.compress(
          src, srcOffset, length, dst, dstOffset, maxCompressedLength(length));
    }

    @Override
    void decompress(
        byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int dstLength) {
      decompressDirect(
          ByteBuffer.wrap(src), srcOffset, srcLength, ByteBuffer.wrap(dst), dstOffset, dstLength);
    }

    /** LZ4's buffer API takes heap and direct buffers alike. */
    @Override
    void decompressDirect(
        ByteBuffer src,
        int srcOffset,
        int srcLength,
        ByteBuffer dst,
        int dstOffset,
        int dstLength) {
      int n;
      try {
        n = decompressor.decompress(src, srcOffset, srcLength, dst, dstOffset, dstLength);
      } catch (RuntimeException e) { // LZ4Exception
        throw new IllegalArgumentException("Malformed LZ4 data: " + e.getMessage(), e);
      }
      checkLength(dstLength, n);
    }
  }

  private static final class SnappyHolder {
    static final BlockCompressor INSTANCE = new SnappyCompressor();
  }

  private static final class SnappyCompressor extends BlockCompressor {
    @Override
    int maxCompressedLength(int length) {
      return Snappy.maxCompressedLength(length);
    }

    @Override
    int compress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
      try {
        return Snappy.compress(src, srcOffset, length, dst, dstOffset);
      } catch (IOException e) {
        throw new IllegalStateException("Snappy compression failed", e);
      }
    }

    @Override
    void decompress(
        byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int dstLength) {
      try {
        // The declared length is checked before decompressing so that the output always fits.
        checkLength(dstLength, Snappy.uncompressedLength(src, srcOffset, srcLength));
        checkLength(dstLength, Snappy.uncompress(src, srcOffset, srcLength, dst, dstOffset));
      } catch (IOException e) {
        throw new IllegalArgumentException("Malformed Snappy data: " + e.getMessage(), e);
      }
    }

    @Override
    void decompressDirect(
        ByteBuffer src,
        int srcOffset,
        int srcLength,
        ByteBuffer dst,
        int dstOffset,
        int dstLength) {
      ByteBuffer in = window(src, srcOffset, srcLength);
      try {
        checkLength(dstLength, Snappy.uncompressedLength(in));
        checkLength(dstLength, Snappy.uncompress(in, window(dst, dstOffset, dstLength)));
      } catch (IOException e) {
        throw new IllegalArgumentException("Malformed Snappy data: " + e.getMessage(), e);
      }
    }
  }

  private static final class ZstdHolder {
    static final BlockCompressor INSTANCE = new ZstdCompressor();
  }

  private static final class ZstdCompressor extends BlockCompressor {
    @Override
    int maxCompressedLength(int length) {
      return Math.toIntExact(Zstd.compressBound(length));
    }

    @Override
    int compress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
      long n =
          Zstd.compressByteArray(
              dst, dstOffset, dst.length - dstOffset, src, srcOffset, length, ZSTD_LEVEL);
      if (Zstd.isError(n)) {
        throw new IllegalStateException("Zstd compression failed: " + Zstd.getErrorName(n));
      }
      return (int) n;
    }

    @Override
    void decompress(
        byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int dstLength) {
      long n;
      try {
        n = Zstd.decompressByteArray(dst, dstOffset, dstLength, src, srcOffset, srcLength);
      } catch (RuntimeException e) { // ZstdException
        throw new IllegalArgumentException("Malformed Zstd data: " + e.getMessage(), e);
      }
      if (Zstd.isError(n)) {
        throw new IllegalArgumentException("Malformed Zstd data: " + Zstd.getErrorName(n));
      }
      checkLength(dstLength, n);
    }

    @Override
    void decompressDirect(
        ByteBuffer src,
        int srcOffset,
        int srcLength,
        ByteBuffer dst,
        int dstOffset,
        int dstLength) {
      long n;
      try {
        n = Zstd.decompressDirectByteBuffer(dst, dstOffset, dstLength, src, srcOffset, srcLength);
      } catch (RuntimeException e) { // ZstdException
        throw new IllegalArgumentException("Malformed Zstd data: " + e.getMessage(), e);
      }
      if (Zstd.isError(n)) {
        throw new IllegalArgumentException("Malformed Zstd data: " + Zstd.getErrorName(n));
      }
      checkLength(dstLength, n);
    }
  }

  private static final class DeflateCompressor extends BlockCompressor {
    @Override
    int maxCompressedLength(int length) {
      // zlib's deflateBound for raw streams, with a margin for stored blocks.
      return length + (length >> 12) + (length >> 14) + (length >> 25) + 64;
    }

    @Override
    int compress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
      Deflater deflater = new Deflater(DEFLATE_LEVEL, true);
      try {
        deflater.setInput(src, srcOffset, length);
        deflater.finish();
        int n = 0;
        while (!deflater.finished()) {
          int room = dst.length - dstOffset - n;
          if (room == 0) {
            throw new IllegalStateException("Deflate output larger than its bound");
          }
          n += deflater.deflate(dst, dstOffset + n, room);
        }
        return n;
      } finally {
        deflater.end();
      }
    }

    @Override
    void decompress(
        byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int dstLength) {
      Inflater inflater = new Inflater(true);
      try {
        inflater.setInput(src, srcOffset, srcLength);
        int n = 0;
        while (n < dstLength && !inflater.finished()) {
          int got = inflater.inflate(dst, dstOffset + n, dstLength - n);
          if (got == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
            throw new IllegalArgumentException("Truncated deflate data");
          }
          n += got;
        }
        checkLength(dstLength, n);
        if (!inflater.finished()) {
          // More output than announced, or a stream without its end.
          byte[] probe = new byte[1];
          if (inflater.inflate(probe) != 0 || !inflater.finished()) {
            throw new IllegalArgumentException("Deflate data longer than announced");
          }
        }
        if (inflater.getRemaining() != 0) {
          throw new IllegalArgumentException("Trailing bytes after the deflate stream");
        }
      } catch (DataFormatException e) {
        throw new IllegalArgumentException("Malformed deflate data: " + e.getMessage(), e);
      } finally {
        inflater.end();
      }
    }
  }
}
