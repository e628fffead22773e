/**
 * Conversions between Cairn's own objects and the wire protocol's messages ({@code
 * io.cairn.protocol}, generated from protocol/src/main/proto/cairn/rpc.proto): values, rows, scan
 * programs, scan requests, mutations, regions and errors. The server and the remote client use the
 * same conversions, so what one encodes the other decodes to an equal object. Decoding checks
 * everything a hostile or broken peer could get wrong and throws {@link
 * io.cairn.core.error.CairnException} with {@code PROTOCOL_ERROR}, never a bare runtime exception.
 * Expressions deeper than a protobuf tree should nest travel as a flat post-order list of nodes,
 * written and read with explicit stacks ({@link io.cairn.protocol.wire.WirePrograms},
 * docs/protocol.md "Expressions on the wire").
 */
package io.cairn.protocol.wire;
