package io.cairn.store.file;

class TestBlockFilePrefix extends BaseBlockFileTest {
  @Override
  DataBlockEncoding encoding() {
    return DataBlockEncoding.PREFIX;
  }
}
