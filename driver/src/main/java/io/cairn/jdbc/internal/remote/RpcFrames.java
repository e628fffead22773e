package io.cairn.jdbc.internal.remote;

import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.MessageToByteEncoder;
import java.io.IOException;

/**
 * The protocol's frames (see rpc.proto): a 4-byte big-endian length, then one protobuf message.
 * Requests go out as frames; frames come in as {@link Response}s. Every buffer is released here:
 * the decoder's frame once it is parsed, the encoder's by Netty once it is written.
 */
final class RpcFrames {
  /**
   * Largest response frame the client accepts. The server's own limit (16 MiB by default, told in
   * HelloOk) bounds what it sends; this only stops a broken peer from making the client allocate
   * without bound.
   */
  static final int MAX_RESPONSE_FRAME_BYTES = 256 << 20;

  private RpcFrames() {}

  /** Splits the stream into frames, without the length prefix. */
  static LengthFieldBasedFrameDecoder frameDecoder() {
    return new LengthFieldBasedFrameDecoder(MAX_RESPONSE_FRAME_BYTES, 0, 4, 0, 4);
  }

  /** Parses one frame; the caller releases it. */
  static Response parse(ByteBuf frame) throws IOException {
    try (ByteBufInputStream in = new ByteBufInputStream(frame)) {
      return Response.parseFrom(in);
    }
  }

  /** Writes a request as one frame. */
  static final class RequestEncoder extends MessageToByteEncoder<Request> {
    RequestEncoder() {
      super(Request.class);
    }

    @Override
    protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, Request msg, boolean preferDirect) {
      int size = 4 + msg.getSerializedSize();
      return preferDirect ? ctx.alloc().ioBuffer(size) : ctx.alloc().heapBuffer(size);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Request msg, ByteBuf out) throws IOException {
      out.writeInt(msg.getSerializedSize());
      try (ByteBufOutputStream stream = new ByteBufOutputStream(out)) {
        msg.writeTo(stream);
      }
    }
  }
}
