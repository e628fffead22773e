package io.cairn.store.wal;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.Durability;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
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
 * <p>This class is the group-commit pipeline (queue, writer thread, waiters) and the front door;
 * the segment files and the marker are {@link WalSegments}', replay and salvage {@link
 * WalReplayer}'s.
 *
 * <p>Thread-safe, except that {@link #replay} must be called at most once, before the first append.
 */
public final class WriteAheadLog implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WriteAheadLog.class);

  private final Path directory;
  private final WalConfig config;

  /** The segment files and the marker. */
  private final WalSegments segments;

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

  private WriteAheadLog(Path directory, WalConfig config, WalSegments segments) {
    this.directory = directory;
    this.config = config;
    this.segments = segments;
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
    WriteAheadLog wal = new WriteAheadLog(dir, config, WalSegments.open(dir, files));
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
    return WalReplayer.replay(segments, handler, markerRequired, salvage);
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
    segments.markFlushedBelow(floor);
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
    segments.deleteAll();
  }

  /** Whether the log has a marker (read at open or written since). */
  public boolean hasMarker() {
    return segments.hasMarker();
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

  /** Number of segment files. */
  public int segmentCount() {
    return segments.count();
  }

  /** Total bytes of the segment files. */
  public long totalBytes() {
    return segments.totalBytes();
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
      segments.closeCurrentQuietly();
    }
  }

  private void writeRound(
      List<byte[]> batch, long batchLastTicket, long batchMaxSequenceId, boolean closeNow) {
    WalSegments.Segment segment = null;
    long roundStart = -1;
    try {
      if (!batch.isEmpty()) {
        segment = segments.currentSegment();
        roundStart = segment.bytes;
        long written = writeFrames(segment.channel, batch);
        segments.appended(segment, roundStart + written, batchMaxSequenceId);
        roundStart = -1;
        writtenTicket = batchLastTicket;
        wakeWaiters();
      }
      long toForce = writtenTicket;
      if (toForce > forcedTicket && (closeNow || fsyncRequestedTicket.get() > forcedTicket)) {
        segment = segments.peekCurrent();
        if (segment != null) {
          segment.channel.force(false);
        }
        forcedTicket = toForce;
        wakeWaiters();
      }
      segment = segments.peekCurrent();
      if (segment != null && segment.bytes >= config.segmentBytes()) {
        roll(segment);
      }
    } catch (IOException e) {
      Path file = segment != null ? segment.file : directory;
      fail(
          new CairnException(
              ErrorCode.IO_ERROR, "Cannot write WAL segment [" + file + "]: " + e.getMessage(), e));
      if (segment != null && roundStart >= 0) {
        WalSegments.truncateQuietly(segment, roundStart);
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
        WalSegments.writeFully(channel, buffer.flip());
        buffer.clear();
        if (frame.length > buffer.capacity()) {
          WalSegments.writeFully(channel, ByteBuffer.wrap(frame));
          continue;
        }
      }
      buffer.put(frame);
    }
    WalSegments.writeFully(channel, buffer.flip());
    buffer.clear();
    return total;
  }

  /** Forces and closes a full segment; the next write starts a new one. */
  private void roll(WalSegments.Segment segment) throws IOException {
    segment.channel.force(false);
    forcedTicket = writtenTicket;
    wakeWaiters();
    segments.retire(segment);
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
