package io.cairn.store.testing;

import io.cairn.store.cache.LeakDetector;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test after which a pooled buffer or a cached block was found leaked: released by nobody
 * when its pool or cache closed, or garbage collected unreleased. Registered for every JUnit
 * Jupiter test of the modules that depend on the server's test jar (META-INF/services, with
 * extension autodetection switched on in the root pom), which also runs the suite with {@code
 * -Dcairn.leakDetection=paranoid} so that each report carries the stack that took the buffer.
 */
public final class LeakCheckExtension implements AfterEachCallback {
  @Override
  public void afterEach(ExtensionContext context) {
    LeakDetector.assertNoLeaks();
  }
}
