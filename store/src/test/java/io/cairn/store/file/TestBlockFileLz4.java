package io.cairn.store.file;

class TestBlockFileLz4 extends BaseBlockFileTest {
  @Override
  DataBlockEncoding encoding() {
    return DataBlockEncoding.FAST_DIFF;
  }

  @Override
  Compression compression() {
    return Compression.LZ4;
  }
}
