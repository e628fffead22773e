package io.cairn.server.file;

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
