package io.cairn.store.file;

class TestBlockFileRowIndex extends BaseBlockFileTest {
  @Override
  DataBlockEncoding encoding() {
    return DataBlockEncoding.ROW_INDEX;
  }
}
