package io.cairn.server.rpc;

import com.google.protobuf.CodedInputStream;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Request;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.io.IOException;
import java.util.List;

/**
 * Parses a frame into a {@link Request}; bytes that are not one fail with PROTOCOL_ERROR (the
 * connection is then closed: the request's id cannot be known). The frame is released by the base
 * class.
 */
final class RequestDecoder extends MessageToMessageDecoder<ByteBuf> {
  /**
   * Message nesting a request may have: an expression nests two messages per level (Expr, Call) and
   * clients send expressions up to 250 levels deep (RemoteKvTable), beyond protobuf's default of
   * 100 levels (which made a 50-level expression close the connection).
   */
  static final int MAX_NESTING = 1_000;

  private final ServerMetrics metrics;

  RequestDecoder(ServerMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) {
    int length = frame.readableBytes();
    metrics.bytesIn(length + FrameDecoder.LENGTH_BYTES);
    try {
      CodedInputStream in = CodedInputStream.newInstance(frame.nioBuffer());
      in.setRecursionLimit(MAX_NESTING);
      out.add(Request.parseFrom(in));
    } catch (IOException e) { // InvalidProtocolBufferException: a ByteBuffer has no other I/O
      throw new CairnException(
          ErrorCode.PROTOCOL_ERROR,
          "Frame of [" + length + "] bytes is not a request: " + e.getMessage());
    }
  }
}
