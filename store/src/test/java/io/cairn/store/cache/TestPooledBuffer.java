package io.cairn.store.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TestPooledBuffer {
  private final AtomicInteger recycled = new AtomicInteger();

  private PooledBuffer newBuffer(PooledBuffer.Recycler recycler) {
    return new PooledBuffer(ByteBuffer.allocate(16), 10, 3, recycler, "test");
  }

  @Test
  void countsReferences() {
    PooledBuffer buffer = newBuffer(b -> recycled.incrementAndGet());
    assertThat(buffer.refCount()).isEqualTo(1);
    assertThat(buffer.retain()).isSameAs(buffer);
    assertThat(buffer.retain().refCount()).isEqualTo(3);

    assertThat(buffer.release()).isFalse();
    assertThat(buffer.release()).isFalse();
    assertThat(recycled).hasValue(0);
    assertThat(buffer.release()).isTrue();
    assertThat(recycled).hasValue(1);
    assertThat(buffer.refCount()).isZero();
  }

  @Test
  void releaseBelowZeroThrowsNamingTheBuffer() {
    PooledBuffer buffer = newBuffer(b -> recycled.incrementAndGet());
    buffer.close();
    assertThatThrownBy(buffer::release)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already released")
        .hasMessageContaining(buffer.toString())
        .hasMessageContaining("slot 3");
    assertThat(recycled).hasValue(1);
  }

  @Test
  void retainOfReleasedBufferThrows() {
    PooledBuffer buffer = newBuffer(b -> {});
    buffer.release();
    assertThatThrownBy(buffer::retain)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("retain of released buffer " + buffer);
  }

  @Test
  void useAfterReleaseFailsFast() {
    PooledBuffer buffer = newBuffer(b -> {});
    buffer.buffer().put(0, (byte) 1);
    buffer.release();
    assertThatThrownBy(buffer::buffer)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("use of released buffer");
  }

  @Test
  void failedRecycleRestoresTheReference() {
    AtomicInteger attempts = new AtomicInteger();
    PooledBuffer buffer =
        newBuffer(
            b -> {
              if (attempts.incrementAndGet() == 1) {
                throw new IllegalStateException("recycler broken");
              }
            });
    buffer.retain();
    assertThat(buffer.release()).isFalse();
    assertThatThrownBy(buffer::release)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("recycler broken");
    assertThat(buffer.refCount()).isEqualTo(1);
    assertThat(buffer.buffer().capacity()).isEqualTo(10);

    assertThat(buffer.release()).isTrue();
    assertThat(attempts).hasValue(2);
    assertThat(buffer.refCount()).isZero();
  }

  @Test
  void viewIsBoundedToTheRequestedSize() {
    PooledBuffer buffer = newBuffer(b -> {});
    ByteBuffer view = buffer.buffer();
    assertThat(view.position()).isZero();
    assertThat(view.limit()).isEqualTo(10);
    assertThat(view.capacity()).isEqualTo(10);
    view.put(9, (byte) 7);
    assertThat(buffer.buffer().get(9)).isEqualTo((byte) 7);
    buffer.release();
  }

  @Test
  void isABlockBufferWithOneSharedView() {
    PooledBuffer buffer = newBuffer(b -> recycled.incrementAndGet());
    BlockBuffer block = buffer;
    assertThat(block.length()).isEqualTo(10);
    assertThat(block.buffer()).as("created once, not per call").isSameAs(buffer.buffer());
    assertThat(block.retain()).isSameAs(buffer);
    assertThat(block.release()).isFalse();
    block.close();
    assertThat(buffer.refCount()).isZero();
    assertThat(recycled).hasValue(1);
  }
}
