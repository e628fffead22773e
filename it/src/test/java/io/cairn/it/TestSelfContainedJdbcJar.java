package io.cairn.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The self-contained JDBC jar that BI tools load: driver/target/cairn-jdbc-VERSION.jar on its own,
 * in a class loader that sees nothing of this build (its parent is the platform loader), as tools
 * such as DBeaver or SQuirreL load a driver jar.
 */
final class TestSelfContainedJdbcJar {
  private static final String DRIVER = "io.cairn.jdbc.CairnDriver";

  private static Path jar() {
    Path jar = Path.of(CairnLauncher.requiredProperty("cairn.it.jdbcJar"));
    assertThat(jar).as("the driver module's shaded jar (mvn package builds it)").isRegularFile();
    return jar;
  }

  @Test
  void jarRegistersOnlyCairnDriverAndLeavesOutShellAndUnrelocatedLibraries() throws Exception {
    try (JarFile jarFile = new JarFile(jar().toFile())) {
      JarEntry services = jarFile.getJarEntry("META-INF/services/java.sql.Driver");
      assertThat(services).as("META-INF/services/java.sql.Driver").isNotNull();
      List<String> providers;
      try (BufferedReader reader =
          new BufferedReader(new InputStreamReader(jarFile.getInputStream(services), UTF_8))) {
        providers =
            reader
                .lines()
                .map(line -> line.replaceFirst("#.*", "").strip())
                .filter(line -> !line.isEmpty())
                .toList();
      }
      assertThat(providers).containsExactly(DRIVER);

      List<String> names = jarFile.stream().map(JarEntry::getName).toList();
      assertThat(names).contains("io/cairn/jdbc/CairnDriver.class");
      assertThat(names)
          .noneMatch(name -> name.startsWith("sqlline/"))
          .noneMatch(name -> name.startsWith("org/jline/"))
          .noneMatch(name -> name.startsWith("com/google/common/"))
          .noneMatch(name -> name.startsWith("com/fasterxml/jackson/"))
          .noneMatch(name -> name.startsWith("org/slf4j/"))
          // the network server (its status page, its users) is not a client's business
          .noneMatch(name -> name.startsWith("io/cairn/server/"))
          .noneMatch(name -> name.matches("META-INF/[^/]+\\.(SF|DSA|RSA|EC)"));
    }
  }

  @Test
  void driverLoadsFromJarAloneAndRunsQuery() throws Exception {
    URL[] urls = {jar().toUri().toURL()};
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    try (URLClassLoader loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
      thread.setContextClassLoader(loader);
      List<Driver> drivers =
          ServiceLoader.load(Driver.class, loader).stream()
              .map(ServiceLoader.Provider::get)
              .toList();
      assertThat(drivers).extracting(driver -> driver.getClass().getName()).containsExactly(DRIVER);
      Driver driver = drivers.get(0);
      assertThat(driver.getClass().getClassLoader()).isSameAs(loader);

      assertThat(driver.acceptsURL("jdbc:cairn:mem:x")).isTrue();
      assertThat(driver.acceptsURL("jdbc:h2:mem:x")).isFalse();

      try (Connection connection = driver.connect("jdbc:cairn:mem:shaded", new Properties());
          Statement statement = connection.createStatement();
          ResultSet resultSet = statement.executeQuery("SELECT 1")) {
        assertThat(resultSet.next()).isTrue();
        assertThat(resultSet.getInt(1)).isEqualTo(1);
        assertThat(resultSet.next()).isFalse();
      }
    } finally {
      thread.setContextClassLoader(previous);
    }
  }
}
