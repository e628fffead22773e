package io.cairn.server.rpc;

import com.google.protobuf.InvalidProtocolBufferException;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Request;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.util.List;

/**
 * Parses a frame into a {@link Request}; bytes that are not one fail with PROTOCOL_ERROR (the
 * connection is then closed: the request's id cannot be known). The frame is released by the base
 * class.
 */
final class RequestDecoder extends MessageToMessageDecoder<ByteBuf> {
  private final ServerMetrics metrics;

  RequestDecoder(ServerMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) {
    int length = frame.readableBytes();
    metrics.bytesIn(length + FrameDecoder.LENGTH_BYTES);
    try {
      out.add(Request.parseFrom(frame.nioBuffer()));
    } catch (InvalidProtocolBufferException e) {
      throw new CairnException(
          ErrorCode.PROTOCOL_ERROR,
          "Frame of [" + length + "] bytes is not a request: " + e.getMessage());
    }
  }
}
