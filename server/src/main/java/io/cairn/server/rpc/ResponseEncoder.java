package io.cairn.server.rpc;

import io.cairn.protocol.Response;
import io.cairn.relocated.protobuf.CodedOutputStream;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;

/**
 * Writes a {@link Response} as one frame: its 4-byte big-endian length, then the message, encoded
 * straight into the outgoing buffer.
 */
@ChannelHandler.Sharable
final class ResponseEncoder extends MessageToByteEncoder<Response> {
  private final ServerMetrics metrics;

  ResponseEncoder(ServerMetrics metrics) {
    super(Response.class);
    this.metrics = metrics;
  }

  @Override
  protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, Response msg, boolean preferDirect) {
    int size = FrameDecoder.LENGTH_BYTES + msg.getSerializedSize();
    return preferDirect ? ctx.alloc().ioBuffer(size, size) : ctx.alloc().heapBuffer(size, size);
  }

  @Override
  protected void encode(ChannelHandlerContext ctx, Response msg, ByteBuf out) throws Exception {
    int size = msg.getSerializedSize();
    out.writeInt(size);
    CodedOutputStream coded = CodedOutputStream.newInstance(out.nioBuffer(out.writerIndex(), size));
    msg.writeTo(coded);
    coded.checkNoSpaceLeft();
    out.writerIndex(out.writerIndex() + size);
    metrics.bytesOut(size + FrameDecoder.LENGTH_BYTES);
  }
}
