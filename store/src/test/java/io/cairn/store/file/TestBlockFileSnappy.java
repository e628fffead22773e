package io.cairn.store.file;

class TestBlockFileSnappy extends BaseBlockFileTest {
  @Override
  DataBlockEncoding encoding() {
    return DataBlockEncoding.PREFIX;
  }

  @Override
  Compression compression() {
    return Compression.SNAPPY;
  }
}
