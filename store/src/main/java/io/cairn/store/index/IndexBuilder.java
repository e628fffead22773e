package io.cairn.store.index;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.KeyRange;
import io.cairn.kv.Mutation;
import io.cairn.store.cell.CellCursor;
import io.cairn.store.cell.RowCursor;
import io.cairn.store.file.CachePolicy;
import io.cairn.store.region.Mvcc;
import io.cairn.store.region.Region;
import io.cairn.store.region.RegionState;
import io.cairn.store.region.StoreFile;
import io.cairn.store.table.RegionMap;
import io.cairn.store.table.StoreFileWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a local index from a snapshot, region by region, in parallel ({@link IndexChecker}
 * compares one with its table).
 *
 * <p>A build reads every region's rows at one read point R taken after the index joined the
 * maintained set (so every commit after R maintains it), computes their entries and writes them,
 * sorted, as puts at sequence id R: to new block files of the region (published like a flush's),
 * or, in memory, to its memstore. A write after R changed the entries itself at a higher sequence
 * id, so it wins over the build's; a write before R is in the snapshot. No log record is needed:
 * the files are in the manifest before the build returns. Each region holds its maintenance lock
 * while it is built (no flush, compaction or split of it meanwhile; writes go on); a region split
 * before its turn is built as its daughters.
 */
public final class IndexBuilder {
  private static final Logger LOG = LoggerFactory.getLogger(IndexBuilder.class);

  /** Entries sorted and written per file at most (bounds the build's memory per piece). */
  static final int CHUNK_ENTRIES = 1 << 21;

  /**
   * Bytes of entries a piece holds at most before it writes them as a file of its own: a share of
   * the heap, so that a build of a big region on a small heap writes more files, never runs out.
   */
  static final long CHUNK_BYTES =
      Math.max(16L << 20, Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 32));

  private final RegionMap map;
  private final Mvcc mvcc;
  private final StoreFileWriter files;
  private final LongSupplier expiredAtOrBelow;
  private final int threads;

  public IndexBuilder(
      RegionMap map, Mvcc mvcc, StoreFileWriter files, LongSupplier expiredAtOrBelow, int threads) {
    this.map = map;
    this.mvcc = mvcc;
    this.files = files;
    this.expiredAtOrBelow = expiredAtOrBelow;
    this.threads = Math.max(1, threads);
  }

  /**
   * Writes the entries of index {@code indexId} of {@code maintainer} (the table's maintained set,
   * in force for every commit now) for the rows of a snapshot; returns the entries written.
   */
  public long build(IndexMaintainer maintainer, int indexId, LongConsumer progress) {
    IndexMaintainer.Compiled index = compiled(maintainer, indexId);
    AtomicLong rows = new AtomicLong();
    long readPoint = readPointAfterEveryCommit();
    ExecutorService pool = newPool();
    try {
      long written = 0;
      Set<Region> done = Collections.newSetFromMap(new IdentityHashMap<>());
      List<KeyRange> covered = new ArrayList<>();
      while (true) {
        List<Region> todo = todo(map.regions(), done, covered);
        if (todo.isEmpty()) {
          break;
        }
        long[] results = new long[todo.size()];
        if (todo.size() >= threads) {
          // regions in parallel, each one piece written as one file
          List<Future<Long>> futures = new ArrayList<>();
          for (Region r : todo) {
            futures.add(
                pool.submit(
                    () -> buildRegion(r, maintainer, index, readPoint, rows, progress, null)));
          }
          for (int i = 0; i < futures.size(); i++) {
            results[i] = get(futures.get(i), futures);
          }
        } else {
          // few regions: each cut into pieces built in parallel
          for (int i = 0; i < todo.size(); i++) {
            results[i] =
                buildRegion(todo.get(i), maintainer, index, readPoint, rows, progress, pool);
          }
        }
        for (int i = 0; i < todo.size(); i++) {
          done.add(todo.get(i));
          if (results[i] >= 0) { // -1: split before its turn: its daughters next
            written += results[i];
            covered.add(todo.get(i).range());
          }
        }
        map.regions()[0].checkOpen();
      }
      progress.accept(rows.get());
      LOG.info("Built index {} of {}: {} entries", indexId, map.name(), written);
      return written;
    } finally {
      pool.shutdownNow();
      mvcc.endRead(readPoint);
    }
  }

  ExecutorService newPool() {
    return Executors.newFixedThreadPool(
        threads,
        r -> {
          Thread t = new Thread(r, "cairn-index-" + map.name());
          t.setDaemon(true);
          return t;
        });
  }

  static IndexMaintainer.Compiled compiled(IndexMaintainer maintainer, int indexId) {
    return maintainer
        .find(indexId)
        .orElseThrow(
            () ->
                CairnException.internal(
                    "Index [" + indexId + "] is not among the table's maintained indexes"));
  }

  /**
   * A read point at or above every sequence id handed out so far: every commit that did not yet
   * maintain the index (it read the indexes before they changed) is complete and in the snapshot.
   */
  private long readPointAfterEveryCommit() {
    for (Region r : map.regions()) {
      r.writeLock().lock(); // a commit still applying with the old indexes finishes first
      r.writeLock().unlock();
    }
    try {
      mvcc.awaitReadPoint(mvcc.lastSequenceId());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CairnException(ErrorCode.QUERY_CANCELED, "Index build interrupted");
    }
    return mvcc.beginRead();
  }

  /**
   * The regions still to do: neither done (built, or split before their turn) nor inside the range
   * of a region built (the daughters of a region split after its turn hold rows already done).
   */
  static List<Region> todo(Region[] regions, Set<Region> done, List<KeyRange> covered) {
    List<Region> todo = new ArrayList<>();
    for (Region r : regions) {
      if (!done.contains(r) && !covered(r.range(), covered)) {
        todo.add(r);
      }
    }
    return todo;
  }

  /** Whether {@code range} lies inside one of {@code covered}. */
  static boolean covered(KeyRange range, List<KeyRange> covered) {
    for (KeyRange outer : covered) {
      if (range.start().compareTo(outer.start()) >= 0
          && (outer.stop().isEmpty()
              || (!range.stop().isEmpty() && range.stop().compareTo(outer.stop()) <= 0))) {
        return true;
      }
    }
    return false;
  }

  static <T> T get(Future<T> f, List<? extends Future<?>> all) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      all.forEach(x -> x.cancel(true));
      Thread.currentThread().interrupt();
      throw new CairnException(ErrorCode.QUERY_CANCELED, "Index build interrupted");
    } catch (ExecutionException e) {
      all.forEach(x -> x.cancel(true));
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new CairnException(ErrorCode.INTERNAL_ERROR, "Index build failed", e.getCause());
    }
  }

  /**
   * Builds the region's entries, its key range cut at guide posts into pieces built in parallel; -1
   * when it was split before its turn.
   */
  private long buildRegion(
      Region region,
      IndexMaintainer maintainer,
      IndexMaintainer.Compiled index,
      long readPoint,
      AtomicLong rows,
      LongConsumer progress,
      ExecutorService pool) {
    region.maintenanceLock().lock();
    try {
      if (region.isRetired()) {
        region.checkOpen();
        return -1;
      }
      RegionState state = region.acquireState();
      if (state == null) {
        return -1;
      }
      List<StoreFile> built = Collections.synchronizedList(new ArrayList<>());
      try {
        long written = 0;
        List<KeyRange> ranges = pool == null ? List.of(region.range()) : pieces(region, state);
        Layout layout = layout(region, state, maintainer, index, readPoint, ranges.size());
        if (pool == null) {
          Piece piece =
              buildPiece(
                  region,
                  state,
                  region.range(),
                  maintainer,
                  index,
                  readPoint,
                  rows,
                  progress,
                  built,
                  layout);
          written +=
              piece.written()
                  + writeInKeyRanges(
                      region, EntryBuckets.of(List.of(piece.rest()), readPoint), built, null);
        } else {
          List<Future<Piece>> pieces = new ArrayList<>();
          for (KeyRange range : ranges) {
            pieces.add(
                pool.submit(
                    () ->
                        buildPiece(
                            region,
                            state,
                            range,
                            maintainer,
                            index,
                            readPoint,
                            rows,
                            progress,
                            built,
                            layout)));
          }
          List<BucketedEntries> rests = new ArrayList<>();
          for (Future<Piece> f : pieces) {
            Piece piece = get(f, pieces);
            written += piece.written();
            rests.add(piece.rest());
          }
          written += writeInKeyRanges(region, EntryBuckets.of(rests, readPoint), built, pool);
        }
        publish(region, built);
        built.clear();
        return written;
      } finally {
        built.forEach(StoreFileWriter::discard); // not published: an error
        state.release();
      }
    } finally {
      region.maintenanceLock().unlock();
    }
  }

  /**
   * The region's range cut at about {@code 4 x threads} of its files' guide posts (one piece when
   * it has none).
   */
  private List<KeyRange> pieces(Region region, RegionState state) {
    KeyRange range = region.range();
    List<Bytes> all = guidePosts(region, state);
    int wanted = Math.min(all.size(), threads * 4 - 1);
    List<KeyRange> pieces = new ArrayList<>(wanted + 1);
    Bytes start = range.start();
    for (int i = 1; i <= wanted; i++) {
      Bytes cut = all.get((int) ((long) i * all.size() / (wanted + 1)));
      if (cut.compareTo(start) > 0) {
        pieces.add(new KeyRange(start, cut));
        start = cut;
      }
    }
    pieces.add(new KeyRange(start, range.stop()));
    return pieces;
  }

  /** The row keys of the region's files' guide posts inside its range, after its start, sorted. */
  private static List<Bytes> guidePosts(Region region, RegionState state) {
    KeyRange range = region.range();
    TreeSet<Bytes> posts = new TreeSet<>();
    for (StoreFile f : state.files()) {
      for (Bytes g : f.info().guidePosts()) {
        if (g.compareTo(range.start()) > 0 && range.contains(g) && !IndexKeys.isEntry(g)) {
          posts.add(g);
        }
      }
    }
    return new ArrayList<>(posts);
  }

  /** Places of a region whose rows {@link #layout} samples, at most: its start and guide posts. */
  static final int SAMPLE_PLACES = 64;

  /** Rows {@link #layout} reads at each sampled place, at most. */
  static final int SAMPLE_ROWS = 512;

  /**
   * How a region's entries are bucketed while they are computed: the cuts, and the entries and
   * bytes a piece's bucket is made for.
   */
  private record Layout(EntryCuts cuts, int bucketEntries, int bucketBytes) {
    BucketedEntries newPiece() {
      return new BucketedEntries(cuts, bucketEntries, bucketBytes);
    }
  }

  /**
   * Fixes the region's buckets from the entries of a sample of its rows (at its start and at up to
   * {@value #SAMPLE_PLACES} of its guide posts, {@value #SAMPLE_ROWS} rows each): about {@value
   * SortedEntries#BUCKET_ENTRIES} entries a bucket, for as many rows as its files' raw bytes hold
   * at the sample's bytes a row.
   */
  private Layout layout(
      Region region,
      RegionState state,
      IndexMaintainer maintainer,
      IndexMaintainer.Compiled index,
      long readPoint,
      int pieces) {
    KeyRange range = region.range();
    List<Bytes> posts = guidePosts(region, state);
    List<Bytes> places = new ArrayList<>();
    places.add(range.start());
    int step = Math.max(1, posts.size() / (SAMPLE_PLACES - 1));
    for (int i = step / 2; i < posts.size() && places.size() < SAMPLE_PLACES; i += step) {
      places.add(posts.get(i));
    }
    SortedEntries sample = new SortedEntries();
    RowReader reader = maintainer.reader();
    long sampledRows = 0;
    long sampledBytes = 0;
    for (Bytes place : places) {
      try (RowCursor cursor =
          region.scan(
              state,
              new KeyRange(place, range.stop()),
              readPoint,
              expiredAtOrBelow.getAsLong(),
              CachePolicy.NO_CACHE)) {
        for (int i = 0; i < SAMPLE_ROWS && cursor.next(); i++) {
          reset(reader, cursor);
          maintainer.appendEntry(
              index, reader, cursor.keyArray(), cursor.keyOffset(), cursor.keyLength(), sample);
          sampledRows++;
          sampledBytes += cursor.keyLength() + cursor.valueLength();
        }
      }
    }
    long rows = 0;
    if (sampledBytes > 0) {
      // the raw bytes of rows (not index entries) in the files: a guide post every width bytes
      long rowBytes = region.memstoreBytes();
      for (StoreFile f : state.files()) {
        if (f.info().guidePosts().isEmpty()) {
          rowBytes += f.info().rawBytes(); // less than a width
          continue;
        }
        long width = f.info().options().guidePostWidth();
        for (Bytes g : f.info().guidePosts()) {
          if (range.contains(g) && !IndexKeys.isEntry(g)) {
            rowBytes += width;
          }
        }
      }
      rows = (long) ((double) rowBytes * sampledRows / sampledBytes);
    }
    // at least 8 sampled entries a bucket: cuts of fewer make uneven buckets
    long wanted = Math.min(sampledRows / 8, rows / SortedEntries.BUCKET_ENTRIES);
    EntryCuts cuts =
        EntryCuts.of(sample, IndexKeys.PREFIX_LENGTH, (int) Math.max(1, Math.min(1 << 16, wanted)));
    // a piece's bucket made for its share, growing past it; at most ~2 M entries made up front
    long perBucket = rows / Math.max(1, pieces) / cuts.buckets();
    int entries =
        (int)
            Math.max(
                16,
                Math.min(
                    perBucket + perBucket / 4 + 16,
                    Math.min(4 * SortedEntries.BUCKET_ENTRIES, (1 << 21) / cuts.buckets())));
    long entryBytes = sample.count() == 0 ? 32 : Math.max(1, sample.bytes() / sample.count());
    return new Layout(cuts, entries, (int) Math.min(1 << 20, entries * entryBytes));
  }

  /** What a piece built: the entries written to files, and its last chunk, not sorted yet. */
  private record Piece(long written, BucketedEntries rest) {}

  /**
   * Builds the entries of the rows of {@code piece} of the region: a chunk that reaches the limits
   * is sorted and written at once, the last one is returned as it is.
   */
  private Piece buildPiece(
      Region region,
      RegionState state,
      KeyRange piece,
      IndexMaintainer maintainer,
      IndexMaintainer.Compiled index,
      long readPoint,
      AtomicLong rows,
      LongConsumer progress,
      List<StoreFile> built,
      Layout layout) {
    long written = 0;
    RowReader reader = maintainer.reader();
    BucketedEntries chunk = layout.newPiece();
    try (RowCursor cursor =
        region.scan(state, piece, readPoint, expiredAtOrBelow.getAsLong(), CachePolicy.NO_CACHE)) {
      while (cursor.next()) {
        reset(reader, cursor);
        maintainer.appendEntry(
            index,
            reader,
            cursor.keyArray(),
            cursor.keyOffset(),
            cursor.keyLength(),
            chunk.staging());
        chunk.route();
        if (chunk.count() >= CHUNK_ENTRIES || chunk.bytes() >= CHUNK_BYTES) {
          written +=
              writeInKeyRanges(region, EntryBuckets.of(List.of(chunk), readPoint), built, null);
          chunk = layout.newPiece();
        }
        if ((rows.incrementAndGet() & 0xFFFF) == 0) {
          progress.accept(rows.get());
        }
      }
    }
    return new Piece(written, chunk);
  }

  static void reset(RowReader reader, RowCursor cursor) {
    reader.reset(
        cursor.keyArray(),
        cursor.keyOffset(),
        cursor.keyLength(),
        cursor.valueBuffer(),
        cursor.valueOffset(),
        cursor.valueLength());
  }

  /**
   * Writes the buckets' entries as a few files of disjoint key ranges, in parallel: each file takes
   * a run of buckets, sorting each within the CPU caches as it writes it. No merge compares keys,
   * and a seek in the index reads one file. Without a pool: one file, on this thread.
   */
  private long writeInKeyRanges(
      Region region, EntryBuckets buckets, List<StoreFile> built, ExecutorService pool) {
    long readPoint = buckets.sequenceId();
    long total = 0;
    for (int i = 0; i < buckets.size(); i++) {
      total += buckets.count(i);
    }
    if (total == 0) {
      return 0;
    }
    if (!map.files().exist()) {
      return apply(region, buckets.range(0, buckets.size()), readPoint);
    }
    if (pool == null) {
      return writeCursor(region, buckets.range(0, buckets.size()), built);
    }
    int ranges = (int) Math.max(1, Math.min(threads, total / 100_000));
    List<Future<Long>> files = new ArrayList<>();
    int from = 0;
    long seen = 0;
    for (int i = 0; i < buckets.size(); i++) {
      seen += buckets.count(i);
      boolean last = i == buckets.size() - 1;
      if (last || seen * ranges >= total * (files.size() + 1)) {
        int a = from;
        int b = i + 1;
        files.add(pool.submit(() -> writeCursor(region, buckets.range(a, b), built)));
        from = b;
      }
    }
    long written = 0;
    for (Future<Long> f : files) {
      written += get(f, files);
    }
    return written;
  }

  /** Writes sorted entries as one block file of the region; returns the entries written. */
  private long writeCursor(Region region, CellCursor sorted, List<StoreFile> built) {
    StoreFile file = files.writeSorted(sorted);
    if (file == null) {
      return 0;
    }
    built.add(file);
    return file.info().cellCount();
  }

  /** Puts a store in memory applies to a memstore at once: bounds the build's transient objects. */
  static final int APPLY_BATCH = 1 << 16;

  /**
   * Writes sorted entries to the region's memstore (a store in memory), {@value #APPLY_BATCH} at a
   * time; returns how many.
   */
  private static long apply(Region region, CellCursor sorted, long readPoint) {
    List<Mutation> puts = new ArrayList<>();
    long applied = 0;
    for (boolean valid = sorted.seek(Bytes.EMPTY); valid; ) {
      puts.add(new Mutation.Put(sorted.row(), sorted.value()));
      valid = sorted.advance();
      if (puts.size() == APPLY_BATCH || !valid) {
        region.writeLock().lock();
        try {
          region.apply(puts, readPoint);
        } finally {
          region.writeLock().unlock();
        }
        applied += puts.size();
        puts = new ArrayList<>();
      }
    }
    return applied;
  }

  /** Adds the built files to the region, durably (its manifest) first. */
  private void publish(Region region, List<StoreFile> built) {
    if (built.isEmpty()) {
      return;
    }
    synchronized (map.lock()) {
      List<StoreFile> after = new ArrayList<>(built);
      after.addAll(region.peekState().files());
      map.writeManifest(map.regions(), region, after, 0);
      for (StoreFile f : built) {
        region.completeFlush(List.of(), f, 0);
      }
    }
  }
}
