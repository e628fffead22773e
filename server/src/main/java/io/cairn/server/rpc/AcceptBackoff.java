package io.cairn.server.rpc;

import static java.util.Objects.requireNonNull;

import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listening channel's handler: when accepting fails (an {@link IOException}, mostly EMFILE "Too
 * many open files" or ENFILE), it stops accepting for a pause that grows from {@value
 * #MIN_PAUSE_MILLIS} to {@value #MAX_PAUSE_MILLIS} ms while the failures go on, instead of a
 * selector spinning on the pending connection; it logs the first failure of a burst and, at the
 * next accepted connection, how many failures the burst had. Event loop of the listening channel
 * only.
 */
final class AcceptBackoff extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(AcceptBackoff.class);

  static final long MIN_PAUSE_MILLIS = 100;
  static final long MAX_PAUSE_MILLIS = 1000;

  private final ServerMetrics metrics;
  private long pauseMillis = MIN_PAUSE_MILLIS;
  private long failures;
  private long burstStartNanos;

  AcceptBackoff(ServerMetrics metrics) {
    this.metrics = requireNonNull(metrics, "metrics is null");
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (failures > 0) {
      LOG.warn(
          "Accepting connections again on {} after {} failed accept(s) in {} ms",
          ctx.channel().localAddress(),
          failures,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - burstStartNanos));
      failures = 0;
      pauseMillis = MIN_PAUSE_MILLIS;
    }
    ctx.fireChannelRead(msg);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (!(cause instanceof IOException)) {
      ctx.fireExceptionCaught(cause);
      return;
    }
    metrics.acceptFailed();
    if (failures++ == 0) {
      burstStartNanos = System.nanoTime();
      LOG.warn(
          "Cannot accept connections on {}: {}; pausing accepts ({} to {} ms at a time) until it"
              + " passes",
          ctx.channel().localAddress(),
          cause.toString(),
          MIN_PAUSE_MILLIS,
          MAX_PAUSE_MILLIS);
    }
    ChannelConfig config = ctx.channel().config();
    if (config.isAutoRead()) {
      config.setAutoRead(false);
      long pause = pauseMillis;
      pauseMillis = Math.min(MAX_PAUSE_MILLIS, pauseMillis * 2);
      Future<?> unused =
          ctx.executor()
              .schedule(
                  () -> {
                    if (ctx.channel().isOpen()) {
                      config.setAutoRead(true);
                    }
                  },
                  pause,
                  TimeUnit.MILLISECONDS);
    }
  }
}
