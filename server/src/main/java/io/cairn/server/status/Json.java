package io.cairn.server.status;

/**
 * A small JSON writer: objects, arrays, strings (escaped so that the text is safe even inside an
 * HTML script element), numbers, booleans and null. Callers nest calls correctly; nothing checks.
 */
final class Json {
  private final StringBuilder out = new StringBuilder(4096);
  private boolean first = true;

  Json beginObject() {
    separate();
    out.append('{');
    first = true;
    return this;
  }

  Json endObject() {
    out.append('}');
    first = false;
    return this;
  }

  Json beginArray() {
    separate();
    out.append('[');
    first = true;
    return this;
  }

  Json endArray() {
    out.append(']');
    first = false;
    return this;
  }

  /** A member's name; its value follows. */
  Json name(String name) {
    separate();
    string(name);
    out.append(':');
    first = true;
    return this;
  }

  Json value(String s) {
    separate();
    if (s == null) {
      out.append("null");
    } else {
      string(s);
    }
    return this;
  }

  Json value(long n) {
    separate();
    out.append(n);
    return this;
  }

  /** A finite number; NaN and infinities become null (JSON has no such numbers). */
  Json value(double d) {
    separate();
    out.append(Double.isFinite(d) ? Double.toString(d) : "null");
    return this;
  }

  Json value(boolean b) {
    separate();
    out.append(b);
    return this;
  }

  Json field(String name, String s) {
    return name(name).value(s);
  }

  Json field(String name, long n) {
    return name(name).value(n);
  }

  Json field(String name, double d) {
    return name(name).value(d);
  }

  Json field(String name, boolean b) {
    return name(name).value(b);
  }

  private void separate() {
    if (!first) {
      out.append(',');
    }
    first = false;
  }

  private void string(String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
            out.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  @Override
  public String toString() {
    return out.toString();
  }
}
