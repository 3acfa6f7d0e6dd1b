#include "json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace konobi {

Json json_number(double v) {
  if (!std::isfinite(v)) return nullptr;  // JSON has no infinity; never written by us
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  // Whole numbers were written without a decimal point: keep them integers,
  // or nlohmann would write 256 as 256.0.
  if (!std::strpbrk(buf, ".e")) return std::strtoll(buf, nullptr, 10);
  const double rounded = std::strtod(buf, nullptr);
  // From 1e6 up %.6g wrote an exponent (1.23457e+06): a whole number, now
  // written as one (1234570) rather than as nlohmann's 1234570.0.
  if (std::strstr(buf, "e+") && std::fabs(rounded) < 1e18) return (long long)std::llround(rounded);
  // Otherwise the double nearest the rounded text: nlohmann writes the
  // shortest text that reads back as it, which is the same six digits
  // (0.0807504, 5e-05).
  return rounded;
}

std::string json_text(const Json& j, bool pretty) {
  std::string s = j.dump(pretty ? 2 : -1, ' ', false, Json::error_handler_t::replace);
  s += '\n';
  return s;
}

Json parse_json(std::string_view text) {
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::exception& e) {
    // "[json.exception.parse_error.101] parse error at line 3, column 5: ..."
    std::string what = e.what();
    if (const size_t close = what.find("] ");
        what.rfind("[json.exception.", 0) == 0 && close != std::string::npos)
      what = what.substr(close + 2);
    throw JsonError("not valid JSON: " + what);
  }
}

void JsonField::fail(const std::string& why) const {
  throw JsonError((path_.empty() ? std::string("the document") : path_) + ": " + why);
}

const char* JsonField::type_name() const {
  switch (v_->type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return "a boolean";
    case Json::value_t::string:
      return "a string";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::object:
      return "an object";
    case Json::value_t::number_float:
      return "a fractional number";
    default:
      return "a number";
  }
}

bool JsonField::has(const char* key) const { return v_->is_object() && v_->contains(key); }

JsonField JsonField::operator[](const char* key) const {
  if (!v_->is_object()) fail(std::string("expected an object, found ") + type_name());
  const auto it = v_->find(key);
  const std::string sub = path_.empty() ? std::string(key) : path_ + "." + key;
  if (it == v_->end()) throw JsonError(sub + ": missing");
  return JsonField(*it, sub);
}

std::vector<JsonField> JsonField::array() const {
  if (!v_->is_array()) fail(std::string("expected an array, found ") + type_name());
  std::vector<JsonField> out;
  out.reserve(v_->size());
  for (size_t i = 0; i < v_->size(); ++i) out.emplace_back((*v_)[i], path_ + "[" + std::to_string(i) + "]");
  return out;
}

size_t JsonField::array_size() const {
  if (!v_->is_array()) fail(std::string("expected an array, found ") + type_name());
  return v_->size();
}

const std::string& JsonField::str() const {
  if (!v_->is_string()) fail(std::string("expected a string, found ") + type_name());
  return v_->get_ref<const std::string&>();
}

const std::string& JsonField::one_of(std::initializer_list<const char*> allowed) const {
  const std::string& s = str();
  std::string list;
  for (const char* a : allowed) {
    if (s == a) return s;
    list += std::string(list.empty() ? "" : " or ") + a;
  }
  fail("'" + s + "' is not " + list);
}

bool JsonField::boolean() const {
  if (!v_->is_boolean()) fail(std::string("expected true or false, found ") + type_name());
  return v_->get<bool>();
}

long long JsonField::integer(long long lo, long long hi) const {
  long long x = 0;
  if (v_->is_number_unsigned()) {
    const auto u = v_->get<unsigned long long>();
    if (u > (unsigned long long)hi)
      fail(std::to_string(u) + " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
    x = (long long)u;
  } else if (v_->is_number_integer()) {
    x = v_->get<long long>();
  } else {
    fail(std::string("expected a whole number, found ") + type_name());
  }
  if (x < lo || x > hi)
    fail(std::to_string(x) + " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
  return x;
}

unsigned long long JsonField::count() const {
  if (v_->is_number_unsigned()) return v_->get<unsigned long long>();
  if (v_->is_number_integer()) fail(std::to_string(v_->get<long long>()) + " is negative");
  fail(std::string("expected a whole number, found ") + type_name());
}

double JsonField::number(double lo, double hi) const {
  if (!v_->is_number()) fail(std::string("expected a number, found ") + type_name());
  const double x = v_->get<double>();
  if (!(x >= lo && x <= hi)) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%g is out of range %g..%g", x, lo, hi);
    fail(buf);
  }
  return x;
}

}  // namespace konobi
