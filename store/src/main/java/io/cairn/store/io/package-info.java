/**
 * The bottom layer of the store: varints, checksums, file headers and trailers, and the error
 * helpers that name a file and an offset. Uses nothing else of the server.
 */
package io.cairn.store.io;
