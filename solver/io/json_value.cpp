#include "json_value.h"

#include <cmath>
#include <cstdlib>

namespace konobi {

class JsonParser {
 public:
  explicit JsonParser(std::string_view t) : t_(t) {}

  JsonValue document() {
    JsonValue v = value(0);
    skip();
    if (i_ != t_.size()) fail("unexpected text after the end of the document");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw JsonError("JSON error at byte " + std::to_string(i_) + ": " + what);
  }
  void skip() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\n' || t_[i_] == '\t' || t_[i_] == '\r')) ++i_;
  }
  char peek() {
    skip();
    if (i_ >= t_.size()) fail("the document ends too early (truncated?)");
    return t_[i_];
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++i_;
  }
  bool literal(std::string_view w) {
    if (t_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }

  JsonValue value(int depth) {
    if (depth > 64) fail("nesting too deep");
    JsonValue v;
    const char c = peek();
    if (c == '{') {
      v.type_ = JsonValue::Type::Object;
      ++i_;
      if (peek() == '}') return ++i_, v;
      while (true) {
        if (peek() != '"') fail("expected a key string");
        std::string k = string();
        expect(':');
        v.object_[k] = value(depth + 1);
        if (peek() == ',') { ++i_; continue; }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.type_ = JsonValue::Type::Array;
      ++i_;
      if (peek() == ']') return ++i_, v;
      while (true) {
        v.array_.push_back(value(depth + 1));
        if (peek() == ',') { ++i_; continue; }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.type_ = JsonValue::Type::String;
      v.string_ = string();
      return v;
    }
    if (literal("true")) return v.type_ = JsonValue::Type::Bool, v.bool_ = true, v;
    if (literal("false")) return v.type_ = JsonValue::Type::Bool, v;
    if (literal("null")) return v;
    if (c == '-' || (c >= '0' && c <= '9')) {
      const size_t start = i_;
      while (i_ < t_.size() && std::string_view("+-0123456789.eE").find(t_[i_]) != std::string_view::npos) ++i_;
      const std::string num(t_.substr(start, i_ - start));
      char* end = nullptr;
      v.number_ = std::strtod(num.c_str(), &end);
      if (end != num.c_str() + num.size() || !std::isfinite(v.number_)) fail("bad number '" + num + "'");
      v.type_ = JsonValue::Type::Number;
      return v;
    }
    fail(std::string("unexpected character '") + c + "'");
  }

  std::string string() {
    expect('"');
    std::string s;
    while (true) {
      if (i_ >= t_.size()) fail("unterminated string (truncated?)");
      const char c = t_[i_++];
      if (c == '"') return s;
      if (c != '\\') {
        s += c;
        continue;
      }
      if (i_ >= t_.size()) fail("unterminated escape");
      const char e = t_[i_++];
      switch (e) {
        case 'n': s += '\n'; break;
        case 't': s += '\t'; break;
        case 'r': s += '\r'; break;
        case 'b': s += '\b'; break;
        case 'f': s += '\f'; break;
        case 'u': {
          if (i_ + 4 > t_.size()) fail("short \\u escape");
          const unsigned cp = std::stoul(std::string(t_.substr(i_, 4)), nullptr, 16);
          i_ += 4;
          if (cp < 0x80) s += char(cp);
          else if (cp < 0x800) s += char(0xc0 | (cp >> 6)), s += char(0x80 | (cp & 0x3f));
          else s += char(0xe0 | (cp >> 12)), s += char(0x80 | ((cp >> 6) & 0x3f)), s += char(0x80 | (cp & 0x3f));
          break;
        }
        default: s += e;
      }
    }
  }

  std::string_view t_;
  size_t i_ = 0;
};

JsonValue JsonValue::parse(std::string_view text) { return JsonParser(text).document(); }

const JsonValue& JsonValue::operator[](const std::string& key) const {
  if (type_ != Type::Object) throw JsonError("expected an object holding '" + key + "'");
  auto it = object_.find(key);
  if (it == object_.end()) throw JsonError("missing field '" + key + "'");
  return it->second;
}
const std::vector<JsonValue>& JsonValue::array() const {
  if (type_ != Type::Array) throw JsonError("expected an array");
  return array_;
}
const std::map<std::string, JsonValue>& JsonValue::object() const {
  if (type_ != Type::Object) throw JsonError("expected an object");
  return object_;
}
const std::string& JsonValue::str() const {
  if (type_ != Type::String) throw JsonError("expected a string");
  return string_;
}
double JsonValue::number() const {
  if (type_ != Type::Number) throw JsonError("expected a number");
  return number_;
}
long long JsonValue::integer() const {
  const double d = number();
  if (d != std::floor(d)) throw JsonError("expected an integer");
  return (long long)d;
}
bool JsonValue::boolean() const {
  if (type_ != Type::Bool) throw JsonError("expected true or false");
  return bool_;
}

}  // namespace konobi
