// Reading JSON back (results files for --resume and for the reports that
// build on them). A small DOM and a strict recursive-descent parser whose
// errors name the byte offset, so a corrupt file is reported, never guessed.
#pragma once

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace konobi {

struct JsonError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class JsonValue {
 public:
  enum class Type { Null, Bool, Number, String, Array, Object };

  static JsonValue parse(std::string_view text);  // throws JsonError

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::Null; }
  bool has(const std::string& key) const { return type_ == Type::Object && object_.count(key); }
  // Typed access; a wrong type or a missing key throws JsonError naming it.
  const JsonValue& operator[](const std::string& key) const;
  const std::vector<JsonValue>& array() const;
  const std::map<std::string, JsonValue>& object() const;  // keys in sorted order
  const std::string& str() const;
  double number() const;
  long long integer() const;
  bool boolean() const;

 private:
  friend class JsonParser;
  Type type_ = Type::Null;
  bool bool_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<JsonValue> array_;
  std::map<std::string, JsonValue> object_;
};

}  // namespace konobi
