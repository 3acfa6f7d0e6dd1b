// A small, strict XML well-formedness checker for the tests: one root
// element, proper nesting, quoted and unique attributes, only the five
// predefined entities and character references, no stray '<' or '&'. It
// counts elements by name and keeps the text of each element name's
// children, so tests can ask "how many <circle> elements" without trusting
// string searches.
#pragma once

#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace konobi_test {

struct XmlDoc {
  bool ok = false;
  std::string error;
  std::string root;
  std::map<std::string, int> elements;                   // count per element name
  std::map<std::string, std::vector<std::string>> text;  // text content per element name
};

class XmlChecker {
 public:
  explicit XmlChecker(const std::string& s) : s_(s) {}

  XmlDoc run() {
    XmlDoc d;
    try {
      if (s_.compare(0, 5, "<?xml") == 0) skip_pi();
      misc();
      if (!at('<')) fail("no root element");
      d.root = element(d);
      misc();
      if (i_ != s_.size()) fail("content after the root element");
      d.ok = true;
    } catch (const std::string& e) { d.error = e + " at byte " + std::to_string(i_); }
    return d;
  }

 private:
  const std::string& s_;
  size_t i_ = 0;

  [[noreturn]] void fail(const std::string& what) { throw what; }
  bool at(char c) const { return i_ < s_.size() && s_[i_] == c; }
  bool starts(const char* t) const { return s_.compare(i_, std::char_traits<char>::length(t), t) == 0; }
  void space() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  static bool name_start(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':';
  }
  static bool name_char(char c) {
    return name_start(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.';
  }
  std::string name() {
    if (i_ >= s_.size() || !name_start(s_[i_])) fail("expected a name");
    const size_t b = i_;
    while (i_ < s_.size() && name_char(s_[i_])) ++i_;
    return s_.substr(b, i_ - b);
  }
  void skip_pi() {
    const size_t e = s_.find("?>", i_);
    if (e == std::string::npos) fail("unclosed processing instruction");
    i_ = e + 2;
  }
  void comment() {
    const size_t e = s_.find("-->", i_ + 4);
    if (e == std::string::npos) fail("unclosed comment");
    if (s_.substr(i_ + 4, e - i_ - 4).find("--") != std::string::npos) fail("'--' inside a comment");
    i_ = e + 3;
  }
  void misc() {
    for (;;) {
      space();
      if (starts("<!--")) comment();
      else if (starts("<?")) skip_pi();
      else return;
    }
  }
  // An entity or character reference after '&'; returns what it stands for (ASCII only).
  std::string reference() {
    const size_t e = s_.find(';', i_);
    if (e == std::string::npos || e - i_ > 10) fail("unterminated reference");
    const std::string r = s_.substr(i_ + 1, e - i_ - 1);
    i_ = e + 1;
    static const std::map<std::string, std::string> named{
        {"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"quot", "\""}, {"apos", "'"}};
    if (auto it = named.find(r); it != named.end()) return it->second;
    if (r.size() > 1 && r[0] == '#') {
      const bool hex = r[1] == 'x';
      const std::string digits = r.substr(hex ? 2 : 1);
      if (digits.empty()) fail("empty character reference");
      for (char c : digits)
        if (!(hex ? std::isxdigit(static_cast<unsigned char>(c))
                  : std::isdigit(static_cast<unsigned char>(c))))
          fail("bad character reference");
      return "?";
    }
    fail("unknown entity &" + r + ";");
  }
  std::string element(XmlDoc& d) {
    ++i_;  // '<'
    const std::string tag = name();
    ++d.elements[tag];
    std::set<std::string> attrs;
    for (;;) {
      const size_t before = i_;
      space();
      if (starts("/>")) {
        i_ += 2;
        return tag;
      }
      if (at('>')) {
        ++i_;
        break;
      }
      if (i_ == before) fail("expected whitespace before an attribute");
      const std::string a = name();
      if (!attrs.insert(a).second) fail("attribute " + a + " given twice");
      space();
      if (!at('=')) fail("expected '=' after " + a);
      ++i_;
      space();
      if (!at('"') && !at('\'')) fail("unquoted value of " + a);
      const char q = s_[i_++];
      while (i_ < s_.size() && s_[i_] != q) {
        if (s_[i_] == '<') fail("'<' in the value of " + a);
        if (s_[i_] == '&') reference();
        else ++i_;
      }
      if (i_ >= s_.size()) fail("unterminated value of " + a);
      ++i_;
    }
    std::string content;
    for (;;) {
      if (i_ >= s_.size()) fail("element " + tag + " is not closed");
      if (starts("</")) {
        i_ += 2;
        const std::string end = name();
        if (end != tag) fail("</" + end + "> closes <" + tag + ">");
        space();
        if (!at('>')) fail("expected '>'");
        ++i_;
        d.text[tag].push_back(content);
        return tag;
      }
      if (starts("<!--")) comment();
      else if (starts("<![CDATA[")) fail("CDATA is not expected here");
      else if (starts("<?")) skip_pi();
      else if (at('<')) element(d);
      else if (at('&')) content += reference();
      else content += s_[i_++];
    }
  }
};

inline XmlDoc check_xml(const std::string& text) { return XmlChecker(text).run(); }

}  // namespace konobi_test
