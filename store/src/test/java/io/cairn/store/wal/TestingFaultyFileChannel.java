package io.cairn.store.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A test double of the operating system: a file channel that writes through to a real file until a
 * byte budget shared by all channels of one {@link Files} is spent, then writes what fits and fails
 * like a full disk. {@link #force} can be made to fail too.
 */
final class TestingFaultyFileChannel extends FileChannel {
  static final String NO_SPACE = "No space left on device";

  /** Creates segments whose channels share one write budget. */
  static final class Files implements WalFiles {
    final AtomicLong bytesLeft;
    volatile boolean failForce;

    Files(long bytesLeft) {
      this.bytesLeft = new AtomicLong(bytesLeft);
    }

    @Override
    public FileChannel createSegment(java.nio.file.Path file) throws IOException {
      return new TestingFaultyFileChannel(WalFiles.DEFAULT.createSegment(file), this);
    }
  }

  private final FileChannel delegate;
  private final Files files;

  private TestingFaultyFileChannel(FileChannel delegate, Files files) {
    this.delegate = delegate;
    this.files = files;
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    long left = files.bytesLeft.get();
    if (left <= 0) {
      throw new IOException(NO_SPACE);
    }
    if (src.remaining() > left) {
      ByteBuffer part = src.duplicate();
      part.limit(part.position() + (int) left);
      int n = delegate.write(part);
      src.position(src.position() + n);
      files.bytesLeft.addAndGet(-n);
      return n;
    }
    int n = delegate.write(src);
    files.bytesLeft.addAndGet(-n);
    return n;
  }

  @Override
  public void force(boolean metaData) throws IOException {
    if (files.failForce) {
      throw new IOException("Input/output error");
    }
    delegate.force(metaData);
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    return delegate.read(dst);
  }

  @Override
  public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
    return delegate.read(dsts, offset, length);
  }

  @Override
  public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
    long total = 0;
    for (int i = offset; i < offset + length; i++) {
      total += write(srcs[i]);
    }
    return total;
  }

  @Override
  public long position() throws IOException {
    return delegate.position();
  }

  @Override
  public FileChannel position(long newPosition) throws IOException {
    delegate.position(newPosition);
    return this;
  }

  @Override
  public long size() throws IOException {
    return delegate.size();
  }

  @Override
  public FileChannel truncate(long size) throws IOException {
    delegate.truncate(size);
    return this;
  }

  @Override
  public long transferTo(long position, long count, WritableByteChannel target) {
    throw new UnsupportedOperationException();
  }

  @Override
  public long transferFrom(ReadableByteChannel src, long position, long count) {
    throw new UnsupportedOperationException();
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    return delegate.read(dst, position);
  }

  @Override
  public int write(ByteBuffer src, long position) {
    throw new UnsupportedOperationException();
  }

  @Override
  public MappedByteBuffer map(MapMode mode, long position, long size) {
    throw new UnsupportedOperationException();
  }

  @Override
  public FileLock lock(long position, long size, boolean shared) {
    throw new UnsupportedOperationException();
  }

  @Override
  public FileLock tryLock(long position, long size, boolean shared) {
    throw new UnsupportedOperationException();
  }

  @Override
  protected void implCloseChannel() throws IOException {
    delegate.close();
  }
}
