package io.cairn.protocol.wire;

/** The TCP port of a Cairn server: what a server listens on and a URL means when it names none. */
public final class ServerPort {
  /** The port of {@code bin/cairn server} and of {@code jdbc:cairn://host/} without a port. */
  public static final int DEFAULT = 7575;

  private ServerPort() {}
}
