// A small streaming JSON writer: enough for our reports, with correct string
// escaping and commas, and no dependency for something this size.
#pragma once

#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace konobi {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out, bool pretty = true) : out_(out), pretty_(pretty) {}

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }

  JsonWriter& key(std::string_view k) {
    separate();
    write_string(k);
    out_ << (pretty_ ? ": " : ":");
    after_key_ = true;
    return *this;
  }
  JsonWriter& value(std::string_view s) { return scalar([&] { write_string(s); }); }
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
  JsonWriter& value(bool b) { return scalar([&] { out_ << (b ? "true" : "false"); }); }
  JsonWriter& value(int v) { return scalar([&] { out_ << v; }); }
  JsonWriter& value(long v) { return scalar([&] { out_ << v; }); }
  JsonWriter& value(long long v) { return scalar([&] { out_ << v; }); }
  JsonWriter& value(unsigned v) { return scalar([&] { out_ << v; }); }
  JsonWriter& value(unsigned long v) { return scalar([&] { out_ << v; }); }
  JsonWriter& value(unsigned long long v) { return scalar([&] { out_ << v; }); }
  JsonWriter& value(double v) {
    return scalar([&] {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.6g", v);
      out_ << buf;
    });
  }
  JsonWriter& null() { return scalar([&] { out_ << "null"; }); }
  template <class T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }
  void finish() { out_ << '\n'; }

 private:
  template <class F>
  JsonWriter& scalar(F&& f) {
    separate();
    f();
    first_.empty() ? void() : void(first_.back() = false);
    return *this;
  }
  JsonWriter& open(char c) {
    separate();
    out_ << c;
    if (!first_.empty()) first_.back() = false;
    first_.push_back(true);
    return *this;
  }
  JsonWriter& close(char c) {
    const bool empty = first_.back();
    first_.pop_back();
    if (!empty) newline();
    out_ << c;
    return *this;
  }
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (first_.empty()) return;
    if (!first_.back()) out_ << ',';
    newline();
  }
  void newline() {
    if (!pretty_) return;
    out_ << '\n';
    for (size_t i = 0; i < first_.size(); ++i) out_ << "  ";
  }
  void write_string(std::string_view s) {
    out_ << '"';
    for (unsigned char c : s) {
      switch (c) {
        case '"': out_ << "\\\""; break;
        case '\\': out_ << "\\\\"; break;
        case '\n': out_ << "\\n"; break;
        case '\t': out_ << "\\t"; break;
        case '\r': out_ << "\\r"; break;
        default:
          if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out_ << buf;
          } else {
            out_ << c;
          }
      }
    }
    out_ << '"';
  }

  std::ostream& out_;
  bool pretty_;
  bool after_key_ = false;
  std::vector<bool> first_;  // per open container: nothing written yet
};

}  // namespace konobi
