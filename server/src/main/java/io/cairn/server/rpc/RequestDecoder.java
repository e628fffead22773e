package io.cairn.server.rpc;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Request;
import io.cairn.relocated.protobuf.CodedInputStream;
import io.cairn.relocated.protobuf.WireFormat;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Parses a frame into a {@link Request}. A frame that is not one fails only its request when its id
 * can still be read (an {@link UnreadableRequest}, answered with PROTOCOL_ERROR for that id while
 * the connection goes on); bytes without a readable id fail with PROTOCOL_ERROR, and the connection
 * is then closed. The frame is released by the base class.
 */
final class RequestDecoder extends MessageToMessageDecoder<ByteBuf> {
  /**
   * Message nesting a request may have: an expression sent as a tree nests two messages per level
   * (Expr, Call) and clients send trees up to 250 levels deep (WirePrograms.MAX_TREE_DEPTH; deeper
   * ones flat, which nest no deeper), beyond protobuf's default of 100 levels (which made a
   * 50-level expression close the connection).
   */
  static final int MAX_NESTING = 1_000;

  /** What an error quotes at most of the parser's complaint. */
  static final int MAX_REASON_CHARS = 200;

  /** The tag of Request.id: its field number, then the varint wire type in the low 3 bits. */
  private static final int ID_TAG = Request.ID_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_VARINT;

  private final ServerMetrics metrics;

  RequestDecoder(ServerMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) {
    int length = frame.readableBytes();
    metrics.bytesIn(length + FrameDecoder.LENGTH_BYTES);
    ByteBuffer bytes = frame.nioBuffer();
    try {
      CodedInputStream in = CodedInputStream.newInstance(bytes.duplicate());
      in.setRecursionLimit(MAX_NESTING);
      out.add(Request.parseFrom(in));
    } catch (IOException e) { // InvalidProtocolBufferException: a ByteBuffer has no other I/O
      String reason = bounded(String.valueOf(e.getMessage()));
      long id = findId(bytes);
      if (id == 0) {
        throw new CairnException(
            ErrorCode.PROTOCOL_ERROR,
            "Frame of [" + length + "] bytes is not a request: " + reason);
      }
      out.add(
          new UnreadableRequest(
              id,
              length,
              "Request ["
                  + id
                  + "] (a frame of ["
                  + length
                  + "] bytes) could not be read: "
                  + reason));
    }
  }

  /**
   * The id of a request that does not parse, read field by field without parsing the body: the last
   * {@code id} before the bytes stop making sense (as protobuf keeps the last value of a field
   * given twice), 0 when there is none. Groups (which no request has) end the search rather than be
   * skipped, so nothing here recurses.
   */
  static long findId(ByteBuffer frame) {
    CodedInputStream in = CodedInputStream.newInstance(frame.duplicate());
    long id = 0;
    try {
      while (true) {
        int tag = in.readTag();
        if (tag == 0) {
          return id;
        }
        int wireType = WireFormat.getTagWireType(tag);
        if (tag == ID_TAG) {
          id = in.readUInt64();
        } else if (wireType == WireFormat.WIRETYPE_START_GROUP
            || wireType == WireFormat.WIRETYPE_END_GROUP
            || !in.skipField(tag)) {
          return id;
        }
      }
    } catch (IOException e) {
      return id;
    }
  }

  private static String bounded(String text) {
    return text.length() <= MAX_REASON_CHARS ? text : text.substring(0, MAX_REASON_CHARS) + "...";
  }
}
