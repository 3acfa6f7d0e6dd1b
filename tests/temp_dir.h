// A fresh directory under /tmp for a test, removed with everything in it
// afterwards. Shared by the test files (support.h includes it).
#pragma once

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <stdlib.h>

namespace konobi_test {

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    char name[] = "/tmp/konobi_test_XXXXXX";
    REQUIRE(mkdtemp(name) != nullptr);
    path = name;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

}  // namespace konobi_test
