#include "lib/tokens/key_ring.h"

#include "lib/util/trim.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <algorithm>
#include <stdexcept>

#include "lib/crypto/base64.h"

namespace placard::tokens {
namespace {

constexpr std::size_t kBlockSize = 64;  // SHA-256 block size, for HMAC
constexpr std::size_t kDigestSize = 32;

struct MdDeleter {
  void operator()(EVP_MD* md) const noexcept { EVP_MD_free(md); }
};
using MdPtr = std::unique_ptr<EVP_MD, MdDeleter>;

// Wipes key-derived bytes when it goes out of scope.
template <typename Buffer>
class Wipe {
 public:
  explicit Wipe(Buffer& buffer) : buffer_(buffer) {}
  Wipe(const Wipe&) = delete;
  Wipe& operator=(const Wipe&) = delete;
  ~Wipe() { OPENSSL_cleanse(buffer_.data(), buffer_.size()); }

 private:
  Buffer& buffer_;
};

[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument("token keys: " + what);
}

}  // namespace

void detail::MdCtxDeleter::operator()(EVP_MD_CTX* ctx) const noexcept {
  EVP_MD_CTX_free(ctx);
}

MacWorkspace::MacWorkspace() : ctx_(EVP_MD_CTX_new()) {
  if (!ctx_) throw std::runtime_error("token keys: cannot allocate a hash context");
}

bool KeyRing::valid_kid(std::string_view kid) noexcept {
  if (kid.empty() || kid.size() > kMaxKidLength) return false;
  return std::all_of(kid.begin(), kid.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
}

KeyRing KeyRing::parse(std::string_view spec, std::string_view active_kid) {
  const MdPtr md(EVP_MD_fetch(nullptr, "SHA2-256", nullptr));
  if (!md) throw std::runtime_error("token keys: SHA-256 is not available");

  // Builds a SHA-256 state that has absorbed K0 xor `pad` (one block).
  const auto keyed_state = [&md](const std::array<unsigned char, kBlockSize>& k0,
                                 unsigned char pad) {
    std::array<unsigned char, kBlockSize> block{};
    const Wipe wipe(block);
    std::transform(k0.begin(), k0.end(), block.begin(),
                   [pad](unsigned char b) { return static_cast<unsigned char>(b ^ pad); });
    MdCtxPtr ctx(EVP_MD_CTX_new());
    if (!ctx || EVP_DigestInit_ex(ctx.get(), md.get(), nullptr) != 1 ||
        EVP_DigestUpdate(ctx.get(), block.data(), block.size()) != 1) {
      throw std::runtime_error("token keys: SHA-256 initialisation failed");
    }
    return ctx;
  };

  KeyRing ring;
  if (util::trim(spec).empty())
    fail("no keys given (expected kid:base64urlkey[,kid:base64urlkey...])");
  std::size_t index = 0;
  std::string_view rest = spec;
  while (true) {
    ++index;
    const auto comma = rest.find(',');
    const std::string_view entry = util::trim(rest.substr(0, comma));
    const std::string where = "entry " + std::to_string(index);
    if (entry.empty()) fail(where + " is empty");
    const auto colon = entry.find(':');
    if (colon == std::string_view::npos) fail(where + ": expected kid:base64urlkey");
    const std::string_view kid = entry.substr(0, colon);
    if (!valid_kid(kid)) fail(where + ": key id must be 1..16 characters of [A-Za-z0-9_-]");
    const std::string named = "key '" + std::string(kid) + "'";
    if (ring.find(kid) != nullptr) fail(named + " appears more than once");

    auto decoded = crypto::base64url_decode(entry.substr(colon + 1));
    if (!decoded) fail(named + ": key is not valid unpadded base64url");
    std::string& key = *decoded;
    const Wipe wipe_key(key);
    if (key.size() < kMinKeyBytes) {
      fail(named + ": key must be at least " + std::to_string(kMinKeyBytes) + " bytes, got " +
           std::to_string(key.size()));
    }

    // HMAC (RFC 2104): K0 is the key, hashed first when longer than a block, zero-padded.
    std::array<unsigned char, kBlockSize> k0{};
    const Wipe wipe_k0(k0);
    if (key.size() > kBlockSize) {
      unsigned int len = 0;
      if (EVP_Digest(key.data(), key.size(), k0.data(), &len, md.get(), nullptr) != 1 ||
          len != kDigestSize) {
        throw std::runtime_error("token keys: SHA-256 failed");
      }
    } else {
      std::copy(key.begin(), key.end(), k0.begin());
    }
    ring.keys_.push_back(Key{std::string(kid), keyed_state(k0, 0x36), keyed_state(k0, 0x5c)});

    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }

  if (ring.find(active_kid) == nullptr) {
    if (valid_kid(active_kid)) {
      fail("active key id '" + std::string(active_kid) + "' is not in the key list");
    }
    fail("active key id is not a valid key id (1..16 characters of [A-Za-z0-9_-])");
  }
  ring.active_kid_ = std::string(active_kid);
  return ring;
}

const KeyRing::Key* KeyRing::find(std::string_view kid) const noexcept {
  for (const auto& key : keys_) {
    if (key.kid == kid) return &key;
  }
  return nullptr;
}

bool KeyRing::has(std::string_view kid) const noexcept {
  return find(kid) != nullptr;
}

std::array<unsigned char, 32> KeyRing::mac(std::string_view kid, std::string_view data,
                                           MacWorkspace& workspace) const {
  const Key* key = find(kid);
  if (key == nullptr) throw std::out_of_range("token keys: unknown key id");

  std::array<unsigned char, kDigestSize> inner_digest{};
  std::array<unsigned char, kDigestSize> out{};
  unsigned int inner_len = 0;
  unsigned int out_len = 0;
  EVP_MD_CTX* ctx = workspace.get();
  // EVP_MD_CTX_copy_ex only reads the source state, so shared keys need no lock.
  if (EVP_MD_CTX_copy_ex(ctx, key->inner.get()) != 1 ||
      EVP_DigestUpdate(ctx, data.data(), data.size()) != 1 ||
      EVP_DigestFinal_ex(ctx, inner_digest.data(), &inner_len) != 1 || inner_len != kDigestSize ||
      EVP_MD_CTX_copy_ex(ctx, key->outer.get()) != 1 ||
      EVP_DigestUpdate(ctx, inner_digest.data(), inner_digest.size()) != 1 ||
      EVP_DigestFinal_ex(ctx, out.data(), &out_len) != 1 || out_len != kDigestSize) {
    throw std::runtime_error("token keys: HMAC-SHA-256 failed");
  }
  return out;
}

std::array<unsigned char, 32> KeyRing::mac(std::string_view kid, std::string_view data) const {
  MacWorkspace workspace;
  return mac(kid, data, workspace);
}

}  // namespace placard::tokens
