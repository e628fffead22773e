package io.cairn.store.wal;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.Durability;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write-ahead log of a store: a directory of numbered segment files holding CRC32C-framed
 * records (format in the package documentation).
 *
 * <p>Callers {@link #enqueue} a record (serialised in the caller's thread; the queue lock is held
 * only to append it and draw a ticket) and then {@link #await} its ticket with the durability they
 * need. One writer thread drains the queue in rounds (group commit): everything queued is copied
 * into one reusable buffer and written with one or few {@code write} calls, the segment is forced
 * once if any waiter of the round asked for {@link Durability#FSYNC}, and the waiters are woken.
 * Records reach the file in enqueue order, so a durable ticket implies every earlier ticket is
 * durable too.
 *
 * <p>Any I/O error while writing or forcing fails the log: waiters of records not yet durable and
 * every later {@link #enqueue}/{@link #await} get {@link ErrorCode#IO_ERROR} until the log is
 * reopened. Records acknowledged before the failure stay on disk.
 *
 * <p>Thread-safe, except that {@link #replay} must be called at most once, before the first append.
 */
public final class WriteAheadLog implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WriteAheadLog.class);

  /** The max sequence id of a segment not yet replayed: never deleted by markFlushedBelow. */
  private static final long UNKNOWN_SEQUENCE_ID = Long.MAX_VALUE;

  private final Path directory;
  private final WalConfig config;
  private final WalFiles files;

  /** Guarded by itself; in segment number order. */
  private final List<Segment> segments;

  /** The segment the writer appends to, null before the first write and after a roll. */
  private Segment current; // guarded by segments

  private long nextSegmentNumber; // writer thread only (after open)

  /**
   * The marker as last written or read (null: the log has none yet, or it could not be read); the
   * file is written under this lock.
   */
  private final Object markerLock = new Object();

  private WalMarker marker; // guarded by markerLock

  /** Why the marker could not be read at open, or null; reported by replay. */
  private final CairnException markerError;

  /**
   * The queue: a lock-free stack of records, newest first, down to a marker the writer left when it
   * last took the stack. A record's ticket is its predecessor's plus one, fixed by the push, so
   * ticket order is enqueue order. A closed marker on top refuses further pushes.
   */
  private final AtomicReference<Node> head = new AtomicReference<>(Node.marker(0, false, null));

  private volatile boolean writerParked;
  private volatile long writtenTicket;
  private volatile long forcedTicket;
  private final AtomicLong fsyncRequestedTicket = new AtomicLong();
  private volatile CairnException failure;
  private final ConcurrentLinkedQueue<Waiter> waiters = new ConcurrentLinkedQueue<>();

  private final Object replayLock = new Object();
  private boolean replayed; // guarded by replayLock
  private volatile boolean appendStarted;

  private final Thread writer;
  private final ByteBuffer writeBuffer; // writer thread only
  private final ArrayList<byte[]> batch = new ArrayList<>(); // writer thread only
  private final AtomicBoolean closed = new AtomicBoolean();

  private WriteAheadLog(
      Path directory,
      WalConfig config,
      WalFiles files,
      List<Segment> existing,
      WalMarker marker,
      CairnException markerError) {
    this.directory = directory;
    this.config = config;
    this.files = files;
    this.segments = new ArrayList<>(existing);
    this.marker = marker;
    this.markerError = markerError;
    long highest = existing.isEmpty() ? 0 : existing.get(existing.size() - 1).number;
    // numbers are never reused, not even after a clean close deleted every segment
    this.nextSegmentNumber = Math.max(highest, marker == null ? 0 : marker.lastSegment()) + 1;
    this.writeBuffer = ByteBuffer.allocateDirect(config.writeBufferBytes());
    this.writer = new Thread(this::runWriter, "cairn-wal-writer");
    writer.setDaemon(true);
  }

  /**
   * Opens the log in {@code dir} (created if missing); does not replay; a new segment is started
   * for appends after replay. Starts one writer thread.
   *
   * @throws CairnException IO_ERROR when the directory cannot be created or listed
   */
  public static WriteAheadLog open(Path dir, WalConfig config) {
    return open(dir, config, WalFiles.DEFAULT);
  }

  static WriteAheadLog open(Path dir, WalConfig config, WalFiles files) {
    requireNonNull(dir, "dir is null");
    requireNonNull(config, "config is null");
    requireNonNull(files, "files is null");
    List<Segment> existing = new ArrayList<>();
    try {
      Files.createDirectories(dir);
      try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
        for (Path file : stream) {
          long number = WalFormat.parseSegmentNumber(file.getFileName().toString());
          if (number >= 0) {
            existing.add(new Segment(number, file, UNKNOWN_SEQUENCE_ID, Files.size(file)));
          }
        }
      }
    } catch (IOException e) {
      throw new CairnException(
          ErrorCode.IO_ERROR, "Cannot open WAL directory [" + dir + "]: " + e.getMessage(), e);
    }
    existing.sort((a, b) -> Long.compare(a.number, b.number));
    WalMarker marker = null;
    CairnException markerError = null;
    try {
      marker = WalMarker.read(dir).orElse(null);
    } catch (CairnException e) {
      if (e.errorCode() == ErrorCode.IO_ERROR) {
        throw e;
      }
      markerError = e; // reported by replay, which salvage may pass
    }
    WriteAheadLog wal = new WriteAheadLog(dir, config, files, existing, marker, markerError);
    wal.writer.start();
    return wal;
  }

  /**
   * Reads every segment in order and passes each valid record to the handler; returns the highest
   * sequence id seen (0 when none). Records come in log order, which is not sequence id order.
   * Checks the segments against the marker when the log has one, as {@link #replay(Consumer,
   * boolean, boolean) replay(handler, false, false)}.
   *
   * @throws IllegalStateException when called twice or after the first append
   * @throws CairnException DATA_CORRUPTED, UNSUPPORTED_FORMAT_VERSION or IO_ERROR
   */
  public long replay(Consumer<WalRecord> handler) {
    return replay(handler, false, false).highestSequenceId();
  }

  /**
   * Checks that the log is complete, then reads every segment in order and passes each valid record
   * to the handler. Records come in log order, which is not sequence id order.
   *
   * <p>Complete: every segment the marker ({@code wal.marker}) names is present and holds at least
   * its header. A torn record at the tail of the last segment (incomplete length or payload, or a
   * bad checksum with nothing valid after it) is the remains of an interrupted write: it is
   * truncated away and logged at WARN with file and offset. A corrupt record followed by valid data
   * (in the same segment or a later one) is damage.
   *
   * <p>Damage is {@link ErrorCode#DATA_CORRUPTED} naming the file (and the offset), before any
   * record is handed over when the check finds it. With {@code salvage} it is reported instead: the
   * result lists what was missing or unreadable (with the sequence ids around a gap), each damaged
   * segment's records up to the damage are handed over, the rest of it is skipped, and replay goes
   * on with the next segment. The caller is then to flush what was replayed and {@link
   * #deleteAllSegments()}, so that the damage is not found again.
   *
   * @param markerRequired whether a missing marker is damage (the store says the log keeps one);
   *     else a log without a marker (written before markers existed) is replayed unchecked
   * @throws IllegalStateException when called twice or after the first append
   * @throws CairnException DATA_CORRUPTED, UNSUPPORTED_FORMAT_VERSION or IO_ERROR
   */
  public WalReplay replay(Consumer<WalRecord> handler, boolean markerRequired, boolean salvage) {
    requireNonNull(handler, "handler is null");
    synchronized (replayLock) {
      if (replayed) {
        throw new IllegalStateException("WAL already replayed");
      }
      if (appendStarted) {
        throw new IllegalStateException("WAL replay after the first append");
      }
      replayed = true;
    }
    List<Segment> snapshot;
    synchronized (segments) {
      snapshot = List.copyOf(segments);
    }
    TreeMap<Long, Long> sizes = new TreeMap<>();
    snapshot.forEach(segment -> sizes.put(segment.number, segment.bytes));
    List<WalCheck.Problem> problems = new ArrayList<>();
    if (markerError != null) {
      Path markerPath = directory.resolve(WalMarker.FILE_NAME);
      problems.add(new WalCheck.Problem(markerPath, -1, -1, markerError.getMessage(), true));
    }
    WalMarker checked;
    synchronized (markerLock) {
      checked = marker;
    }
    problems.addAll(
        WalCheck.check(directory, checked, markerRequired && markerError == null, sizes));
    if (!problems.isEmpty() && !salvage) {
      WalCheck.Problem first = problems.get(0);
      throw new CairnException(
          markerError != null ? markerError.errorCode() : ErrorCode.DATA_CORRUPTED,
          first.problem()
              + (problems.size() > 1 ? " (and " + (problems.size() - 1) + " more problems)" : ""),
          markerError != null && problems.size() == 1 ? markerError : null);
    }
    Set<Long> skipped = new HashSet<>();
    List<WalDamage> damages = new ArrayList<>();
    for (WalCheck.Problem problem : problems) {
      if (!problem.missingRun()) {
        if (problem.present()
            && !problem.file().getFileName().toString().equals(WalMarker.FILE_NAME)) {
          skipped.add(WalFormat.parseSegmentNumber(problem.file().getFileName().toString()));
        }
        damages.add(new WalDamage(problem.file(), problem.problem(), problem.present()));
      }
    }
    // per segment number: the lowest and highest sequence id replayed from it
    TreeMap<Long, long[]> bounds = new TreeMap<>();
    long highest = 0;
    for (int i = 0; i < snapshot.size(); i++) {
      Segment segment = snapshot.get(i);
      if (skipped.contains(segment.number)) {
        segment.maxSequenceId = -1; // nothing of it was replayed: trimming may delete it
        continue;
      }
      boolean last = i == snapshot.size() - 1;
      long[] seen = {Long.MAX_VALUE, -1};
      Consumer<WalRecord> counting =
          record -> {
            handler.accept(record);
            seen[0] = Math.min(seen[0], record.sequenceId());
            seen[1] = Math.max(seen[1], record.sequenceId());
          };
      SegmentReader.Result result;
      try {
        result = SegmentReader.replay(segment.file, segment.number, last, counting);
      } catch (CairnException e) {
        if (!salvage || e.errorCode() == ErrorCode.IO_ERROR) {
          throw e;
        }
        damages.add(
            new WalDamage(
                segment.file,
                e.getMessage()
                    + "; the records before the damage were replayed"
                    + (seen[1] >= 0 ? " (sequence ids up to [" + seen[1] + "])" : " (none)")
                    + ", the rest of the segment was skipped",
                true));
        result = new SegmentReader.Result(seen[1], segment.bytes, false);
      }
      if (seen[1] >= 0) {
        bounds.put(segment.number, seen);
      }
      synchronized (segments) {
        if (result.deleted()) {
          segments.remove(segment);
        } else {
          segment.maxSequenceId = result.maxSequenceId();
          segment.bytes = result.bytes();
        }
      }
      highest = Math.max(highest, result.maxSequenceId());
    }
    for (WalCheck.Problem problem : problems) {
      if (problem.missingRun()) {
        Map.Entry<Long, long[]> before = bounds.lowerEntry(problem.firstMissing());
        Map.Entry<Long, long[]> after = bounds.higherEntry(problem.lastMissing());
        damages.add(
            new WalDamage(
                problem.file(),
                problem.problem()
                    + "; lost: the logged sequence ids after about ["
                    + (before == null ? "the flushed ones" : before.getValue()[1])
                    + "] and before about ["
                    + (after == null ? "the end of the log" : after.getValue()[0])
                    + "]",
                false));
      }
    }
    for (WalDamage damage : damages) {
      log.warn("Salvaging the WAL in [{}]: {}", directory, damage.problem());
    }
    return new WalReplay(highest, damages);
  }

  /**
   * Queues the record (non-blocking, FIFO); returns a ticket for {@link #await}. Records are
   * written in enqueue order, so a durable record implies every earlier-enqueued record is durable.
   *
   * @throws CairnException IO_ERROR if the log has failed or is closed; INVALID_ARGUMENT if the
   *     record is larger than the format allows (1 GiB)
   */
  public long enqueue(WalRecord record) {
    requireNonNull(record, "record is null");
    byte[] frame = WalFormat.encodeFrame(record);
    if (!appendStarted) {
      appendStarted = true;
    }
    Node node = new Node(frame, record.sequenceId());
    while (true) {
      Node top = head.get();
      // the failure first: fail() publishes it before it closes the queue, and a waiter that saw
      // the failure must not be able to append afterwards
      CairnException failed = failure;
      if (failed != null) {
        throw failedException(failed);
      }
      if (top.closed) {
        failed = failure;
        if (failed != null) {
          throw failedException(failed);
        }
        throw new CairnException(ErrorCode.IO_ERROR, "WAL [" + directory + "] is closed");
      }
      node.ticket = top.ticket + 1;
      node.next = top;
      if (head.compareAndSet(top, node)) {
        break;
      }
    }
    wakeWriter();
    return node.ticket;
  }

  /**
   * Blocks until the ticket's record is {@link Durability#SYNC SYNC}: written to the OS, or {@link
   * Durability#FSYNC FSYNC}: forced to the device. {@link Durability#ASYNC ASYNC} and {@link
   * Durability#SKIP SKIP} return at once. Waits through interrupts (keeping the interrupt status).
   *
   * @throws CairnException IO_ERROR, naming the segment file and the cause, if writing failed
   *     before the record became durable: the log is then failed until it is reopened
   */
  public void await(long ticket, Durability durability) {
    requireNonNull(durability, "durability is null");
    if (ticket <= 0 || ticket > head.get().ticket) {
      throw new IllegalArgumentException("Unknown WAL ticket [" + ticket + "]");
    }
    if (durability == Durability.SKIP || durability == Durability.ASYNC) {
      return;
    }
    boolean fsync = durability == Durability.FSYNC;
    if (isDurable(ticket, fsync)) {
      return;
    }
    if (fsync) {
      fsyncRequestedTicket.accumulateAndGet(ticket, Math::max);
      wakeWriter();
    }
    Waiter waiter = new Waiter(Thread.currentThread(), ticket, fsync);
    waiters.add(waiter);
    boolean interrupted = false;
    try {
      while (!isDurable(ticket, fsync)) {
        CairnException failed = failure;
        if (failed != null) {
          throw failedException(failed);
        }
        LockSupport.park(this);
        if (Thread.interrupted()) {
          interrupted = true;
        }
      }
    } finally {
      waiters.remove(waiter);
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Everything with sequence id &lt; {@code floor} is persisted elsewhere (flushed to files):
   * deletes the oldest segments as long as all their records have sequence ids &lt; {@code floor},
   * stopping at the first that has a later record, at the one being written and at one not yet
   * replayed. Only the oldest go, so the segments left are always a contiguous run of numbers,
   * which is what the marker records (updated before the files are deleted) and the next open
   * checks.
   *
   * @throws CairnException IO_ERROR when a segment cannot be deleted
   */
  public void markFlushedBelow(long floor) {
    List<Segment> obsolete = new ArrayList<>();
    synchronized (segments) {
      for (Iterator<Segment> it = segments.iterator(); it.hasNext(); ) {
        Segment segment = it.next();
        if (segment == current || segment.maxSequenceId >= floor) {
          break;
        }
        obsolete.add(segment);
        it.remove();
      }
    }
    if (obsolete.isEmpty()) {
      return;
    }
    try {
      synchronized (markerLock) {
        long first = obsolete.get(obsolete.size() - 1).number + 1;
        if (marker != null && first > marker.firstSegment()) {
          writeMarker(
              new WalMarker(Math.min(first, marker.lastSegment() + 1), marker.lastSegment()));
        }
      }
      for (Segment segment : obsolete) {
        Files.deleteIfExists(segment.file);
        log.debug(
            "Deleted WAL segment [{}]: max sequence id [{}] below [{}]",
            segment.file,
            segment.maxSequenceId,
            floor);
      }
      files.syncDirectory(directory);
    } catch (IOException | CairnException e) {
      synchronized (segments) {
        segments.addAll(0, obsolete); // they may still be there: the next trim tries again
      }
      throw new CairnException(
          ErrorCode.IO_ERROR,
          "Cannot delete WAL segment in [" + directory + "]: " + e.getMessage(),
          e);
    }
  }

  /**
   * Deletes every segment file of the log, which must be closed or not yet appended to: every edit
   * in it is in the store's files (a clean close, or a salvage that flushed what it replayed). The
   * marker is updated first, so that the next open expects no segment and the next segment gets a
   * new number.
   *
   * @throws IllegalStateException when appends may still run
   * @throws CairnException IO_ERROR
   */
  public void deleteAllSegments() {
    if (appendStarted && !closed.get()) {
      throw new IllegalStateException("WAL [" + directory + "] is still being appended to");
    }
    try {
      List<Path> found = new ArrayList<>();
      long highest = 0;
      try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
        for (Path file : stream) {
          long number = WalFormat.parseSegmentNumber(file.getFileName().toString());
          if (number >= 0) {
            found.add(file);
            highest = Math.max(highest, number);
          }
        }
      }
      synchronized (markerLock) {
        long last = Math.max(highest, marker == null ? 0 : marker.lastSegment());
        writeMarker(new WalMarker(last + 1, last));
      }
      for (Path file : found) {
        Files.deleteIfExists(file);
      }
      files.syncDirectory(directory);
      synchronized (segments) {
        segments.clear();
      }
    } catch (IOException e) {
      throw new CairnException(
          ErrorCode.IO_ERROR,
          "Cannot delete the WAL segments in [" + directory + "]: " + e.getMessage(),
          e);
    }
  }

  /** Whether the log has a marker (read at open or written since). */
  public boolean hasMarker() {
    synchronized (markerLock) {
      return marker != null;
    }
  }

  /**
   * Writes the marker of a new, empty log in {@code dir} (created if missing): no segment yet. A
   * store does so when it is created, so that its log is checked from the start.
   *
   * @throws CairnException IO_ERROR
   */
  public static void createMarker(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new CairnException(
          ErrorCode.IO_ERROR, "Cannot create WAL directory [" + dir + "]: " + e.getMessage(), e);
    }
    new WalMarker(1, 0).write(dir);
  }

  /** Caller holds markerLock. */
  private void writeMarker(WalMarker next) {
    next.write(directory);
    marker = next;
  }

  /** Number of segment files. */
  public int segmentCount() {
    synchronized (segments) {
      return segments.size();
    }
  }

  /** Total bytes of the segment files. */
  public long totalBytes() {
    synchronized (segments) {
      long total = 0;
      for (Segment segment : segments) {
        total += segment.bytes;
      }
      return total;
    }
  }

  /**
   * Writes and forces everything queued, stops the writer thread, closes the file. Idempotent.
   *
   * @throws CairnException IO_ERROR when that last write or force fails (queued records may be
   *     lost); a failure that happened before close is not thrown again
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    CairnException failedBefore = failure;
    markClosed(true);
    LockSupport.unpark(writer);
    boolean interrupted = false;
    while (true) {
      try {
        writer.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    CairnException failed = failure;
    if (failed != null && failedBefore == null) {
      throw failedException(failed);
    }
  }

  private boolean isDurable(long ticket, boolean fsync) {
    return (fsync ? forcedTicket : writtenTicket) >= ticket;
  }

  /** Unparks the writer if it sleeps; callers first publish the work it is to see. */
  private void wakeWriter() {
    if (writerParked) {
      LockSupport.unpark(writer);
    }
  }

  private boolean writerHasWork() {
    Node top = head.get();
    return top.frame != null
        || top.closed
        || fsyncRequestedTicket.get() > forcedTicket
        || failure != null;
  }

  /**
   * Puts a closed marker on top of the queue so that no record is pushed any more; with {@code
   * keepQueued} the records queued so far stay for the writer to take, else they are dropped.
   */
  private void markClosed(boolean keepQueued) {
    while (true) {
      Node top = head.get();
      if (top.closed) {
        if (!keepQueued) {
          top.next = null;
        }
        return;
      }
      if (head.compareAndSet(top, Node.marker(top.ticket, true, keepQueued ? top : null))) {
        return;
      }
    }
  }

  private static CairnException failedException(CairnException failed) {
    return new CairnException(failed.errorCode(), failed.getMessage(), failed);
  }

  // ---- the writer thread ----

  private void runWriter() {
    try {
      while (true) {
        while (!writerHasWork()) {
          writerParked = true;
          if (!writerHasWork()) {
            LockSupport.park(this);
          }
          writerParked = false;
        }
        if (failure != null) {
          return;
        }
        Node top = head.get();
        boolean closeNow = top.closed;
        Node taken;
        if (closeNow) {
          taken = top.next;
        } else if (top.frame == null) {
          taken = null;
        } else if (head.compareAndSet(top, Node.marker(top.ticket, false, null))) {
          taken = top;
        } else {
          continue;
        }
        long batchLastTicket = writtenTicket;
        long batchMaxSequenceId = -1;
        if (taken != null && taken.frame != null) {
          batchLastTicket = taken.ticket;
          for (Node n = taken; n.frame != null; n = n.next) {
            batch.add(n.frame);
            batchMaxSequenceId = Math.max(batchMaxSequenceId, n.sequenceId);
          }
          Collections.reverse(batch);
        }
        writeRound(batch, batchLastTicket, batchMaxSequenceId, closeNow);
        batch.clear();
        if (closeNow || failure != null) {
          return;
        }
      }
    } catch (RuntimeException | Error e) {
      fail(new CairnException(ErrorCode.INTERNAL_ERROR, "WAL writer failed: " + e, e));
      if (e instanceof Error error) {
        throw error;
      }
    } finally {
      closeCurrentQuietly();
    }
  }

  private void writeRound(
      List<byte[]> batch, long batchLastTicket, long batchMaxSequenceId, boolean closeNow) {
    Segment segment = null;
    long roundStart = -1;
    try {
      if (!batch.isEmpty()) {
        segment = currentSegment();
        roundStart = segment.bytes;
        long written = writeFrames(segment.channel, batch);
        synchronized (segments) {
          segment.bytes = roundStart + written;
          segment.maxSequenceId = Math.max(segment.maxSequenceId, batchMaxSequenceId);
        }
        roundStart = -1;
        writtenTicket = batchLastTicket;
        wakeWaiters();
      }
      long toForce = writtenTicket;
      if (toForce > forcedTicket && (closeNow || fsyncRequestedTicket.get() > forcedTicket)) {
        segment = peekCurrent();
        if (segment != null) {
          segment.channel.force(false);
        }
        forcedTicket = toForce;
        wakeWaiters();
      }
      segment = peekCurrent();
      if (segment != null && segment.bytes >= config.segmentBytes()) {
        roll(segment);
      }
    } catch (IOException e) {
      Path file = segment != null ? segment.file : directory;
      fail(
          new CairnException(
              ErrorCode.IO_ERROR, "Cannot write WAL segment [" + file + "]: " + e.getMessage(), e));
      if (segment != null && roundStart >= 0) {
        truncateQuietly(segment, roundStart);
      }
    }
  }

  private long writeFrames(FileChannel channel, List<byte[]> batch) throws IOException {
    ByteBuffer buffer = writeBuffer;
    buffer.clear();
    long total = 0;
    for (byte[] frame : batch) {
      total += frame.length;
      if (frame.length > buffer.remaining()) {
        writeFully(channel, buffer.flip());
        buffer.clear();
        if (frame.length > buffer.capacity()) {
          writeFully(channel, ByteBuffer.wrap(frame));
          continue;
        }
      }
      buffer.put(frame);
    }
    writeFully(channel, buffer.flip());
    buffer.clear();
    return total;
  }

  private static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
  }

  private Segment peekCurrent() {
    synchronized (segments) {
      return current;
    }
  }

  private Segment currentSegment() throws IOException {
    Segment segment = peekCurrent();
    if (segment != null) {
      return segment;
    }
    long number = nextSegmentNumber++;
    Path file = directory.resolve(WalFormat.segmentFileName(number));
    FileChannel channel = files.createSegment(file);
    try {
      writeFully(channel, WalFormat.encodeHeader(number));
      channel.force(true);
      files.syncDirectory(directory);
      // before any record goes in: every record lies in a segment the marker names
      synchronized (markerLock) {
        writeMarker(
            new WalMarker(
                marker == null ? number : Math.min(marker.firstSegment(), number), number));
      }
    } catch (IOException | CairnException e) {
      closeQuietly(channel);
      throw new IOException("Cannot create WAL segment [" + file + "]: " + e.getMessage(), e);
    }
    segment = new Segment(number, file, -1, WalFormat.HEADER_BYTES);
    segment.channel = channel;
    synchronized (segments) {
      segments.add(segment);
      current = segment;
    }
    return segment;
  }

  /** Forces and closes a full segment; the next write starts a new one. */
  private void roll(Segment segment) throws IOException {
    segment.channel.force(false);
    forcedTicket = writtenTicket;
    wakeWaiters();
    segment.channel.close();
    synchronized (segments) {
      current = null;
    }
    log.debug("Rolled WAL segment [{}] at [{}] bytes", segment.file, segment.bytes);
  }

  private void wakeWaiters() {
    CairnException failed = failure;
    long written = writtenTicket;
    long forced = forcedTicket;
    for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
      Waiter waiter = it.next();
      if (failed != null || waiter.ticket <= (waiter.fsync ? forced : written)) {
        it.remove();
        LockSupport.unpark(waiter.thread);
      }
    }
  }

  private void fail(CairnException cause) {
    if (failure == null) {
      failure = cause;
      log.error("WAL in [{}] failed; appends fail until it is reopened", directory, cause);
    }
    markClosed(false);
    wakeWaiters();
  }

  private void truncateQuietly(Segment segment, long size) {
    try {
      segment.channel.truncate(size);
      segment.bytes = size;
    } catch (IOException | RuntimeException e) {
      log.warn("Cannot truncate WAL segment [{}] back to [{}] bytes", segment.file, size, e);
    }
  }

  private void closeCurrentQuietly() {
    Segment segment;
    synchronized (segments) {
      segment = current;
      current = null;
    }
    if (segment != null) {
      closeQuietly(segment.channel);
    }
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      log.warn("Cannot close WAL segment", e);
    }
  }

  /** A segment file; the writer's open channel while it is current. */
  private static final class Segment {
    final long number;
    final Path file;
    volatile long maxSequenceId;
    volatile long bytes;
    FileChannel channel; // writer thread only

    Segment(long number, Path file, long maxSequenceId, long bytes) {
      this.number = number;
      this.file = file;
      this.maxSequenceId = maxSequenceId;
      this.bytes = bytes;
    }
  }

  /** A queued record, or (with a null frame) a marker ending the records taken so far. */
  private static final class Node {
    final byte[] frame;
    final long sequenceId;
    final boolean closed;
    long ticket; // fixed before the node is published by the push
    Node next;

    Node(byte[] frame, long sequenceId) {
      this.frame = frame;
      this.sequenceId = sequenceId;
      this.closed = false;
    }

    private Node(long ticket, boolean closed, Node next) {
      this.frame = null;
      this.sequenceId = -1;
      this.closed = closed;
      this.ticket = ticket;
      this.next = next;
    }

    static Node marker(long ticket, boolean closed, Node next) {
      return new Node(ticket, closed, next);
    }
  }

  private record Waiter(Thread thread, long ticket, boolean fsync) {}
}
