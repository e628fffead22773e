/**
 * Block files: the store's immutable sorted files of cells (row ascending, sequence id descending),
 * written by {@link io.cairn.store.file.BlockFileWriter} and read by {@link
 * io.cairn.store.file.BlockFileReader}. The byte-level specification is docs/format-blockfile.md;
 * in short (format version 2, big-endian integers, LEB128 varints, CRC32C checksums):
 *
 * <ul>
 *   <li>Header (36 bytes): magic {@code CAB1F11E}, the format name {@code cairn.blockfile}, the
 *       version, the file id, a checksum.
 *   <li>Blocks: {@code u8 type, u8 compression, u32 uncompressed length, u32 stored length,
 *       payload, u32 crc32c}; the checksum is verified on every read from disk. Data blocks of
 *       about {@code blockSize} uncompressed bytes, in one {@link
 *       io.cairn.store.file.DataBlockEncoding} (NONE, PREFIX, FAST_DIFF, ROW_INDEX) and compressed
 *       with one {@link io.cairn.store.file.Compression} (NONE, LZ4, SNAPPY, ZSTD, GZIP); a block
 *       that does not shrink is stored uncompressed. FAST_DIFF blocks of version 2 end with restart
 *       points (a cell decodable on its own about every 16 cells) that seeks binary-search.
 *   <li>A multi-level index (leaf blocks written inline, intermediate levels and a root at the end;
 *       the root is loaded at open); each data block is indexed by a short separator key.
 *   <li>A row bloom filter in chunks (10 bits a row, 7 Murmur3 x64-128 hashes) with its own index.
 *   <li>A file info block: options, key range, largest sequence id, counts, raw bytes, guide posts.
 *   <li>Trailer (60 bytes): offsets and sizes of file info, root index, bloom index; index levels;
 *       file id, version, magic, checksum.
 * </ul>
 *
 * <p>Writers write version 2; readers read 1 and 2 and reject any other with
 * UNSUPPORTED_FORMAT_VERSION and every failed check with DATA_CORRUPTED naming the file and the
 * offset. All block reads go through {@code BlockSource}, the seam where the block cache (blocks
 * kept decompressed, still encoded) will sit. Golden files of each version are read by a test on
 * every build.
 *
 * <p>{@link io.cairn.store.file.VectorCache} keeps data blocks as numeric column vectors on the
 * heap ({@code BlockVectors}, built by {@code BlockVectorBuilder} when a cursor's {@code peekBlock}
 * first offers the block to a scan): what a scan's filters and aggregates read instead of decoding
 * the block's cells. It is synchronized (one lock, taken once per block a scan reaches); the
 * vectors it hands out are immutable.
 *
 * <h2>Uses, threads and locks</h2>
 *
 * <p>Uses {@code io.cairn.store.io} (checksums, varints, headers), {@code io.cairn.store.cell} (the
 * cursors it serves) and {@code io.cairn.store.cache} (pooled buffers and the block cache). A
 * {@link io.cairn.store.file.BlockFileWriter} is used by one thread: a flush or compaction, which
 * holds the region's maintenance lock (not its write lock) while it writes. A {@link
 * io.cairn.store.file.BlockFileReader} is thread-safe after open and takes no lock of its own; its
 * cursors are used by one thread each. Readers are called with no lock by scans, and with the
 * region's write lock held by a conditional write's existence check (bloom filter, then a seek).
 */
package io.cairn.store.file;
