package io.cairn.jdbc.internal.engine;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The progress listener of statements that set none: the one a command-line entry point installed
 * for its JVM (the shell prints to the terminal), else the SLF4J logger {@value #LOGGER_NAME},
 * INFO, one line per report ({@link BuildProgress#describe()}), when that logger is enabled; else
 * none.
 */
public final class ProgressLog {
  /** The logger that progress goes to by default. */
  public static final String LOGGER_NAME = "io.cairn.progress";

  private static final Logger LOG = LoggerFactory.getLogger(LOGGER_NAME);

  private static final ProgressListener LOGGING = p -> LOG.info("{}", p.describe());

  private static volatile ProgressListener installed;

  private ProgressLog() {}

  /**
   * Makes {@code listener} the default of every statement of this JVM that sets none (null: back to
   * the log). For command-line entry points, which own their JVM; a library never calls it.
   */
  public static void install(ProgressListener listener) {
    installed = listener;
  }

  /** The listener of a statement that sets none; null when progress goes nowhere. */
  public static ProgressListener defaultListener() {
    ProgressListener l = installed;
    if (l != null) {
      return l;
    }
    return LOG.isInfoEnabled() ? LOGGING : null;
  }
}
