package io.cairn.server.file;

class TestBlockFilePrefix extends BaseBlockFileTest {
  @Override
  DataBlockEncoding encoding() {
    return DataBlockEncoding.PREFIX;
  }
}
