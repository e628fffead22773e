package io.cairn.server.rpc;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Collections;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Who may do what with the server's databases, and how many it keeps open (docs/server.md,
 * "Databases"; docs/server-security.md, "Administrators").
 *
 * @param createDatabases who may create a database by naming one that does not exist in Hello
 * @param admins the administrators: configured users who may create databases (under {@link
 *     CreateRule#ADMIN}) and see client addresses, user names and keys on the status page
 * @param maxDatabases the most databases open at once, the default one included
 * @param idleTimeout a durable named database no session has held this long is closed (memstores
 *     flushed, its threads gone) and opened again by the next Hello; zero: never
 */
public record DatabasePolicy(
    CreateRule createDatabases, Set<String> admins, int maxDatabases, Duration idleTimeout) {

  /** The values of the {@code create-databases} setting. */
  public enum CreateRule {
    /** Only an administrator ({@code admins}). */
    ADMIN,
    /** Every client that got in (with authentication off: anyone). */
    ANY,
    /** Nobody: only the databases that exist are served. */
    NONE;

    /** The setting's spelling. */
    public String text() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public DatabasePolicy {
    requireNonNull(createDatabases, "createDatabases is null");
    admins = Collections.unmodifiableSet(new TreeSet<>(admins));
    requireNonNull(idleTimeout, "idleTimeout is null");
    if (maxDatabases < 1) {
      throw new IllegalArgumentException("maxDatabases must be >= 1, found " + maxDatabases);
    }
    if (idleTimeout.isNegative()) {
      throw new IllegalArgumentException("idleTimeout must be >= 0, found " + idleTimeout);
    }
  }

  /** True when {@code user} (as authenticated; empty when anonymous) is an administrator. */
  public boolean isAdmin(String user) {
    return user != null && !user.isEmpty() && admins.contains(user);
  }

  /** True when {@code user} may create a database. */
  public boolean mayCreate(String user) {
    return switch (createDatabases) {
      case ANY -> true;
      case ADMIN -> isAdmin(user);
      case NONE -> false;
    };
  }
}
