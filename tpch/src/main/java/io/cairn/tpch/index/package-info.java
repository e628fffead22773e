/**
 * {@code bin/cairn index verify}: compares each local index of a table with the table's rows
 * through JDBC ({@code CHECK INDEX}) and says which differ ({@link
 * io.cairn.tpch.index.IndexVerifyCommand}). A client command on JDBC alone, so it checks an
 * embedded file store and a server alike.
 */
package io.cairn.tpch.index;
