package io.cairn.store.file;

class TestBlockFileNone extends BaseBlockFileTest {
  @Override
  DataBlockEncoding encoding() {
    return DataBlockEncoding.NONE;
  }
}
