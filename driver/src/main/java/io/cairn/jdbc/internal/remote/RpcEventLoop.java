package io.cairn.jdbc.internal.remote;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The event loops of every remote connection of this JVM: one group, created on first use, of
 * daemon threads (a driver must never keep an application's JVM alive). A few threads serve any
 * number of connections and in-flight requests; no thread waits for an answer.
 */
final class RpcEventLoop {
  private RpcEventLoop() {}

  private static final class Holder {
    static final EventLoopGroup GROUP =
        new NioEventLoopGroup(
            Math.min(4, Math.max(1, Runtime.getRuntime().availableProcessors())),
            new DefaultThreadFactory("cairn-rpc", true));
  }

  static EventLoopGroup group() {
    return Holder.GROUP;
  }
}
