#include "lib/crypto/secret_string.h"

#include <openssl/crypto.h>

namespace placard::crypto {

void wipe(std::string& s) noexcept {
  // data() points at capacity() + 1 bytes (the terminator), in the heap or in the object itself.
  if (s.capacity() > 0) OPENSSL_cleanse(s.data(), s.capacity());
  s.clear();
}

void wipe(char* data, std::size_t size) noexcept {
  if (size > 0) OPENSSL_cleanse(data, size);
}

SecretString& SecretString::operator=(const SecretString& other) {
  if (this != &other) assign(other.s_);
  return *this;
}

SecretString& SecretString::operator=(SecretString&& other) noexcept {
  if (this != &other) {
    wipe(s_);
    s_.swap(other.s_);
    other.clear();
  }
  return *this;
}

SecretString SecretString::adopt(std::string&& text) noexcept {
  SecretString out;
  out.s_.swap(text);
  wipe(text);
  return out;
}

void SecretString::assign(std::string_view text) {
  // Never let the old buffer be freed unwiped by a reallocation: wipe it first, then fill.
  wipe(s_);
  s_.assign(text);
}

}  // namespace placard::crypto
