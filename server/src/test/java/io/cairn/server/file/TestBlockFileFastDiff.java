package io.cairn.server.file;

class TestBlockFileFastDiff extends BaseBlockFileTest {
  @Override
  DataBlockEncoding encoding() {
    return DataBlockEncoding.FAST_DIFF;
  }
}
