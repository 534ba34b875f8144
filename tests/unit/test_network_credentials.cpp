#include <gtest/gtest.h>

#include "lib/crypto/base64.h"
#include "lib/network/credentials.h"

namespace {

using namespace placard;

crypto::CredentialKeys keys(char fill) {
  return crypto::CredentialKeys::parse("k1:" + crypto::base64url_encode(std::string(32, fill)));
}

network::StoredCredentials seal(const crypto::CredentialKeys& k, const std::string& json,
                                const char* network) {
  const auto s = k.seal(json, network);
  return {s.key_id, s.iv, s.ciphertext, s.tag, 0};
}

TEST(NetworkCredentials, OpensWhatTheAdminApiSeals) {
  const auto k = keys('a');
  const auto a = network::open_admitad_credentials(
      k, seal(k, R"({"clientId":"id","clientSecret":"s3cret","websiteId":"42"})", "admitad"));
  EXPECT_EQ(a.client_id, "id");
  EXPECT_EQ(a.client_secret, "s3cret");
  EXPECT_EQ(a.website_id, "42");
  const auto w =
      network::open_awin_credentials(k, seal(k, R"({"publisherId":"9","apiToken":"tok"})", "awin"));
  EXPECT_EQ(w.publisher_id, "9");
  EXPECT_EQ(w.api_token, "tok");
}

TEST(NetworkCredentials, RefusalsAreSentencesWithoutSecrets) {
  const auto k = keys('a');
  const auto admitad =
      seal(k, R"({"clientId":"id","clientSecret":"s3cret","websiteId":"42"})", "admitad");
  auto expect_error = [](auto&& f, const char* part) {
    try {
      f();
      ADD_FAILURE() << "accepted";
    } catch (const network::NetworkError& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find("s3cret"), std::string::npos) << e.what();
    }
  };
  expect_error([&] { network::open_admitad_credentials(keys('b'), admitad); }, "decrypted");
  expect_error([&] { network::open_awin_credentials(k, admitad); }, "decrypted");  // moved row
  expect_error([&] { network::open_admitad_credentials(k, seal(k, "not json", "admitad")); },
               "unreadable");
  expect_error(
      [&] {
        network::open_admitad_credentials(
            k, seal(k, R"({"clientId":"id","websiteId":"1"})", "admitad"));
      },
      "incomplete");
}

}  // namespace
