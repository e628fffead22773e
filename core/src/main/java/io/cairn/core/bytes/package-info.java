/**
 * Byte strings ordered as unsigned bytes ({@link io.cairn.core.bytes.Bytes}): the row keys and
 * values that the codecs build and the KV SPI carries. The bottom of core: uses no other package of
 * Cairn, so that the codecs ({@code io.cairn.core.encoding}, {@code io.cairn.core.agg}) and the SPI
 * ({@code io.cairn.kv}) above it form no cycle. Immutable, thread-safe.
 */
package io.cairn.core.bytes;
