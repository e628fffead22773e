package io.cairn.store.file;

class TestBlockFileZstd extends BaseBlockFileTest {
  @Override
  DataBlockEncoding encoding() {
    return DataBlockEncoding.ROW_INDEX;
  }

  @Override
  Compression compression() {
    return Compression.ZSTD;
  }
}
