package io.cairn.protocol.tls;

import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Decrypts a PKCS#8 EncryptedPrivateKeyInfo. PBES2 (RFC 8018: PBKDF2 and a CBC cipher) is read here
 * because the JDK reads PBES2 only with AES, while OpenSSL 3's {@code openssl req} encrypts keys
 * with PBES2 and triple DES; other schemes (PBES1, PKCS#12 PBE) go to the JDK.
 */
final class EncryptedKeys {
  private static final String PBES2 = "1.2.840.113549.1.5.13";
  private static final String PBKDF2 = "1.2.840.113549.1.5.12";
  private static final String HMAC_SHA1 = "1.2.840.113549.2.7";

  /** PBKDF2 pseudo-random functions: OID to JCA name. */
  private static final Map<String, String> PRFS =
      Map.of(
          HMAC_SHA1,
          "PBKDF2WithHmacSHA1",
          "1.2.840.113549.2.8",
          "PBKDF2WithHmacSHA224",
          "1.2.840.113549.2.9",
          "PBKDF2WithHmacSHA256",
          "1.2.840.113549.2.10",
          "PBKDF2WithHmacSHA384",
          "1.2.840.113549.2.11",
          "PBKDF2WithHmacSHA512");

  /** PBES2 ciphers: OID to (JCA key algorithm, transformation, key bytes). */
  private record CipherSpec(String keyAlgorithm, String transformation, int keyBytes) {}

  private static final Map<String, CipherSpec> CIPHERS =
      Map.of(
          "1.2.840.113549.3.7", new CipherSpec("DESede", "DESede/CBC/PKCS5Padding", 24),
          "2.16.840.1.101.3.4.1.2", new CipherSpec("AES", "AES/CBC/PKCS5Padding", 16),
          "2.16.840.1.101.3.4.1.22", new CipherSpec("AES", "AES/CBC/PKCS5Padding", 24),
          "2.16.840.1.101.3.4.1.42", new CipherSpec("AES", "AES/CBC/PKCS5Padding", 32));

  private EncryptedKeys() {}

  /**
   * The PKCS#8 PrivateKeyInfo inside {@code der}.
   *
   * @throws IOException when {@code der} is not an EncryptedPrivateKeyInfo
   * @throws NoSuchAlgorithmException when its scheme is not supported, naming it
   * @throws GeneralSecurityException when it cannot be decrypted (a wrong password)
   */
  static byte[] decrypt(byte[] der, char[] password) throws IOException, GeneralSecurityException {
    Der info = new Der(der).sequence();
    Der algorithm = info.sequence();
    String scheme = algorithm.oid();
    if (!scheme.equals(PBES2)) {
      return jdkDecrypt(der, password);
    }
    Der params = algorithm.sequence();
    Der kdf = params.sequence();
    String kdfOid = kdf.oid();
    if (!kdfOid.equals(PBKDF2)) {
      throw new NoSuchAlgorithmException(
          "PBES2 with the key derivation function [" + kdfOid + "] (only PBKDF2 is supported)");
    }
    Der kdfParams = kdf.sequence();
    byte[] salt = kdfParams.octets();
    int iterations = kdfParams.integer();
    int keyLength = -1;
    if (kdfParams.hasMore() && kdfParams.peekTag() == Der.INTEGER) {
      keyLength = kdfParams.integer();
    }
    String prfOid = HMAC_SHA1; // the default of RFC 8018
    if (kdfParams.hasMore()) {
      prfOid = kdfParams.sequence().oid();
    }
    String prf = PRFS.get(prfOid);
    if (prf == null) {
      throw new NoSuchAlgorithmException("PBKDF2 with the function [" + prfOid + "]");
    }
    Der encryption = params.sequence();
    String cipherOid = encryption.oid();
    CipherSpec spec = CIPHERS.get(cipherOid);
    if (spec == null) {
      throw new NoSuchAlgorithmException(
          "PBES2 with the cipher [" + cipherOid + "] (supported: AES-CBC, DES-EDE3-CBC)");
    }
    byte[] iv = encryption.octets();
    byte[] encrypted = info.octets();
    PBEKeySpec pbe =
        new PBEKeySpec(
            password, salt, iterations, 8 * (keyLength > 0 ? keyLength : spec.keyBytes()));
    byte[] key = SecretKeyFactory.getInstance(prf).generateSecret(pbe).getEncoded();
    pbe.clearPassword();
    try {
      Cipher cipher = Cipher.getInstance(spec.transformation());
      cipher.init(
          Cipher.DECRYPT_MODE,
          new SecretKeySpec(key, spec.keyAlgorithm()),
          new IvParameterSpec(iv));
      return cipher.doFinal(encrypted); // a wrong password almost always breaks the padding
    } finally {
      Arrays.fill(key, (byte) 0);
    }
  }

  /** A PBES1 or PKCS#12 scheme, which the JDK names and decrypts itself. */
  private static byte[] jdkDecrypt(byte[] der, char[] password)
      throws IOException, GeneralSecurityException {
    EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(der);
    String algorithm = info.getAlgName();
    Cipher cipher = Cipher.getInstance(algorithm);
    PBEKeySpec spec = new PBEKeySpec(password);
    try {
      cipher.init(
          Cipher.DECRYPT_MODE,
          SecretKeyFactory.getInstance(algorithm).generateSecret(spec),
          info.getAlgParameters());
    } catch (InvalidKeyException e) {
      throw new NoSuchAlgorithmException("[" + algorithm + "]", e);
    } finally {
      spec.clearPassword();
    }
    return info.getKeySpec(cipher).getEncoded();
  }

  /** A reader of the DER elements inside one constructed element (or a whole encoding). */
  private static final class Der {
    static final int INTEGER = 0x02;
    static final int OCTET_STRING = 0x04;
    static final int OID = 0x06;
    static final int SEQUENCE = 0x30;

    private final byte[] data;
    private int pos;
    private final int end;

    Der(byte[] data) {
      this(data, 0, data.length);
    }

    private Der(byte[] data, int start, int end) {
      this.data = data;
      this.pos = start;
      this.end = end;
    }

    boolean hasMore() {
      return pos < end;
    }

    int peekTag() throws IOException {
      if (pos >= end) {
        throw new IOException("DER: expected an element, found the end");
      }
      return data[pos] & 0xFF;
    }

    Der sequence() throws IOException {
      int[] range = element(SEQUENCE);
      return new Der(data, range[0], range[1]);
    }

    byte[] octets() throws IOException {
      int[] range = element(OCTET_STRING);
      return Arrays.copyOfRange(data, range[0], range[1]);
    }

    int integer() throws IOException {
      int[] range = element(INTEGER);
      BigInteger value = new BigInteger(Arrays.copyOfRange(data, range[0], range[1]));
      if (value.signum() < 0 || value.bitLength() > 31) {
        throw new IOException("DER: expected a small positive integer, found [" + value + "]");
      }
      return value.intValue();
    }

    String oid() throws IOException {
      int[] range = element(OID);
      StringBuilder sb = new StringBuilder();
      long value = 0;
      boolean first = true;
      for (int i = range[0]; i < range[1]; i++) {
        value = (value << 7) | (data[i] & 0x7F);
        if ((data[i] & 0x80) == 0) {
          if (first) {
            int top = (int) Math.min(value / 40, 2);
            sb.append(top).append('.').append(value - 40L * top);
            first = false;
          } else {
            sb.append('.').append(value);
          }
          value = 0;
        }
      }
      return sb.toString();
    }

    /** Reads an element of {@code tag}; returns the range of its contents. */
    private int[] element(int tag) throws IOException {
      int found = peekTag();
      if (found != tag) {
        throw new IOException(
            "DER: expected tag [0x"
                + Integer.toHexString(tag)
                + "], found [0x"
                + Integer.toHexString(found)
                + "] at offset "
                + pos);
      }
      pos++;
      if (pos >= end) {
        throw new IOException("DER: truncated length at offset " + pos);
      }
      int length = data[pos++] & 0xFF;
      if (length >= 0x80) {
        int bytes = length & 0x7F;
        if (bytes == 0 || bytes > 3 || pos + bytes > end) {
          throw new IOException("DER: unsupported length at offset " + (pos - 1));
        }
        length = 0;
        for (int i = 0; i < bytes; i++) {
          length = (length << 8) | (data[pos++] & 0xFF);
        }
      }
      if (length > end - pos) {
        throw new IOException(
            "DER: element of " + length + " bytes at offset " + pos + " runs past the end");
      }
      int[] range = {pos, pos + length};
      pos += length;
      return range;
    }
  }
}
