#include "lib/network/ca_bundle.h"

#include <gtest/gtest.h>

#include <set>

namespace placard::network {
namespace {

std::function<bool(const std::string&)> having(std::set<std::string> files) {
  return [files = std::move(files)](const std::string& p) { return files.count(p) != 0; };
}

TEST(ChooseCaFile, TheConfiguredFileWinsEvenWhenMissing) {
  EXPECT_EQ(choose_ca_file("/etc/my-ca.pem", "/b/ca.crt", having({})), "/etc/my-ca.pem");
}

TEST(ChooseCaFile, TheSystemsBundleWhereverTheDistributionKeepsIt) {
  EXPECT_EQ(choose_ca_file("", "/b/ca.crt", having({"/etc/ssl/certs/ca-certificates.crt"})),
            "/etc/ssl/certs/ca-certificates.crt");
  EXPECT_EQ(
      choose_ca_file("", "/b/ca.crt", having({"/etc/pki/tls/certs/ca-bundle.crt", "/b/ca.crt"})),
      "/etc/pki/tls/certs/ca-bundle.crt");
}

TEST(ChooseCaFile, TheBundledFileOnlyWhenTheSystemHasNone) {
  EXPECT_EQ(choose_ca_file("", "/b/ca.crt", having({"/b/ca.crt"})), "/b/ca.crt");
  EXPECT_EQ(choose_ca_file("", "/b/ca.crt", having({})), "");
}

}  // namespace
}  // namespace placard::network
