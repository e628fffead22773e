package io.cairn.store.file;

class TestBlockFileGzip extends BaseBlockFileTest {
  @Override
  DataBlockEncoding encoding() {
    return DataBlockEncoding.NONE;
  }

  @Override
  Compression compression() {
    return Compression.GZIP;
  }
}
