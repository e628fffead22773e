package io.cairn.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test after which Netty found a buffer garbage collected unreleased. Netty's own detector
 * runs at PARANOID (every buffer tracked, as {@code -Dio.netty.leakDetection.level=paranoid} in the
 * pom also asks) and only logs; this extension installs a detector that also records each report,
 * and after each test collects garbage and allocates, so that Netty looks for leaks. Installed
 * before Netty's buffer classes load (their detector is created once).
 */
public final class NettyLeakCheck implements BeforeAllCallback, AfterEachCallback {
  private static final List<String> LEAKS = new ArrayList<>();
  private static volatile boolean installed;

  static {
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingFactory());
  }

  private static final class RecordingFactory extends ResourceLeakDetectorFactory {
    @Override
    @SuppressWarnings("deprecation")
    public <T> ResourceLeakDetector<T> newResourceLeakDetector(
        Class<T> resource, int samplingInterval, long maxActive) {
      installed = true;
      return new ResourceLeakDetector<T>(resource, samplingInterval, maxActive) {
        @Override
        protected void reportTracedLeak(String resourceType, String records) {
          record("LEAK of " + resourceType + ":" + records);
          super.reportTracedLeak(resourceType, records);
        }

        @Override
        protected void reportUntracedLeak(String resourceType) {
          record("LEAK of " + resourceType + " (untraced)");
          super.reportUntracedLeak(resourceType);
        }
      };
    }
  }

  private static void record(String leak) {
    synchronized (LEAKS) {
      LEAKS.add(leak);
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    // make sure the buffers' detector is ours (their class loads now, if it has not yet)
    ByteBuf probe = PooledByteBufAllocator.DEFAULT.directBuffer(16);
    probe.release();
    assertThat(installed).as("Netty's leak detector installed before its buffers loaded").isTrue();
  }

  @Override
  public void afterEach(ExtensionContext context) throws InterruptedException {
    for (int round = 0; round < 3; round++) {
      System.gc();
      Thread.sleep(20);
      for (int i = 0; i < 64; i++) {
        ByteBuf b = PooledByteBufAllocator.DEFAULT.directBuffer(64);
        b.release();
      }
    }
    List<String> leaks;
    synchronized (LEAKS) {
      leaks = new ArrayList<>(LEAKS);
      LEAKS.clear();
    }
    assertThat(leaks).as("Netty buffers leaked").isEmpty();
  }
}
