/**
 * Conversions between Cairn's own objects and the wire protocol's messages ({@code
 * io.cairn.protocol}, generated from protocol/src/main/proto/cairn/rpc.proto): values, rows, scan
 * programs, scan requests, mutations, regions and errors. The server and the remote client use the
 * same conversions, so what one encodes the other decodes to an equal object. Decoding checks
 * everything a hostile or broken peer could get wrong and throws {@link
 * io.cairn.core.error.CairnException} with {@code PROTOCOL_ERROR}, never a bare runtime exception.
 */
package io.cairn.core.wire;
