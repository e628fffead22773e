package io.cairn.jdbc.internal;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;

/**
 * The update half of {@link ResultSet}: Cairn's result sets are CONCUR_READ_ONLY, so every method
 * that would change rows throws {@link SQLFeatureNotSupportedException}.
 */
abstract class ReadOnlyResultSetBase implements ResultSet {
  /** Throws when the result set is closed (closed objects fail before anything else). */
  abstract void checkOpen() throws SQLException;

  final SQLException readOnly(String method) throws SQLException {
    checkOpen();
    return JdbcErrors.notSupported(method + " on a CONCUR_READ_ONLY result set");
  }

  @Override
  public final void cancelRowUpdates() throws SQLException {
    throw readOnly("cancelRowUpdates");
  }

  @Override
  public final void deleteRow() throws SQLException {
    throw readOnly("deleteRow");
  }

  @Override
  public final void insertRow() throws SQLException {
    throw readOnly("insertRow");
  }

  @Override
  public final void moveToCurrentRow() throws SQLException {
    throw readOnly("moveToCurrentRow");
  }

  @Override
  public final void moveToInsertRow() throws SQLException {
    throw readOnly("moveToInsertRow");
  }

  @Override
  public final void refreshRow() throws SQLException {
    throw readOnly("refreshRow");
  }

  @Override
  public final boolean rowDeleted() throws SQLException {
    throw readOnly("rowDeleted");
  }

  @Override
  public final boolean rowInserted() throws SQLException {
    throw readOnly("rowInserted");
  }

  @Override
  public final boolean rowUpdated() throws SQLException {
    throw readOnly("rowUpdated");
  }

  @Override
  public final void updateArray(java.lang.String label0, java.sql.Array array1)
      throws SQLException {
    throw readOnly("updateArray");
  }

  @Override
  public final void updateArray(int index0, java.sql.Array array1) throws SQLException {
    throw readOnly("updateArray");
  }

  @Override
  public final void updateAsciiStream(
      java.lang.String label0, java.io.InputStream inputStream1, int index2) throws SQLException {
    throw readOnly("updateAsciiStream");
  }

  @Override
  public final void updateAsciiStream(
      java.lang.String label0, java.io.InputStream inputStream1, long value2) throws SQLException {
    throw readOnly("updateAsciiStream");
  }

  @Override
  public final void updateAsciiStream(java.lang.String label0, java.io.InputStream inputStream1)
      throws SQLException {
    throw readOnly("updateAsciiStream");
  }

  @Override
  public final void updateAsciiStream(int index0, java.io.InputStream inputStream1, int index22)
      throws SQLException {
    throw readOnly("updateAsciiStream");
  }

  @Override
  public final void updateAsciiStream(int index0, java.io.InputStream inputStream1, long value2)
      throws SQLException {
    throw readOnly("updateAsciiStream");
  }

  @Override
  public final void updateAsciiStream(int index0, java.io.InputStream inputStream1)
      throws SQLException {
    throw readOnly("updateAsciiStream");
  }

  @Override
  public final void updateBigDecimal(java.lang.String label0, java.math.BigDecimal bigDecimal1)
      throws SQLException {
    throw readOnly("updateBigDecimal");
  }

  @Override
  public final void updateBigDecimal(int index0, java.math.BigDecimal bigDecimal1)
      throws SQLException {
    throw readOnly("updateBigDecimal");
  }

  @Override
  public final void updateBinaryStream(
      java.lang.String label0, java.io.InputStream inputStream1, int index2) throws SQLException {
    throw readOnly("updateBinaryStream");
  }

  @Override
  public final void updateBinaryStream(
      java.lang.String label0, java.io.InputStream inputStream1, long value2) throws SQLException {
    throw readOnly("updateBinaryStream");
  }

  @Override
  public final void updateBinaryStream(java.lang.String label0, java.io.InputStream inputStream1)
      throws SQLException {
    throw readOnly("updateBinaryStream");
  }

  @Override
  public final void updateBinaryStream(int index0, java.io.InputStream inputStream1, int index22)
      throws SQLException {
    throw readOnly("updateBinaryStream");
  }

  @Override
  public final void updateBinaryStream(int index0, java.io.InputStream inputStream1, long value2)
      throws SQLException {
    throw readOnly("updateBinaryStream");
  }

  @Override
  public final void updateBinaryStream(int index0, java.io.InputStream inputStream1)
      throws SQLException {
    throw readOnly("updateBinaryStream");
  }

  @Override
  public final void updateBlob(
      java.lang.String label0, java.io.InputStream inputStream1, long value2) throws SQLException {
    throw readOnly("updateBlob");
  }

  @Override
  public final void updateBlob(java.lang.String label0, java.io.InputStream inputStream1)
      throws SQLException {
    throw readOnly("updateBlob");
  }

