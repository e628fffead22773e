package io.cairn.server;

import io.cairn.core.testing.PackageLayers;
import org.junit.jupiter.api.Test;

/**
 * server's packages form layers, bottom-up: users and login throttling ({@code security}), the
 * status page ({@code status}), the network server over them ({@code rpc}), and {@code bin/cairn
 * store}'s entry point (the root package), which uses none of them. No cycle between them. Checked
 * on the compiled classes by {@link PackageLayers}; a new package without a place here fails.
 */
class TestPackageLayers {
  private static final PackageLayers LAYERS =
      new PackageLayers()
          .layer("io.cairn.server.security")
          .layer("io.cairn.server.status")
          .layer("io.cairn.server.rpc", "io.cairn.server.security", "io.cairn.server.status")
          .layer("io.cairn.server");

  @Test
  void layersListOnlyLowerPackages() {
    LAYERS.checkLayersListOnlyLowerPackages();
  }

  @Test
  void noCycleBetweenPackages() {
    LAYERS.checkNoCycles();
  }

  @Test
  void everyPackageUsesOnlyTheLayersBelowIt() {
    LAYERS.checkLayers();
  }
}
