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
 */
final class FrameDecoder extends LengthFieldBasedFrameDecoder {
  static final int LENGTH_BYTES = 4;

  private final int maxFrameBytes;
  private boolean failed;

  FrameDecoder(int maxFrameBytes) {
    super(maxFrameBytes + LENGTH_BYTES, 0, LENGTH_BYTES, 0, LENGTH_BYTES, true);
    this.maxFrameBytes = maxFrameBytes;
  }

  @Override
  protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
    if (failed) {
      in.skipBytes(in.readableBytes());
      return null;
    }
    if (in.readableBytes() >= LENGTH_BYTES) {
      long length = in.getUnsignedInt(in.readerIndex());
      if (length > maxFrameBytes) {
        failed = true;
        in.skipBytes(in.readableBytes());
        throw new CairnException(
            ErrorCode.FRAME_TOO_LARGE,
            "Frame of ["
                + length
                + "] bytes is larger than the server's maximum frame size ["
                + maxFrameBytes
                + "] bytes");
      }
    }
    return super.decode(ctx, in);
  }
}
