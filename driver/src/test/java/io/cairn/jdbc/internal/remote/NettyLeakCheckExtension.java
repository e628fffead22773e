package io.cairn.jdbc.internal.remote;

import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test after which Netty found a buffer of this JVM (the client's, or an in-process
 * server's) garbage collected without its release. Netty's detector runs at level PARANOID (every
 * buffer tracked, with where it was touched) and reports to this extension instead of a log: the
 * driver logs nowhere (slf4j-nop), so its own reports would vanish. Netty notices a leak only after
 * a garbage collection, at a later allocation, so a leak fails the test during which it is noticed,
 * with the stack that took the buffer. Registered through META-INF/services (JUnit extension
 * autodetection), so the detector is in place before any Netty buffer class loads.
 */
public final class NettyLeakCheckExtension implements AfterEachCallback {
  private static final List<String> LEAKS = new ArrayList<>();

  static {
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(
        new ResourceLeakDetectorFactory() {
          @Override
          public <T> ResourceLeakDetector<T> newResourceLeakDetector(
              Class<T> resource, int samplingInterval, long maxActive) {
            return new RecordingDetector<>(resource, samplingInterval);
          }
        });
  }

  private static final class RecordingDetector<T> extends ResourceLeakDetector<T> {
    RecordingDetector(Class<T> resource, int samplingInterval) {
      super(resource, samplingInterval);
    }

    @Override
    protected boolean needReport() {
      return true;
    }

    @Override
    protected void reportTracedLeak(String resourceType, String records) {
      record("LEAK: " + resourceType + " released by nobody; recent accesses:" + records);
    }

    @Override
    protected void reportUntracedLeak(String resourceType) {
      record("LEAK: " + resourceType + " released by nobody (no access records)");
    }

    @Override
    protected void reportInstancesLeak(String resourceType) {
      record("LEAK: too many instances of " + resourceType);
    }
  }

  private static void record(String leak) {
    synchronized (LEAKS) {
      LEAKS.add(leak);
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    List<String> found;
    synchronized (LEAKS) {
      found = new ArrayList<>(LEAKS);
      LEAKS.clear();
    }
    if (!found.isEmpty()) {
      throw new AssertionError(
          found.size() + " Netty buffer(s) leaked:\n" + String.join("\n\n", found));
    }
  }
}
