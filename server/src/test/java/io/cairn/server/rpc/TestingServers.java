package io.cairn.server.rpc;

import java.util.HashMap;
import java.util.Map;

/** Servers for tests: on 127.0.0.1, a free port, in memory unless told otherwise. */
final class TestingServers {
  private TestingServers() {}

  /** The configuration of a test server: port 0, in memory, then {@code settings}. */
  static ServerConfig config(Map<String, String> settings) {
    Map<String, String> all = new HashMap<>();
    all.put(ServerConfig.PORT, "0");
    all.put(ServerConfig.HTTP_PORT, "-1");
    all.putAll(settings);
    return ServerConfig.from(all);
  }

  static CairnServer start(Map<String, String> settings) {
    return CairnServer.start(config(settings), Authenticator.NONE, null);
  }

  static CairnServer start() {
    return start(Map.of());
  }
}
