#include "lib/crypto/aes_gcm.h"

#include <openssl/evp.h>

#include <memory>

#include "lib/crypto/base64.h"
#include "lib/crypto/random.h"
#include "lib/util/trim.h"

namespace placard::crypto {

namespace {

struct CipherCtxDeleter {
  void operator()(EVP_CIPHER_CTX* c) const noexcept { EVP_CIPHER_CTX_free(c); }
};
using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, CipherCtxDeleter>;

const unsigned char* bytes(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}
unsigned char* bytes(std::string& s) {
  return reinterpret_cast<unsigned char*>(s.data());
}

CipherCtx new_ctx() {
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  if (!ctx) throw std::runtime_error("OpenSSL cannot allocate a cipher context");
  return ctx;
}

bool valid_kid(std::string_view kid) {
  if (kid.empty() || kid.size() > 16) return false;
  for (const char c : kid) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

void check_key(std::string_view key) {
  if (key.size() != kGcmKeyBytes) throw std::invalid_argument("AES-256-GCM needs a 32-byte key");
}

}  // namespace

std::string gcm_encrypt(std::string_view key, std::string_view iv, std::string_view plaintext,
                        std::string_view associated_data, std::string& tag_out) {
  check_key(key);
  if (iv.size() != kGcmIvBytes) throw std::invalid_argument("AES-256-GCM needs a 12-byte IV");
  auto ctx = new_ctx();
  std::string out(plaintext.size(), '\0');
  int len = 0;
  int total = 0;
  bool ok = EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) == 1 &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, kGcmIvBytes, nullptr) == 1 &&
            EVP_EncryptInit_ex(ctx.get(), nullptr, nullptr, bytes(key), bytes(iv)) == 1;
  if (ok && !associated_data.empty()) {
    ok = EVP_EncryptUpdate(ctx.get(), nullptr, &len, bytes(associated_data),
                           static_cast<int>(associated_data.size())) == 1;
  }
  if (ok && !plaintext.empty()) {
    ok = EVP_EncryptUpdate(ctx.get(), bytes(out), &len, bytes(plaintext),
                           static_cast<int>(plaintext.size())) == 1;
    total = len;
  }
  if (ok) {
    ok = EVP_EncryptFinal_ex(ctx.get(), bytes(out) + total, &len) == 1;
    total += len;
  }
  std::string tag(kGcmTagBytes, '\0');
  if (ok) {
    ok = EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kGcmTagBytes, tag.data()) == 1;
  }
  if (!ok || static_cast<std::size_t>(total) != plaintext.size()) {
    throw std::runtime_error("AES-256-GCM encryption failed");
  }
  tag_out = std::move(tag);
  return out;
}

std::string gcm_decrypt(std::string_view key, std::string_view iv, std::string_view ciphertext,
                        std::string_view tag, std::string_view associated_data) {
  check_key(key);
  if (iv.size() != kGcmIvBytes || tag.size() != kGcmTagBytes) {
    throw DecryptError("the stored secret is malformed");
  }
  auto ctx = new_ctx();
  std::string out(ciphertext.size(), '\0');
  int len = 0;
  int total = 0;
  std::string tag_copy(tag);
  bool ok = EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) == 1 &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, kGcmIvBytes, nullptr) == 1 &&
            EVP_DecryptInit_ex(ctx.get(), nullptr, nullptr, bytes(key), bytes(iv)) == 1;
  if (ok && !associated_data.empty()) {
    ok = EVP_DecryptUpdate(ctx.get(), nullptr, &len, bytes(associated_data),
                           static_cast<int>(associated_data.size())) == 1;
  }
  if (ok && !ciphertext.empty()) {
    ok = EVP_DecryptUpdate(ctx.get(), bytes(out), &len, bytes(ciphertext),
                           static_cast<int>(ciphertext.size())) == 1;
    total = len;
  }
  if (ok) {
    ok = EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kGcmTagBytes, tag_copy.data()) == 1;
  }
  if (ok) {
    ok = EVP_DecryptFinal_ex(ctx.get(), bytes(out) + total, &len) == 1;
    total += len;
  }
  if (!ok || static_cast<std::size_t>(total) != ciphertext.size()) {
    throw DecryptError("the stored secret cannot be decrypted (wrong key or altered)");
  }
  return out;
}

CredentialKeys CredentialKeys::parse(std::string_view spec) {
  CredentialKeys ring;
  std::size_t pos = 0;
  while (pos <= spec.size()) {
    const std::size_t comma = spec.find(',', pos);
    const std::string_view entry =
        util::trim(spec.substr(pos, comma == std::string_view::npos ? spec.npos : comma - pos));
    const std::size_t colon = entry.find(':');
    if (colon == std::string_view::npos) {
      throw std::invalid_argument("credentials.key: expected kid:base64url[,kid:base64url]");
    }
    const std::string_view kid = entry.substr(0, colon);
    if (!valid_kid(kid)) {
      throw std::invalid_argument("credentials.key: a key id must be 1..16 of [A-Za-z0-9_-]");
    }
    if (ring.has(kid)) throw std::invalid_argument("credentials.key: a key id is repeated");
    auto key = base64url_decode(entry.substr(colon + 1));
    if (!key || key->size() != kGcmKeyBytes) {
      throw std::invalid_argument("credentials.key: each key must be 32 bytes in base64url");
    }
    ring.keys_.push_back({std::string(kid), std::move(*key)});
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return ring;
}

bool CredentialKeys::has(std::string_view kid) const {
  for (const auto& k : keys_) {
    if (k.kid == kid) return true;
  }
  return false;
}

Sealed CredentialKeys::seal(std::string_view plaintext, std::string_view associated_data) const {
  const Key& k = keys_.front();
  Sealed s;
  s.key_id = k.kid;
  s.iv = random_bytes(kGcmIvBytes);
  s.ciphertext = gcm_encrypt(k.bytes, s.iv, plaintext, associated_data, s.tag);
  return s;
}

std::string CredentialKeys::open(const Sealed& sealed, std::string_view associated_data) const {
  for (const auto& k : keys_) {
    if (k.kid == sealed.key_id) {
      return gcm_decrypt(k.bytes, sealed.iv, sealed.ciphertext, sealed.tag, associated_data);
    }
  }
  throw DecryptError("the stored secret was encrypted with a key no longer configured");
}

}  // namespace placard::crypto
