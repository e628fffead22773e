package io.cairn.store.cell;

import java.nio.ByteBuffer;
import java.util.List;

/** Row cursors that need no source, and ones made of others. */
public final class RowCursors {
  /** A cursor without rows. */
  public static final RowCursor EMPTY =
      new RowCursor() {
        @Override
        public boolean next() {
          return false;
        }

        @Override
        public byte[] keyArray() {
          throw new IllegalStateException("No current row");
        }

        @Override
        public int keyOffset() {
          throw new IllegalStateException("No current row");
        }

        @Override
        public int keyLength() {
          throw new IllegalStateException("No current row");
        }

        @Override
        public ByteBuffer valueBuffer() {
          throw new IllegalStateException("No current row");
        }

        @Override
        public int valueOffset() {
          throw new IllegalStateException("No current row");
        }

        @Override
        public int valueLength() {
          throw new IllegalStateException("No current row");
        }

        @Override
        public void close() {}
      };

  private RowCursors() {}

  /** A test of a row's key: {@code key[offset, offset + length)}. */
  @FunctionalInterface
  public interface KeyTest {
    boolean test(byte[] key, int offset, int length);
  }

  /** The rows of {@code rows} whose key passes {@code test}. */
  public static RowCursor filter(RowCursor rows, KeyTest test) {
    return new ForwardingRowCursor(rows) {
      @Override
      public boolean next() {
        while (delegate.next()) {
          if (test.test(delegate.keyArray(), delegate.keyOffset(), delegate.keyLength())) {
            return true;
          }
        }
        return false;
      }
    };
  }

  /** The rows of each cursor of {@code parts} after the other; closing closes all of them. */
  public static RowCursor concat(List<RowCursor> parts) {
    if (parts.isEmpty()) {
      return EMPTY;
    }
    if (parts.size() == 1) {
      return parts.get(0);
    }
    return new ForwardingRowCursor(parts.get(0)) {
      private int at;

      @Override
      public boolean next() {
        while (true) {
          if (delegate.next()) {
            return true;
          }
          if (at + 1 >= parts.size()) {
            return false;
          }
          delegate.close();
          delegate = parts.get(++at);
        }
      }

      @Override
      public boolean peekBlock(BlockRun run) {
        return delegate.peekBlock(run); // a block of the current part, which comes next
      }

      @Override
      public void skipBlock() {
        delegate.skipBlock();
      }

      @Override
      public void close() {
        for (int i = at; i < parts.size(); i++) {
          parts.get(i).close();
        }
      }
    };
  }
}
