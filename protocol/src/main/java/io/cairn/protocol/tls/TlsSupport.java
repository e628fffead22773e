package io.cairn.protocol.tls;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Netty TLS contexts of the network server and its clients, from PEM files: the JDK's TLS
 * implementation ({@link SslProvider#JDK}, so no native library), TLSv1.3 and TLSv1.2 only.
 *
 * <p>The files are read and checked here rather than by Netty, so that each problem is a {@link
 * CairnException} naming the file and what is wrong with it: INVALID_ARGUMENT for a missing file, a
 * file that holds no certificate or key, a key in a format other than PKCS#8, an encrypted key
 * without its password or with a wrong one, a key that does not belong to the certificate; IO_ERROR
 * for a file that exists but cannot be read.
 *
 * <p>Clients must check the server's name: {@link #clientHandler} enables endpoint identification
 * (the certificate must name the host the client connected to, as HTTPS does).
 */
public final class TlsSupport {
  private static final Logger LOG = LoggerFactory.getLogger(TlsSupport.class);

  /** The protocol versions offered and accepted, newest first. */
  public static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

  private static final Pattern PEM =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \\1-----", Pattern.DOTALL);

  /** The key algorithms tried on a PKCS#8 key, in order (the key's encoding names its own). */
  private static final List<String> KEY_ALGORITHMS =
      List.of("RSA", "EC", "EdDSA", "RSASSA-PSS", "DSA");

  private TlsSupport() {}

  /**
   * A server context: the certificate chain (the server's certificate first, then any
   * intermediates) and its private key, in PKCS#8 PEM ({@code BEGIN PRIVATE KEY}, or {@code BEGIN
   * ENCRYPTED PRIVATE KEY} with {@code keyPasswordOrNull}).
   *
   * @throws CairnException INVALID_ARGUMENT or IO_ERROR naming the file and the problem
   */
  public static SslContext server(
      Path certificateChainPem, Path privateKeyPem, String keyPasswordOrNull) {
    requireNonNull(certificateChainPem, "certificateChainPem is null");
    requireNonNull(privateKeyPem, "privateKeyPem is null");
    List<X509Certificate> chain = certificates(certificateChainPem, "certificate");
    PrivateKey key = privateKey(privateKeyPem, keyPasswordOrNull);
    checkKeyMatches(key, privateKeyPem, chain.get(0), certificateChainPem);
    warnIfNotValidNow(chain.get(0), certificateChainPem);
    try {
      return SslContextBuilder.forServer(key, chain.toArray(new X509Certificate[0]))
          .sslProvider(SslProvider.JDK)
          .protocols(PROTOCOLS)
          .build();
    } catch (SSLException | RuntimeException e) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT,
          "Cannot make a TLS server context from certificate ["
              + certificateChainPem
              + "] and key ["
              + privateKeyPem
              + "]: "
              + e.getMessage(),
          e);
    }
  }

  /**
   * A client context that trusts exactly the certificates in {@code trustedCertificatePemOrNull}
   * (the server's own certificate, or the authority that signed it), or the JVM's default trust
   * store when null.
   *
   * @throws CairnException INVALID_ARGUMENT or IO_ERROR naming the file and the problem
   */
  public static SslContext client(Path trustedCertificatePemOrNull) {
    SslContextBuilder builder =
        SslContextBuilder.forClient().sslProvider(SslProvider.JDK).protocols(PROTOCOLS);
    if (trustedCertificatePemOrNull != null) {
      builder.trustManager(
          certificates(trustedCertificatePemOrNull, "trusted certificate")
              .toArray(new X509Certificate[0]));
    }
    try {
      return builder.build();
    } catch (SSLException | RuntimeException e) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT,
          "Cannot make a TLS client context"
              + (trustedCertificatePemOrNull == null
                  ? " with the JVM's default trust store"
                  : " trusting [" + trustedCertificatePemOrNull + "]")
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /**
   * A handler for a client's channel to {@code host:port} that checks the server's certificate
   * names {@code host} (a DNS name or an IP address, matched against the certificate's subject
   * alternative names). With a null host nothing is checked beyond the chain of trust: only for
   * tests.
   */
  public static SslHandler clientHandler(
      SslContext ctx, ByteBufAllocator alloc, String host, int port) {
    requireNonNull(ctx, "ctx is null");
    requireNonNull(alloc, "alloc is null");
    if (!ctx.isClient()) {
      throw new IllegalArgumentException("Expected a client TLS context, found a server one");
    }
    if (host == null) {
      return ctx.newHandler(alloc);
    }
    SslHandler handler = ctx.newHandler(alloc, host, port);
    SSLEngine engine = handler.engine();
    SSLParameters params = engine.getSSLParameters();
    params.setEndpointIdentificationAlgorithm("HTTPS");
    engine.setSSLParameters(params);
    return handler;
  }

  // ---- reading the files ----

  private static List<X509Certificate> certificates(Path file, String what) {
    String text = readAscii(file, what);
    List<X509Certificate> certificates = new ArrayList<>();
    Matcher m = PEM.matcher(text);
    CertificateFactory factory;
    try {
      factory = CertificateFactory.getInstance("X.509");
    } catch (CertificateException e) {
      throw new IllegalStateException("X.509 is not available", e); // required of every JDK
    }
    while (m.find()) {
      if (!m.group(1).equals("CERTIFICATE")) {
        continue;
      }
      try {
        byte[] der = Base64.getMimeDecoder().decode(m.group(2));
        certificates.add(
            (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(der)));
      } catch (CertificateException | IllegalArgumentException e) {
        throw invalid(
            file,
            what,
            "certificate " + (certificates.size() + 1) + " cannot be read (" + e.getMessage() + ")",
            e);
      }
    }
    if (certificates.isEmpty()) {
      throw invalid(
          file,
          what,
          "expected PEM certificates (-----BEGIN CERTIFICATE-----), found "
              + (text.contains("PRIVATE KEY-----") ? "a private key" : "none"),
          null);
    }
    return certificates;
  }

  private static PrivateKey privateKey(Path file, String password) {
    String text = readAscii(file, "key");
    warnIfReadableByOthers(file);
    Matcher m = PEM.matcher(text);
    while (m.find()) {
      String type = m.group(1);
      if (type.equals("PRIVATE KEY")) {
        if (password != null) {
          LOG.warn("TLS key {} is not encrypted: its password is not used", file);
        }
        byte[] pkcs8 = decodeBase64(file, m.group(2));
        try {
          return decodeKey(file, pkcs8);
        } finally {
          Arrays.fill(pkcs8, (byte) 0);
        }
      }
      if (type.equals("ENCRYPTED PRIVATE KEY")) {
        if (password == null) {
          throw invalid(
              file, "key", "the key is encrypted: expected its password, found none", null);
        }
        byte[] pkcs8 = decrypt(file, decodeBase64(file, m.group(2)), password);
        try {
          return decodeKey(file, pkcs8);
        } catch (CairnException e) {
          throw wrongPassword(file, e); // decrypted to garbage that had valid padding
        } finally {
          Arrays.fill(pkcs8, (byte) 0);
        }
      }
      if (type.endsWith(" PRIVATE KEY")) {
        throw invalid(
            file,
            "key",
            "expected a PKCS#8 key (-----BEGIN PRIVATE KEY-----), found ["
                + type
                + "]; convert it with: openssl pkcs8 -topk8 -nocrypt -in "
                + file.getFileName()
                + " -out key.pem",
            null);
      }
    }
    throw invalid(
        file,
        "key",
        "expected a PEM private key (-----BEGIN PRIVATE KEY----- or -----BEGIN ENCRYPTED PRIVATE"
            + " KEY-----), found "
            + (text.contains("-----BEGIN CERTIFICATE-----") ? "a certificate" : "none"),
        null);
  }

  private static byte[] decodeBase64(Path file, String body) {
    try {
      return Base64.getMimeDecoder().decode(body);
    } catch (IllegalArgumentException e) {
      throw invalid(file, "key", "the PEM body is not Base64 (" + e.getMessage() + ")", e);
    }
  }

  /** Decrypts an EncryptedPrivateKeyInfo (PBES2 as OpenSSL writes it, or a PBES1 scheme). */
  private static byte[] decrypt(Path file, byte[] der, String password) {
    char[] chars = password.toCharArray();
    try {
      return EncryptedKeys.decrypt(der, chars);
    } catch (IOException e) {
      throw invalid(file, "key", "the encrypted key cannot be read (" + e.getMessage() + ")", e);
    } catch (NoSuchAlgorithmException e) {
      throw invalid(
          file,
          "key",
          "the key is encrypted with "
              + e.getMessage()
              + ", which this JVM cannot decrypt; re-encrypt it with: openssl pkcs8 -topk8 -v2"
              + " aes-256-cbc -in "
              + file.getFileName()
              + " -out key.pem",
          e);
    } catch (GeneralSecurityException e) {
      throw wrongPassword(file, e);
    } finally {
      Arrays.fill(chars, '\0');
    }
  }

  private static CairnException wrongPassword(Path file, Throwable cause) {
    return invalid(
        file, "key", "cannot decrypt the key with the password given (a wrong password?)", cause);
  }

  private static PrivateKey decodeKey(Path file, byte[] pkcs8) {
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(pkcs8);
    for (String algorithm : KEY_ALGORITHMS) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException e) {
        // not this algorithm (or not available): try the next
      }
    }
    throw invalid(
        file,
        "key",
        "expected a PKCS#8 private key of one of " + KEY_ALGORITHMS + ", found none that reads",
        null);
  }

  /** Signs with the key and verifies with the certificate: a key of another certificate fails. */
  private static void checkKeyMatches(
      PrivateKey key, Path keyFile, X509Certificate certificate, Path certificateFile) {
    String algorithm =
        switch (key.getAlgorithm()) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          case "DSA" -> "SHA256withDSA";
          case "EdDSA", "Ed25519", "Ed448" -> key.getAlgorithm();
          default -> null; // RSASSA-PSS needs parameters: the handshake will tell
        };
    if (algorithm == null) {
      return;
    }
    byte[] probe = "cairn key check".getBytes(UTF_8);
    boolean matches;
    try {
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(probe);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(certificate.getPublicKey());
      verifier.update(probe);
      matches = verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      matches = false; // e.g. an EC key with an RSA certificate
    }
    if (!matches) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT,
          "TLS key ["
              + keyFile
              + "] does not belong to the first certificate of ["
              + certificateFile
              + "] ("
              + certificate.getSubjectX500Principal().getName()
              + "): expected the key of that certificate, found another "
              + key.getAlgorithm()
              + " key");
    }
  }

  private static void warnIfNotValidNow(X509Certificate certificate, Path file) {
    try {
      certificate.checkValidity();
    } catch (CertificateException e) {
      LOG.warn(
          "TLS certificate {} is not valid now (from {} to {}): clients will refuse it",
          file,
          certificate.getNotBefore().toInstant(),
          certificate.getNotAfter().toInstant());
    }
  }

  private static void warnIfReadableByOthers(Path file) {
    try {
      Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
      if (permissions.contains(PosixFilePermission.OTHERS_READ)) {
        LOG.warn("TLS key {} is readable by every user of this machine (chmod 600 it)", file);
      }
    } catch (IOException | UnsupportedOperationException e) {
      // not a POSIX file system: nothing to say
    }
  }

  private static String readAscii(Path file, String what) {
    if (!Files.exists(file)) {
      throw invalid(file, what, "the file does not exist", null);
    }
    if (Files.isDirectory(file)) {
      throw invalid(file, what, "expected a PEM file, found a directory", null);
    }
    try {
      return new String(Files.readAllBytes(file), US_ASCII);
    } catch (NoSuchFileException e) {
      throw invalid(file, what, "the file does not exist", e);
    } catch (IOException e) {
      throw new CairnException(
          ErrorCode.IO_ERROR, "Cannot read TLS " + what + " file [" + file + "]: " + e, e);
    }
  }

  private static CairnException invalid(Path file, String what, String problem, Throwable cause) {
    return new CairnException(
        ErrorCode.INVALID_ARGUMENT, "TLS " + what + " file [" + file + "]: " + problem, cause);
  }
}
