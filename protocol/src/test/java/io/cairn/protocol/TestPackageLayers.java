package io.cairn.protocol;

import io.cairn.core.testing.PackageLayers;
import org.junit.jupiter.api.Test;

/**
 * protocol's packages form layers, bottom-up: the messages protoc generates from rpc.proto (the
 * root package, nothing hand-written in it), the TLS contexts of both ends ({@code tls}), and the
 * codec between the messages and core's records ({@code wire}). No cycle between them. Checked on
 * the compiled classes by {@link PackageLayers}; a new package without a place here fails.
 */
class TestPackageLayers {
  private static final PackageLayers LAYERS =
      new PackageLayers()
          .layer("io.cairn.protocol")
          .layer("io.cairn.protocol.tls")
          .layer("io.cairn.protocol.wire", "io.cairn.protocol");

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
