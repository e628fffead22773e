/**
 * Block files: the store's immutable sorted files of cells (row ascending, sequence id descending),
 * written by {@link io.cairn.store.file.BlockFileWriter} and read by {@link
 * io.cairn.store.file.BlockFileReader}. The byte-level specification is docs/format-blockfile.md;
 * in short (format version 1, big-endian integers, LEB128 varints, CRC32C checksums):
 *
 * <ul>
 *   <li>Header (36 bytes): magic {@code CAB1F11E}, the format name {@code cairn.blockfile}, the
 *       version, the file id, a checksum.
 *   <li>Blocks: {@code u8 type, u8 compression, u32 uncompressed length, u32 stored length,
 *       payload, u32 crc32c}; the checksum is verified on every read from disk. Data blocks of
 *       about {@code blockSize} uncompressed bytes, in one {@link
 *       io.cairn.store.file.DataBlockEncoding} (NONE, PREFIX, FAST_DIFF, ROW_INDEX) and compressed
 *       with one {@link io.cairn.store.file.Compression} (NONE, LZ4, SNAPPY, ZSTD, GZIP); a block
 *       that does not shrink is stored uncompressed.
 *   <li>A multi-level index (leaf blocks written inline, intermediate levels and a root at the end;
 *       the root is loaded at open); each data block is indexed by a short separator key.
 *   <li>A row bloom filter in chunks (10 bits a row, 7 Murmur3 x64-128 hashes) with its own index.
 *   <li>A file info block: options, key range, largest sequence id, counts, raw bytes, guide posts.
 *   <li>Trailer (60 bytes): offsets and sizes of file info, root index, bloom index; index levels;
 *       file id, version, magic, checksum.
 * </ul>
 *
 * <p>Readers reject any version but 1 with UNSUPPORTED_FORMAT_VERSION and every failed check with
 * DATA_CORRUPTED naming the file and the offset. All block reads go through {@code BlockSource},
 * the seam where the block cache (blocks kept decompressed, still encoded) will sit. Golden files
 * of each version are read by a test on every build.
 */
package io.cairn.store.file;
