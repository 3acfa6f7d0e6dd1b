// JSON through nlohmann-json: the document type every file and report uses,
// the number format our files have always had, and a checked reader whose
// errors name the field by its path ("openings[7].winner") and the reason.
#pragma once

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace konobi {

// Keys keep the order they were written in, as in every file we ship.
using Json = nlohmann::ordered_json;

// Not JSON, or JSON that breaks the schema: the message says where and why.
struct JsonError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A double as our files have always written it: six significant digits
// ("%.6g"), and a whole number without ".0" (tt_mb 256, seconds 0).
Json json_number(double v);
// Two-space indentation and a final newline (pretty), or one line without
// spaces. Bytes that are not UTF-8 (a command line can hold any) are written
// as U+FFFD rather than refused.
std::string json_text(const Json& j, bool pretty = true);
// Strict parse: throws JsonError naming the byte where the text goes wrong.
Json parse_json(std::string_view text);

// A value read from a file, with its path for messages. Every accessor checks
// the type (and range) and throws JsonError("PATH: reason") when it is wrong.
class JsonField {
 public:
  JsonField(const Json& v, std::string path) : v_(&v), path_(std::move(path)) {}

  const std::string& path() const { return path_; }
  const Json& json() const { return *v_; }
  bool has(const char* key) const;  // an object with that key
  bool is_null() const { return v_->is_null(); }
  JsonField operator[](const char* key) const;  // the field must be there
  std::vector<JsonField> array() const;         // elements named PATH[i]
  size_t array_size() const;
  const std::string& str() const;
  // A string from a fixed list ("black", "white").
  const std::string& one_of(std::initializer_list<const char*> allowed) const;
  bool boolean() const;
  long long integer(long long lo, long long hi) const;
  unsigned long long count() const;  // a whole number >= 0
  double number(double lo, double hi) const;
  double seconds() const { return number(0, 1e12); }  // a duration, never negative

  [[noreturn]] void fail(const std::string& why) const;

 private:
  const char* type_name() const;
  const Json* v_;
  std::string path_;
};

}  // namespace konobi
