package io.cairn.server.file;

class TestBlockFileNone extends BaseBlockFileTest {
  @Override
  DataBlockEncoding encoding() {
    return DataBlockEncoding.NONE;
  }
}
