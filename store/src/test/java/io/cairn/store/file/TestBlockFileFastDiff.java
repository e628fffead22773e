package io.cairn.store.file;

class TestBlockFileFastDiff extends BaseBlockFileTest {
  @Override
  DataBlockEncoding encoding() {
    return DataBlockEncoding.FAST_DIFF;
  }
}
