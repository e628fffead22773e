/**
 * The bottom layer of the store: varints, checksums, file headers and trailers, and the error
 * helpers that name a file and an offset, the atomic replacement of small text files (manifests,
 * markers) and the parsing of {@code cairn.*} settings. Uses no other package of the store.
 *
 * <p>The static helpers are stateless and thread-safe; a {@link io.cairn.store.io.ByteArrayOutput}
 * {@link io.cairn.store.io.ByteBufferInput} or {@link io.cairn.store.io.ByteArrayInput} is used by
 * one thread. Nothing here takes a lock, so any of it may be called under any lock of the packages
 * above (the WAL writes its marker with {@link io.cairn.store.io.AtomicFiles} under the marker's
 * lock).
 */
package io.cairn.store.io;
