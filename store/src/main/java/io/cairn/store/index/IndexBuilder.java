package io.cairn.store.index;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.IndexCheck;
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
import io.cairn.store.scan.MergingCursor;
import io.cairn.store.stats.StatisticsCollector;
import io.cairn.store.table.RegionMap;
import io.cairn.store.table.StoreFileWriter;
import java.util.ArrayList;
import java.util.Arrays;
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
 * Builds a local index from a snapshot and compares an index with its table, region by region in
 * parallel.
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

  /** Bytes of entries sorted and written per file at most. */
  static final long CHUNK_BYTES = 256L << 20;

  /** Entry samples a check reports at most. */
  static final int MAX_SAMPLES = 10;

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
      while (true) {
        List<Region> todo = new ArrayList<>();
        for (Region r : map.regions()) {
          if (!done.contains(r)) {
            todo.add(r);
          }
        }
        if (todo.isEmpty()) {
          break;
        }
        for (Region r : todo) {
          long n = buildRegion(r, maintainer, index, readPoint, rows, progress, pool);
          written += Math.max(0, n); // -1: split before its turn, its daughters come next
          done.add(r);
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

  private ExecutorService newPool() {
    return Executors.newFixedThreadPool(
        threads,
        r -> {
          Thread t = new Thread(r, "cairn-index-" + map.name());
          t.setDaemon(true);
          return t;
        });
  }

  /** Compares index {@code indexId} with the table's rows at a snapshot taken now. */
  public IndexCheck check(IndexMaintainer maintainer, int indexId) {
    IndexMaintainer.Compiled index = compiled(maintainer, indexId);
    long readPoint = mvcc.beginRead();
    try {
      IndexCheck[] total = {new IndexCheck(0, 0, 0, 0, List.of())};
      forEachRegion(
          region -> {
            IndexCheck c = checkRegion(region, maintainer, index, readPoint);
            if (c == null) {
              return false;
            }
            synchronized (total) {
              total[0] = total[0].plus(c, MAX_SAMPLES);
            }
            return true;
          });
      return total[0];
    } finally {
      mvcc.endRead(readPoint);
    }
  }

  private static IndexMaintainer.Compiled compiled(IndexMaintainer maintainer, int indexId) {
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

  /** A job on one region: false when the region was split before its turn (not done). */
  private interface RegionJob {
    boolean run(Region region);
  }

  /**
   * Runs {@code job} on every region, in parallel, and on the daughters of regions split meanwhile.
   */
  private void forEachRegion(RegionJob job) {
    Set<Region> done = Collections.newSetFromMap(new IdentityHashMap<>());
    ExecutorService pool = newPool();
    try {
      while (true) {
        List<Region> todo = new ArrayList<>();
        for (Region r : map.regions()) {
          if (!done.contains(r)) {
            todo.add(r);
          }
        }
        if (todo.isEmpty()) {
          return;
        }
        List<Future<Boolean>> futures = new ArrayList<>();
        for (Region r : todo) {
          futures.add(pool.submit(() -> job.run(r)));
        }
        for (int i = 0; i < todo.size(); i++) {
          if (get(futures.get(i), futures)) {
            done.add(todo.get(i));
          } else if (!todo.get(i).isRetired()) {
            throw CairnException.internal("Region " + todo.get(i) + " skipped but not split");
          } else {
            done.add(todo.get(i)); // its daughters are in the next pass
          }
        }
        map.regions()[0].checkOpen();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static <T> T get(Future<T> f, List<? extends Future<?>> all) {
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
        List<Future<Piece>> pieces = new ArrayList<>();
        for (KeyRange piece : pieces(region, state)) {
          pieces.add(
              pool.submit(
                  () ->
                      buildPiece(
                          region,
                          state,
                          piece,
                          maintainer,
                          index,
                          readPoint,
                          rows,
                          progress,
                          built)));
        }
        long written = 0;
        List<SortedEntries> rests = new ArrayList<>();
        for (Future<Piece> f : pieces) {
          Piece piece = get(f, pieces);
          written += piece.written();
          rests.add(piece.rest());
        }
        // the pieces' last chunks merged into one file: a region's index is read from few files
        written += write(region, rests, readPoint, built);
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
    TreeSet<Bytes> posts = new TreeSet<>();
    for (StoreFile f : state.files()) {
      for (Bytes g : f.info().guidePosts()) {
        if (g.compareTo(range.start()) > 0 && range.contains(g) && !IndexKeys.isEntry(g)) {
          posts.add(g);
        }
      }
    }
    List<Bytes> all = new ArrayList<>(posts);
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

  /** What a piece built: the entries written to files, and its last chunk, sorted, to write. */
  private record Piece(long written, SortedEntries rest) {}

  /**
   * Builds the entries of the rows of {@code piece} of the region: a chunk that reaches the limits
   * is written at once, the last one is returned sorted.
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
      List<StoreFile> built) {
    long written = 0;
    RowReader reader = maintainer.reader();
    SortedEntries chunk = new SortedEntries();
    try (RowCursor cursor =
        region.scan(state, piece, readPoint, expiredAtOrBelow.getAsLong(), CachePolicy.NO_CACHE)) {
      while (cursor.next()) {
        reset(reader, cursor);
        maintainer.appendEntry(
            index, reader, cursor.keyArray(), cursor.keyOffset(), cursor.keyLength(), chunk);
        if (chunk.count() >= CHUNK_ENTRIES || chunk.bytes() >= CHUNK_BYTES) {
          written +=
              write(
                  region,
                  List.of(chunk.sort(IndexKeys.PREFIX_LENGTH, readPoint)),
                  readPoint,
                  built);
          chunk = new SortedEntries();
        }
        if ((rows.incrementAndGet() & 0xFFFF) == 0) {
          progress.accept(rows.get());
        }
      }
    }
    return new Piece(written, chunk.sort(IndexKeys.PREFIX_LENGTH, readPoint));
  }

  private static void reset(RowReader reader, RowCursor cursor) {
    reader.reset(
        cursor.keyArray(),
        cursor.keyOffset(),
        cursor.keyLength(),
        cursor.valueBuffer(),
        cursor.valueOffset(),
        cursor.valueLength());
  }

  /**
   * Writes sorted chunks of entries as one block file of the region (in memory: to its memstore);
   * returns the entries written.
   */
  private long write(
      Region region, List<SortedEntries> chunks, long readPoint, List<StoreFile> built) {
    int n = 0;
    List<CellCursor> sources = new ArrayList<>(chunks.size());
    for (SortedEntries c : chunks) {
      n += c.count();
      if (c.count() > 0) {
        sources.add(c);
      }
    }
    if (n == 0) {
      return 0;
    }
    if (!map.files().exist()) {
      List<Mutation> puts = new ArrayList<>(n);
      for (SortedEntries sorted : chunks) {
        for (boolean valid = sorted.seek(Bytes.EMPTY); valid; valid = sorted.advance()) {
          puts.add(new Mutation.Put(sorted.row(), sorted.value()));
        }
      }
      region.writeLock().lock();
      try {
        region.apply(puts, readPoint);
      } finally {
        region.writeLock().unlock();
      }
      return n;
    }
    StatisticsCollector unused =
        new StatisticsCollector(region.regionId(), region.range(), map.guidePostWidth());
    StoreFile file;
    try (CellCursor merged = MergingCursor.of(sources)) {
      file = files.write(region, merged, -1, -1, false, false, unused);
    }
    if (file != null) {
      built.add(file);
    }
    return n;
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

  /** Compares the region's entries of the index with its rows; null when split before its turn. */
  private IndexCheck checkRegion(
      Region region, IndexMaintainer maintainer, IndexMaintainer.Compiled index, long readPoint) {
    RegionState state = region.acquireState();
    if (state == null) {
      return null;
    }
    try {
      long expired = expiredAtOrBelow.getAsLong();
      RowReader reader = maintainer.reader();
      SortedEntries expected = new SortedEntries();
      long rows = 0;
      try (RowCursor cursor =
          region.scan(state, region.range(), readPoint, expired, CachePolicy.NO_CACHE)) {
        while (cursor.next()) {
          reset(reader, cursor);
          maintainer.appendEntry(
              index, reader, cursor.keyArray(), cursor.keyOffset(), cursor.keyLength(), expected);
          rows++;
        }
      }
      expected.sort(IndexKeys.PREFIX_LENGTH, readPoint);
      boolean more = expected.seek(Bytes.EMPTY);
      long entries = 0;
      long missing = 0;
      long extra = 0;
      List<String> samples = new ArrayList<>();
      try (RowCursor actual =
          region.scanEntries(
              state,
              IndexKeys.range(index.spec().indexId()),
              readPoint,
              expired,
              CachePolicy.NO_CACHE)) {
        while (actual.next()) {
          entries++;
          byte[] k = actual.keyArray();
          int ko = actual.keyOffset();
          int kl = actual.keyLength();
          int c = -1;
          while (more && (c = compareKey(expected, k, ko, kl)) < 0) {
            missing++;
            sample(samples, "missing", expected.row());
            more = expected.advance();
          }
          if (more && c == 0) {
            if (!sameValue(expected, actual)) {
              missing++;
              extra++;
              sample(samples, "wrong included values", expected.row());
            }
            more = expected.advance();
          } else {
            extra++;
            sample(samples, "extra", Bytes.copyOf(k, ko, kl));
          }
        }
      }
      while (more) {
        missing++;
        sample(samples, "missing", expected.row());
        more = expected.advance();
      }
      return new IndexCheck(rows, entries, missing, extra, samples);
    } finally {
      state.release();
    }
  }

  private static int compareKey(SortedEntries e, byte[] k, int offset, int length) {
    return Arrays.compareUnsigned(
        e.rowArray(), e.rowOffset(), e.rowOffset() + e.rowLength(), k, offset, offset + length);
  }

  private static boolean sameValue(SortedEntries e, RowCursor actual) {
    return e.value().equals(value(actual));
  }

  private static void sample(List<String> samples, String kind, Bytes entryKey) {
    if (samples.size() < MAX_SAMPLES) {
      samples.add(kind + " entry " + entryKey);
    }
  }

  private static Bytes key(RowCursor c) {
    return Bytes.copyOf(c.keyArray(), c.keyOffset(), c.keyLength());
  }

  private static Bytes value(RowCursor c) {
    byte[] v = new byte[c.valueLength()];
    c.valueBuffer().get(c.valueOffset(), v);
    return Bytes.wrap(v);
  }
}
