package io.cairn.protocol.testing;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.PBEParameterSpec;

/**
 * Self-signed certificates for TLS tests, made without BouncyCastle: the JDK's {@code keytool}
 * generates a key pair and a certificate for {@code localhost} (subject alternative names
 * DNS:localhost and IP:127.0.0.1) in a PKCS#12 keystore, which is then written out as PEM: {@code
 * cert.pem} (the certificate) and {@code key.pem} (the PKCS#8 private key), as a server's
 * configuration names them.
 */
public final class TestCertificates {
  /** A certificate and its private key as PEM files. */
  public record CertificateFiles(Path certificate, Path privateKey) {
    public CertificateFiles {
      requireNonNull(certificate, "certificate is null");
      requireNonNull(privateKey, "privateKey is null");
    }
  }

  private static final String ALIAS = "cairn";
  private static final String STORE_PASSWORD = "cairn-test";

  private TestCertificates() {}

  /** An EC (P-256) certificate for localhost in {@code dir}/cert.pem and {@code dir}/key.pem. */
  public static CertificateFiles selfSigned(Path dir) {
    return selfSigned(dir, "EC");
  }

  /**
   * A certificate for localhost with a key of {@code keyAlgorithm} ({@code EC}: P-256, {@code RSA}:
   * 2048 bits) in {@code dir}/cert.pem and {@code dir}/key.pem, which must not exist yet.
   */
  public static CertificateFiles selfSigned(Path dir, String keyAlgorithm) {
    try {
      Files.createDirectories(dir);
      Path keystore = dir.resolve("keystore.p12");
      List<String> command = new ArrayList<>();
      command.addAll(
          List.of(keytool().toString(), "-genkeypair", "-alias", ALIAS, "-keyalg", keyAlgorithm));
      if (keyAlgorithm.equals("EC")) {
        command.addAll(List.of("-groupname", "secp256r1"));
      } else {
        command.addAll(List.of("-keysize", "2048"));
      }
      command.addAll(
          List.of(
              "-dname",
              "CN=localhost, O=Cairn tests",
              "-ext",
              "SAN=dns:localhost,ip:127.0.0.1",
              "-validity",
              "30",
              "-storetype",
              "PKCS12",
              "-keystore",
              keystore.toString(),
              "-storepass",
              STORE_PASSWORD,
              "-keypass",
              STORE_PASSWORD,
              "-noprompt"));
      run(command);
      KeyStore ks = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(keystore)) {
        ks.load(in, STORE_PASSWORD.toCharArray());
      }
      Certificate certificate = ks.getCertificate(ALIAS);
      PrivateKey key = (PrivateKey) ks.getKey(ALIAS, STORE_PASSWORD.toCharArray());
      Files.delete(keystore);
      Path certFile = dir.resolve("cert.pem");
      Path keyFile = dir.resolve("key.pem");
      writePem(certFile, "CERTIFICATE", certificate.getEncoded());
      writePem(keyFile, "PRIVATE KEY", key.getEncoded()); // PKCS#8
      return new CertificateFiles(certFile, keyFile);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Cannot read the keystore keytool wrote in " + dir, e);
    }
  }

  /**
   * Writes the key of {@code files} encrypted with {@code password} to {@code target}, as {@code
   * openssl pkcs8 -topk8 -v2 aes-256-cbc} does: an EncryptedPrivateKeyInfo with PBES2 (PBKDF2 with
   * HMAC-SHA256, AES-256-CBC), PEM type ENCRYPTED PRIVATE KEY.
   */
  public static Path writeEncryptedKey(CertificateFiles files, String password, Path target) {
    try {
      byte[] pkcs8 = readPem(files.privateKey());
      String algorithm = "PBEWithHmacSHA256AndAES_256";
      SecureRandom random = new SecureRandom();
      byte[] salt = new byte[16];
      byte[] iv = new byte[16];
      random.nextBytes(salt);
      random.nextBytes(iv);
      Cipher cipher = Cipher.getInstance(algorithm);
      cipher.init(
          Cipher.ENCRYPT_MODE,
          SecretKeyFactory.getInstance(algorithm)
              .generateSecret(new PBEKeySpec(password.toCharArray())),
          new PBEParameterSpec(salt, 10_000, new IvParameterSpec(iv)));
      byte[] encrypted = cipher.doFinal(pkcs8);
      // EncryptedPrivateKeyInfo's constructor cannot encode PBES2 parameters on JDK 17: write the
      // DER by hand. SEQUENCE { SEQUENCE { OID pbes2, PBES2-params }, OCTET STRING }
      byte[] pbes2 = {
        0x06, 0x09, 0x2A, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xF7, 0x0D, 1, 5, 13
      };
      byte[] algorithmId = der(0x30, concat(pbes2, cipher.getParameters().getEncoded()));
      byte[] info = der(0x30, concat(algorithmId, der(0x04, encrypted)));
      writePem(target, "ENCRYPTED PRIVATE KEY", info);
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Cannot encrypt " + files.privateKey(), e);
    }
  }

  /** The JDK's keytool: next to the running java executable, else in java.home/bin. */
  private static Path keytool() {
    String exe = System.getProperty("os.name").startsWith("Windows") ? "keytool.exe" : "keytool";
    Path next =
        ProcessHandle.current()
            .info()
            .command()
            .map(java -> Path.of(java).resolveSibling(exe))
            .filter(Files::isExecutable)
            .orElse(null);
    return next != null ? next : Path.of(System.getProperty("java.home"), "bin", exe);
  }

  private static void run(List<String> command) throws IOException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    try (InputStream in = process.getInputStream()) {
      in.transferTo(output);
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException("keytool did not finish within 60 s: " + command);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while running " + command, e);
    }
    if (process.exitValue() != 0) {
      throw new IOException(
          "keytool failed with exit code "
              + process.exitValue()
              + ": "
              + command
              + "\n"
              + output.toString(UTF_8));
    }
  }

  private static void writePem(Path file, String type, byte[] der) throws IOException {
    String body = Base64.getMimeEncoder(64, "\n".getBytes(US_ASCII)).encodeToString(der);
    Files.writeString(
        file, "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n", US_ASCII);
  }

  private static byte[] readPem(Path file) throws IOException {
    String text = Files.readString(file, US_ASCII);
    int start = text.indexOf("-----\n") + 6;
    int end = text.indexOf("-----END");
    return Base64.getMimeDecoder().decode(text.substring(start, end));
  }

  /** A DER tag-length-value. */
  private static byte[] der(int tag, byte[] value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    int n = value.length;
    if (n < 0x80) {
      out.write(n);
    } else {
      int bytes = n > 0xFFFF ? 3 : n > 0xFF ? 2 : 1;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write(n >>> (8 * i));
      }
    }
    out.write(value, 0, value.length);
    return out.toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] joined = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, joined, a.length, b.length);
    return joined;
  }
}