  @Override
  public final void updateBlob(java.lang.String label0, java.sql.Blob blob1) throws SQLException {
    throw readOnly("updateBlob");
  }

  @Override
  public final void updateBlob(int index0, java.io.InputStream inputStream1, long value2)
      throws SQLException {
    throw readOnly("updateBlob");
  }

  @Override
  public final void updateBlob(int index0, java.io.InputStream inputStream1) throws SQLException {
    throw readOnly("updateBlob");
  }

  @Override
  public final void updateBlob(int index0, java.sql.Blob blob1) throws SQLException {
    throw readOnly("updateBlob");
  }

  @Override
  public final void updateBoolean(java.lang.String label0, boolean value1) throws SQLException {
    throw readOnly("updateBoolean");
  }

  @Override
  public final void updateBoolean(int index0, boolean value1) throws SQLException {
    throw readOnly("updateBoolean");
  }

  @Override
  public final void updateByte(java.lang.String label0, byte value1) throws SQLException {
    throw readOnly("updateByte");
  }

  @Override
  public final void updateByte(int index0, byte value1) throws SQLException {
    throw readOnly("updateByte");
  }

  @Override
  public final void updateBytes(java.lang.String label0, byte[] bytes1) throws SQLException {
    throw readOnly("updateBytes");
  }

  @Override
  public final void updateBytes(int index0, byte[] bytes1) throws SQLException {
    throw readOnly("updateBytes");
  }

  @Override
  public final void updateCharacterStream(
      java.lang.String label0, java.io.Reader reader1, int index2) throws SQLException {
    throw readOnly("updateCharacterStream");
  }

  @Override
  public final void updateCharacterStream(
      java.lang.String label0, java.io.Reader reader1, long value2) throws SQLException {
    throw readOnly("updateCharacterStream");
  }

  @Override
  public final void updateCharacterStream(java.lang.String label0, java.io.Reader reader1)
      throws SQLException {
    throw readOnly("updateCharacterStream");
  }

  @Override
  public final void updateCharacterStream(int index0, java.io.Reader reader1, int index22)
      throws SQLException {
    throw readOnly("updateCharacterStream");
  }

  @Override
  public final void updateCharacterStream(int index0, java.io.Reader reader1, long value2)
      throws SQLException {
    throw readOnly("updateCharacterStream");
  }

  @Override
  public final void updateCharacterStream(int index0, java.io.Reader reader1) throws SQLException {
    throw readOnly("updateCharacterStream");
  }

  @Override
  public final void updateClob(java.lang.String label0, java.io.Reader reader1, long value2)
      throws SQLException {
    throw readOnly("updateClob");
  }

  @Override
  public final void updateClob(java.lang.String label0, java.io.Reader reader1)
      throws SQLException {
    throw readOnly("updateClob");
  }

  @Override
  public final void updateClob(java.lang.String label0, java.sql.Clob clob1) throws SQLException {
    throw readOnly("updateClob");
  }

  @Override
  public final void updateClob(int index0, java.io.Reader reader1, long value2)
      throws SQLException {
    throw readOnly("updateClob");
  }

  @Override
  public final void updateClob(int index0, java.io.Reader reader1) throws SQLException {
    throw readOnly("updateClob");
  }

  @Override
  public final void updateClob(int index0, java.sql.Clob clob1) throws SQLException {
    throw readOnly("updateClob");
  }

  @Override
  public final void updateDate(java.lang.String label0, java.sql.Date date1) throws SQLException {
    throw readOnly("updateDate");
  }

  @Override
  public final void updateDate(int index0, java.sql.Date date1) throws SQLException {
    throw readOnly("updateDate");
  }

  @Override
  public final void updateDouble(java.lang.String label0, double value1) throws SQLException {
    throw readOnly("updateDouble");
  }

  @Override
  public final void updateDouble(int index0, double value1) throws SQLException {
    throw readOnly("updateDouble");
  }

  @Override
  public final void updateFloat(java.lang.String label0, float value1) throws SQLException {
    throw readOnly("updateFloat");
  }

  @Override
  public final void updateFloat(int index0, float value1) throws SQLException {
    throw readOnly("updateFloat");
  }

  @Override
  public final void updateInt(java.lang.String label0, int index1) throws SQLException {
    throw readOnly("updateInt");
  }

  @Override
  public final void updateInt(int index0, int index21) throws SQLException {
    throw readOnly("updateInt");
  }

  @Override
  public final void updateLong(java.lang.String label0, long value1) throws SQLException {
    throw readOnly("updateLong");
  }

  @Override
  public final void updateLong(int index0, long value1) throws SQLException {
    throw readOnly("updateLong");
  }

  @Override
  public final void updateNCharacterStream(
      java.lang.String label0, java.io.Reader reader1, long value2) throws SQLException {
    throw readOnly("updateNCharacterStream");
  }

