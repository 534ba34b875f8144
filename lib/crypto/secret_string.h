#pragma once
#include <string>
#include <string_view>

namespace placard::crypto {

// Overwrites the whole buffer of s (its capacity, not only its size) with OPENSSL_cleanse, then
// empties it: for temporaries that held a secret (a decrypted JSON, an answer with a token).
void wipe(std::string& s) noexcept;
void wipe(char* data, std::size_t size) noexcept;

// A secret held in memory (a decrypted network credential, Admitad's access token): its bytes are
// overwritten when it is destroyed, cleared, reassigned or moved from, so they do not linger in
// freed heap memory that a core dump or a later bug could show. Copies are secrets too.
// What it cannot reach: copies handed to other code (a request header, libcurl's buffers).
class SecretString {
 public:
  SecretString() = default;
  explicit SecretString(std::string_view text) : s_(text) {}
  SecretString(const char* text) : s_(text) {}  // NOLINT(google-explicit-constructor): literals
  SecretString(const SecretString& other) : s_(other.s_) {}
  // Takes the other's buffer; whatever its string object still holds (a short string's bytes) is
  // wiped.
  SecretString(SecretString&& other) noexcept {
    s_.swap(other.s_);
    other.clear();
  }
  SecretString& operator=(const SecretString& other);
  SecretString& operator=(SecretString&& other) noexcept;
  ~SecretString() { wipe(s_); }

  const std::string& str() const { return s_; }
  std::string_view view() const { return s_; }
  bool empty() const { return s_.empty(); }
  std::size_t size() const { return s_.size(); }
  void assign(std::string_view text);
  // Takes over the buffer of a string that holds a secret (a decrypted text), wiping whatever the
  // string object itself still holds.
  static SecretString adopt(std::string&& text) noexcept;
  void clear() noexcept { wipe(s_); }

  friend bool operator==(const SecretString& a, std::string_view b) { return a.view() == b; }

 private:
  std::string s_;
};

}  // namespace placard::crypto
