package io.cairn.jdbc.internal.embedded;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvStoreProvider;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The stores the driver does not link to but finds on the class path ({@link KvStoreProvider}):
 * {@code hbase} from the {@code cairn-hbase} artifact. Looked up through the thread's context class
 * loader (an application server's) and the driver's own.
 */
final class ProvidedStores {
  private ProvidedStores() {}

  /**
   * Opens {@code location} with the provider of {@code scheme}.
   *
   * @throws CairnException CONNECTION_FAILED when no provider of the scheme is on the class path
   *     (naming what to add), or what the provider throws
   */
  static KvStore open(String scheme, String location, Map<String, String> settings) {
    Set<ClassLoader> loaders = new LinkedHashSet<>();
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    if (context != null) {
      loaders.add(context);
    }
    loaders.add(ProvidedStores.class.getClassLoader());
    for (ClassLoader loader : loaders) {
      try {
        for (KvStoreProvider provider : ServiceLoader.load(KvStoreProvider.class, loader)) {
          if (provider.scheme().equals(scheme)) {
            return provider.open(location, settings);
          }
        }
      } catch (ServiceConfigurationError | LinkageError e) {
        throw cannotOpen(
            scheme,
            location,
            "the "
                + scheme
                + " store on the class path does not load ("
                + e
                + "): its artifact and its dependencies must be of this driver's version",
            e);
      }
    }
    throw cannotOpen(
        scheme,
        location,
        "Cairn's "
            + scheme
            + " store is not on the class path: add the cairn-"
            + scheme
            + " artifact and its dependencies to the class path (see docs/hbase.md)",
        null);
  }

  private static CairnException cannotOpen(
      String scheme, String location, String why, Throwable cause) {
    return new CairnException(
        ErrorCode.CONNECTION_FAILED,
        "Cannot open [" + scheme + ":" + location + "]: " + why,
        cause);
  }
}