  @Override
  public final void updateNCharacterStream(java.lang.String label0, java.io.Reader reader1)
      throws SQLException {
    throw readOnly("updateNCharacterStream");
  }

  @Override
  public final void updateNCharacterStream(int index0, java.io.Reader reader1, long value2)
      throws SQLException {
    throw readOnly("updateNCharacterStream");
  }

  @Override
  public final void updateNCharacterStream(int index0, java.io.Reader reader1) throws SQLException {
    throw readOnly("updateNCharacterStream");
  }

  @Override
  public final void updateNClob(java.lang.String label0, java.io.Reader reader1, long value2)
      throws SQLException {
    throw readOnly("updateNClob");
  }

  @Override
  public final void updateNClob(java.lang.String label0, java.io.Reader reader1)
      throws SQLException {
    throw readOnly("updateNClob");
  }

  @Override
  public final void updateNClob(java.lang.String label0, java.sql.NClob nClob1)
      throws SQLException {
    throw readOnly("updateNClob");
  }

  @Override
  public final void updateNClob(int index0, java.io.Reader reader1, long value2)
      throws SQLException {
    throw readOnly("updateNClob");
  }

  @Override
  public final void updateNClob(int index0, java.io.Reader reader1) throws SQLException {
    throw readOnly("updateNClob");
  }

  @Override
  public final void updateNClob(int index0, java.sql.NClob nClob1) throws SQLException {
    throw readOnly("updateNClob");
  }

  @Override
  public final void updateNString(java.lang.String label0, java.lang.String label21)
      throws SQLException {
    throw readOnly("updateNString");
  }

  @Override
  public final void updateNString(int index0, java.lang.String label1) throws SQLException {
    throw readOnly("updateNString");
  }

  @Override
  public final void updateNull(java.lang.String label0) throws SQLException {
    throw readOnly("updateNull");
  }

  @Override
  public final void updateNull(int index0) throws SQLException {
    throw readOnly("updateNull");
  }

  @Override
  public final void updateObject(java.lang.String label0, java.lang.Object value1, int index2)
      throws SQLException {
    throw readOnly("updateObject");
  }

  @Override
  public final void updateObject(java.lang.String label0, java.lang.Object value1)
      throws SQLException {
    throw readOnly("updateObject");
  }

  @Override
  public final void updateObject(int index0, java.lang.Object value1, int index22)
      throws SQLException {
    throw readOnly("updateObject");
  }

  @Override
  public final void updateObject(int index0, java.lang.Object value1) throws SQLException {
    throw readOnly("updateObject");
  }

  @Override
  public final void updateRef(java.lang.String label0, java.sql.Ref ref1) throws SQLException {
    throw readOnly("updateRef");
  }

  @Override
  public final void updateRef(int index0, java.sql.Ref ref1) throws SQLException {
    throw readOnly("updateRef");
  }

  @Override
  public final void updateRow() throws SQLException {
    throw readOnly("updateRow");
  }

  @Override
  public final void updateRowId(java.lang.String label0, java.sql.RowId rowId1)
      throws SQLException {
    throw readOnly("updateRowId");
  }

  @Override
  public final void updateRowId(int index0, java.sql.RowId rowId1) throws SQLException {
    throw readOnly("updateRowId");
  }

  @Override
  public final void updateSQLXML(java.lang.String label0, java.sql.SQLXML sQLXML1)
      throws SQLException {
    throw readOnly("updateSQLXML");
  }

  @Override
  public final void updateSQLXML(int index0, java.sql.SQLXML sQLXML1) throws SQLException {
    throw readOnly("updateSQLXML");
  }

  @Override
  public final void updateShort(java.lang.String label0, short value1) throws SQLException {
    throw readOnly("updateShort");
  }

  @Override
  public final void updateShort(int index0, short value1) throws SQLException {
    throw readOnly("updateShort");
  }

  @Override
  public final void updateString(java.lang.String label0, java.lang.String label21)
      throws SQLException {
    throw readOnly("updateString");
  }

  @Override
  public final void updateString(int index0, java.lang.String label1) throws SQLException {
    throw readOnly("updateString");
  }

  @Override
  public final void updateTime(java.lang.String label0, java.sql.Time time1) throws SQLException {
    throw readOnly("updateTime");
  }

  @Override
  public final void updateTime(int index0, java.sql.Time time1) throws SQLException {
    throw readOnly("updateTime");
  }

  @Override
  public final void updateTimestamp(java.lang.String label0, java.sql.Timestamp timestamp1)
      throws SQLException {
    throw readOnly("updateTimestamp");
  }

  @Override
  public final void updateTimestamp(int index0, java.sql.Timestamp timestamp1) throws SQLException {
    throw readOnly("updateTimestamp");
  }
}
