package io.cairn.core.testing;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The package layers of one module, checked with ArchUnit on the module's compiled main classes
 * ({@code target/classes}, the working directory of its tests being the module's directory). Each
 * module's {@code TestPackageLayers} lists its packages bottom-up, every one of them (the root
 * packages included), each with the packages of the module it may use; the three checks are:
 *
 * <ul>
 *   <li>{@link #checkLayersListOnlyLowerPackages}: a package may use only packages listed before
 *       it, so the table itself has no cycle;
 *   <li>{@link #checkNoCycles}: no cycle between the module's packages, whatever the table says
 *       (every dependency ArchUnit sees: imports, signatures, annotations, constants' owners);
 *   <li>{@link #checkLayers}: every class of the module is in a listed package, every listed
 *       package has classes, and a package uses no package of the module outside its list.
 * </ul>
 *
 * <p>Dependencies on other modules and libraries are not looked at here: Maven's module graph keeps
 * those in order.
 */
public final class PackageLayers {
  private final Map<String, Set<String>> layers = new LinkedHashMap<>();
  private JavaClasses classes;

  /** Packages are added bottom-up with {@link #layer}. */
  public PackageLayers() {}

  /** Adds {@code pkg} above the packages already added; it may use the {@code mayUse} ones. */
  public PackageLayers layer(String pkg, String... mayUse) {
    assertThat(layers).as("package listed twice").doesNotContainKey(pkg);
    layers.put(pkg, Set.of(mayUse));
    return this;
  }

  /** Each package uses only packages listed before it. */
  public void checkLayersListOnlyLowerPackages() {
    List<String> seen = new ArrayList<>();
    for (Map.Entry<String, Set<String>> layer : layers.entrySet()) {
      assertThat(seen).as("packages below %s", layer.getKey()).containsAll(layer.getValue());
      seen.add(layer.getKey());
    }
  }

  /** No cycle between the module's packages, the root ones included. */
  public void checkNoCycles() {
    slices()
        .assignedFrom(BY_PACKAGE)
        .should()
        .beFreeOfCycles()
        .because("a module's packages form layers")
        .check(classes());
  }

  /** Each package of the module is listed and uses only the module's packages it lists. */
  public void checkLayers() {
    LayeredArchitecture architecture =
        layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .ensureAllClassesAreContainedInArchitecture();
    for (String pkg : layers.keySet()) {
      // a package identifier without ".." is that package alone, not its sub-packages
      architecture = architecture.layer(pkg).definedBy(pkg);
    }
    for (Map.Entry<String, Set<String>> layer : layers.entrySet()) {
      architecture =
          layer.getValue().isEmpty()
              ? architecture.whereLayer(layer.getKey()).mayNotAccessAnyLayer()
              : architecture
                  .whereLayer(layer.getKey())
                  .mayOnlyAccessLayers(layer.getValue().toArray(String[]::new));
    }
    architecture.check(classes());
  }

  private JavaClasses classes() {
    if (classes == null) {
      Path main = Path.of("target/classes");
      assertThat(Files.isDirectory(main)).as("%s is compiled", main.toAbsolutePath()).isTrue();
      // only the module's own classes matter: other classes stay stubs, not read from the class
      // path
      ArchConfiguration.get().setResolveMissingDependenciesFromClassPath(false);
      classes = new ClassFileImporter().importPath(main);
      assertThat(classes).as("classes of %s", main.toAbsolutePath()).isNotEmpty();
    }
    return classes;
  }

  /** One slice per package: the root package is a slice like any other. */
  private static final SliceAssignment BY_PACKAGE =
      new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
          return SliceIdentifier.of(javaClass.getPackageName());
        }

        @Override
        public String getDescription() {
          return "packages";
        }
      };
}
