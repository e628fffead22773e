package io.cairn.hbase;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.cairn.hbase.server.CairnRegionObserver;
import io.cairn.hbase.server.WireNames;
import org.junit.jupiter.api.Test;

/**
 * What a client JVM loads (the store behind jdbc:cairn:hbase: URLs, with HBase's client and not its
 * server) uses nothing of HBase's region server: a reference to CairnRegionObserver's class made
 * every connection fail with NoClassDefFoundError outside the tests, whose class path has
 * hbase-server.
 */
class TestClientClasses {
  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.cairn.hbase");

  /** A class of HBase's server jar, which a client JVM does not have. */
  private static final DescribedPredicate<JavaClass> IN_HBASE_SERVER =
      DescribedPredicate.describe(
          "are in hbase-server's jar",
          c ->
              c.getSource()
                  .map(s -> s.getUri().toString().contains("/hbase-server-"))
                  .orElse(false));

  /**
   * A class of Cairn's that uses a class of HBase's server jar, directly or through others (the
   * region servers' scanners): a client loading one fails as loading HBase's class would.
   */
  private static final DescribedPredicate<JavaClass> USE_HBASE_SERVER =
      DescribedPredicate.describe(
          "use classes of hbase-server's jar",
          c ->
              c.getPackageName().startsWith("io.cairn.hbase")
                  && c.getTransitiveDependenciesFromSelf().stream()
                      .anyMatch(d -> IN_HBASE_SERVER.test(d.getTargetClass())));

  @Test
  void theClientSideUsesNoRegionServerClass() {
    noClasses()
        .that()
        .resideInAPackage("io.cairn.hbase")
        .and()
        .doNotHaveSimpleName("LocalHBase") // bin/cairn hbase start: a region server itself
        .or()
        .haveSimpleName("CellRows")
        .or()
        .haveSimpleName("Pages")
        .or()
        .haveSimpleName("WireNames")
        .should()
        .dependOnClassesThat(IN_HBASE_SERVER)
        .orShould()
        .dependOnClassesThat()
        .haveSimpleName("CairnRegionObserver")
        .orShould()
        .dependOnClassesThat()
        .haveSimpleName("ProgramRegionScanner")
        .orShould()
        .dependOnClassesThat(USE_HBASE_SERVER)
        .check(CLASSES);
  }

  @Test
  void theObserverIsNamedRight() {
    assertThat(WireNames.OBSERVER).isEqualTo(CairnRegionObserver.class.getName());
    assertThat(CairnRegionObserver.SCAN_ATTRIBUTE).isEqualTo(WireNames.SCAN_ATTRIBUTE);
  }
}
