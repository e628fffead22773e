package io.cairn.server.rpc;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;

/**
 * Cuts the byte stream into frames: a 4-byte big-endian length, then that many bytes, handed on
 * without the length. A length beyond the maximum frame size fails with FRAME_TOO_LARGE naming
 * both, before any of the frame is buffered; everything after it is discarded (the connection is
 * closed by {@link ServerConnection}).
 *
 * <p>Until the connection has authenticated ({@link #loggedIn()}), the maximum is the small
 * pre-login one ({@code pre-login.max-frame-bytes}): a Hello is tiny, and a client that has not
 * logged in may not make the server buffer more. The decoder also records since when it holds a
 * frame begun but not complete ({@link #partialSinceNanos()}), for the frame read timeout.
 */
final class FrameDecoder extends LengthFieldBasedFrameDecoder {
  static final int LENGTH_BYTES = 4;

  private final int maxFrameBytes;
  private final int preLoginMaxFrameBytes;
  private boolean failed;
  private boolean decodedSinceReadComplete;
  private volatile boolean loggedIn;

  /** When the partial frame held now began (System.nanoTime), 0 when none; event loop writes. */
  private volatile long partialSinceNanos;

  FrameDecoder(int maxFrameBytes) {
    this(maxFrameBytes, maxFrameBytes);
  }

  FrameDecoder(int maxFrameBytes, int preLoginMaxFrameBytes) {
    super(maxFrameBytes + LENGTH_BYTES, 0, LENGTH_BYTES, 0, LENGTH_BYTES, true);
    this.maxFrameBytes = maxFrameBytes;
    this.preLoginMaxFrameBytes = Math.min(preLoginMaxFrameBytes, maxFrameBytes);
  }

  /** The connection has authenticated: frames up to the full maximum are read from now on. */
  void loggedIn() {
    loggedIn = true;
  }

  /** Since when (System.nanoTime) a frame begun but not complete is held; 0 when none. */
  long partialSinceNanos() {
    return partialSinceNanos;
  }

  /** Restarts the partial frame's clock (the server did not read for a while: not the client's). */
  void restartPartialClock() {
    if (partialSinceNanos != 0) {
      partialSinceNanos = nonZero(System.nanoTime());
    }
  }

  @Override
  protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
    if (failed) {
      in.skipBytes(in.readableBytes());
      return null;
    }
    if (in.readableBytes() >= LENGTH_BYTES) {
      long length = in.getUnsignedInt(in.readerIndex());
      boolean beforeLogin = !loggedIn;
      int limit = beforeLogin ? preLoginMaxFrameBytes : maxFrameBytes;
      if (length > limit) {
        failed = true;
        in.skipBytes(in.readableBytes());
        throw new CairnException(
            ErrorCode.FRAME_TOO_LARGE,
            "Frame of ["
                + length
                + "] bytes is larger than the server's maximum frame size ["
                + limit
                + "] bytes"
                + (beforeLogin
                    ? " before login ("
                        + ConnectionConfig.PRE_LOGIN_MAX_FRAME_BYTES
                        + "; after a successful Hello ["
                        + maxFrameBytes
                        + "] bytes)"
                    : ""));
      }
    }
    Object frame = super.decode(ctx, in);
    if (frame != null) {
      decodedSinceReadComplete = true;
    }
    return frame;
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
    boolean partial = !failed && internalBuffer().isReadable();
    if (!partial) {
      partialSinceNanos = 0;
    } else if (partialSinceNanos == 0 || decodedSinceReadComplete) {
      // a frame completed in this read: what is held now is the beginning of the next one
      partialSinceNanos = nonZero(System.nanoTime());
    }
    decodedSinceReadComplete = false;
    super.channelReadComplete(ctx);
  }

  private static long nonZero(long nanos) {
    return nanos == 0 ? 1 : nanos;
  }
}
