#include "config/schema.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <unordered_set>

#include "io/error.h"

namespace adacloth::config {
namespace {

Field make(std::string name, Kind kind, std::string doc) {
  Field f;
  f.name = std::move(name);
  f.kind = kind;
  f.doc = std::move(doc);
  return f;
}

std::string escapePointer(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

// How a value looks in a message: strings quoted, containers named, long values cut.
std::string describe(const Json& v) {
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array of " + std::to_string(v.size());
  std::string s = v.dump();
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

std::string kindName(const Field& f) {
  switch (f.kind) {
    case Kind::Number: return "a number";
    case Kind::Integer: return "a whole number";
    case Kind::Boolean: return "true or false";
    case Kind::String: return "a string";
    case Kind::Enum: return "a string";
    case Kind::Path: return "a file path (string)";
    case Kind::Vec2: return "an array of 2 numbers";
    case Kind::Vec3: return "an array of 3 numbers";
    case Kind::Object: return "an object";
    case Kind::Array: return "an array";
    case Kind::OneOf: {
      std::string s;
      for (size_t i = 0; i < f.alternatives.size(); ++i)
        s += (i ? (i + 1 == f.alternatives.size() ? " or " : ", ") : "") + kindName(f.alternatives[i]);
      return s;
    }
  }
  return "?";
}

bool jsonTypeFits(Kind kind, const Json& v) {
  switch (kind) {
    case Kind::Number: case Kind::Integer: return v.is_number();
    case Kind::Boolean: return v.is_boolean();
    case Kind::String: case Kind::Enum: case Kind::Path: return v.is_string();
    case Kind::Vec2: case Kind::Vec3: case Kind::Array: return v.is_array();
    case Kind::Object: return v.is_object();
    case Kind::OneOf: return true;
  }
  return false;
}

struct Resolver {
  const Source& source;

  [[noreturn]] void fail(const std::string& ptr, const std::string& what) const {
    throw InputError(source.file + ": " + (ptr.empty() ? "/" : ptr) + ": " + what);
  }

  void checkBounds(const Field& f, double x, const std::string& ptr) const {
    auto bound = [](double b) { std::ostringstream s; s << b; return s.str(); };
    // A ratio's unit "1" would read as a second number ("at most 1 1").
    std::string unit = f.unit.empty() || f.unit == "1" ? "" : " " + f.unit;
    if (f.min && (f.minExclusive ? !(x > *f.min) : !(x >= *f.min)))
      fail(ptr, "expected a value " + std::string(f.minExclusive ? "greater than " : "at least ") + bound(*f.min) +
                    unit + ", got " + bound(x));
    if (f.max && (f.maxExclusive ? !(x < *f.max) : !(x <= *f.max)))
      fail(ptr, "expected a value " + std::string(f.maxExclusive ? "less than " : "at most ") + bound(*f.max) + unit +
                    ", got " + bound(x));
  }

  Json number(const Json& v, const Field& f, const std::string& ptr) const {
    if (!v.is_number()) fail(ptr, "expected " + kindName(f) + ", got " + describe(v));
    double x = v.get<double>();
    if (!std::isfinite(x)) fail(ptr, "expected a finite number, got " + describe(v));
    if (f.kind == Kind::Integer && x != std::floor(x)) fail(ptr, "expected a whole number, got " + describe(v));
    // Every integer of a shot is read as an int (frames, cells, iterations, node indices).
    if (f.kind == Kind::Integer && std::fabs(x) > double(std::numeric_limits<int>::max()))
      fail(ptr, "expected a whole number of at most " + std::to_string(std::numeric_limits<int>::max()) +
                    " in size, got " + describe(v));
    checkBounds(f, x, ptr);
    return f.kind == Kind::Integer ? Json(int64_t(x)) : Json(x);
  }

  Json vector(const Json& v, const Field& f, const std::string& ptr) const {
    size_t n = f.kind == Kind::Vec2 ? 2 : 3;
    if (!v.is_array() || v.size() != n) fail(ptr, "expected " + kindName(f) + ", got " + describe(v));
    Json out = Json::array();
    for (size_t i = 0; i < n; ++i) {
      Field component = f;
      component.kind = Kind::Number;
      out.push_back(number(v[i], component, ptr + "/" + std::to_string(i)));
    }
    return out;
  }

  Json enumeration(const Json& v, const Field& f, const std::string& ptr) const {
    if (!v.is_string()) fail(ptr, "expected " + kindName(f) + ", got " + describe(v));
    const std::string s = v.get<std::string>();
    if (std::find(f.choices.begin(), f.choices.end(), s) != f.choices.end()) return v;
    std::string list;
    for (const auto& c : f.choices) list += (list.empty() ? "\"" : ", \"") + c + "\"";
    auto guess = didYouMean(s, f.choices);
    fail(ptr, "expected one of " + list + ", got " + describe(v) + (guess ? " (did you mean \"" + *guess + "\"?)" : ""));
  }

  Json pathValue(const Json& v, const Field& f, const std::string& ptr) const {
    if (!v.is_string() || v.get<std::string>().empty())
      fail(ptr, "expected " + kindName(f) + ", got " + describe(v));
    std::filesystem::path p = v.get<std::string>();
    // Absolute, so that a resolved shot means the same files from any working directory (OUT/shot.resolved.json,
    // farm jobs, the fingerprint of a checkpoint).
    if (p.is_relative()) {
      std::error_code ec;
      const std::filesystem::path absolute = std::filesystem::absolute(source.baseDir / p, ec);
      p = ec ? source.baseDir / p : absolute;
    }
    return Json(p.lexically_normal().string());
  }

  Json object(const Json& v, const Field& f, const std::string& ptr) const {
    if (!v.is_object()) fail(ptr, "expected " + kindName(f) + ", got " + describe(v));
    std::vector<std::string> known;
    for (const Field& sub : *f.fields) known.push_back(sub.name);
    for (const auto& item : v.items()) {
      if (std::find(known.begin(), known.end(), item.key()) != known.end()) continue;
      auto guess = didYouMean(item.key(), known);
      fail(ptr + "/" + escapePointer(item.key()),
           "unknown key \"" + item.key() + "\"" + (guess ? " (did you mean \"" + *guess + "\"?)" : ""));
    }
    Json out = Json::object();
    for (const Field& sub : *f.fields) {
      std::string subPtr = ptr + "/" + escapePointer(sub.name);
      if (v.contains(sub.name)) out[sub.name] = value(v.at(sub.name), sub, subPtr);
      else if (sub.defaultValue) out[sub.name] = value(*sub.defaultValue, sub, subPtr);
      else if (!sub.optional) fail(ptr, "missing required key \"" + sub.name + "\" (" + kindName(sub) + ")");
    }
    return out;
  }

  Json array(const Json& v, const Field& f, const std::string& ptr) const {
    if (!v.is_array()) fail(ptr, "expected " + kindName(f) + ", got " + describe(v));
    if (f.minItems && v.size() < *f.minItems)
      fail(ptr, "expected at least " + std::to_string(*f.minItems) + " item(s), got " + std::to_string(v.size()));
    Json out = Json::array();
    for (size_t i = 0; i < v.size(); ++i) out.push_back(value(v[i], *f.element, ptr + "/" + std::to_string(i)));
    return out;
  }

  Json value(const Json& v, const Field& f, const std::string& ptr) const {
    switch (f.kind) {
      case Kind::Number: case Kind::Integer: return number(v, f, ptr);
      case Kind::Boolean:
        if (!v.is_boolean()) fail(ptr, "expected true or false, got " + describe(v));
        return v;
      case Kind::String:
        if (!v.is_string()) fail(ptr, "expected a string, got " + describe(v));
        return v;
      case Kind::Enum: return enumeration(v, f, ptr);
      case Kind::Path: return pathValue(v, f, ptr);
      case Kind::Vec2: case Kind::Vec3: return vector(v, f, ptr);
      case Kind::Object: return object(v, f, ptr);
      case Kind::Array: return array(v, f, ptr);
      case Kind::OneOf:
        for (const Field& alt : f.alternatives)
          if (jsonTypeFits(alt.kind, v)) return value(v, alt, ptr);
        fail(ptr, "expected " + kindName(f) + ", got " + describe(v));
    }
    fail(ptr, "internal error: unknown schema kind");
  }
};

size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

Field number(std::string name, std::string doc) { return make(std::move(name), Kind::Number, std::move(doc)); }
Field integer(std::string name, std::string doc) { return make(std::move(name), Kind::Integer, std::move(doc)); }
Field boolean(std::string name, std::string doc) { return make(std::move(name), Kind::Boolean, std::move(doc)); }
Field string(std::string name, std::string doc) { return make(std::move(name), Kind::String, std::move(doc)); }
Field path(std::string name, std::string doc) { return make(std::move(name), Kind::Path, std::move(doc)); }
Field vec2(std::string name, std::string doc) { return make(std::move(name), Kind::Vec2, std::move(doc)); }
Field vec3(std::string name, std::string doc) { return make(std::move(name), Kind::Vec3, std::move(doc)); }

Field enumeration(std::string name, std::vector<std::string> choices, std::string doc) {
  Field f = make(std::move(name), Kind::Enum, std::move(doc));
  f.choices = std::move(choices);
  return f;
}

Field object(std::string name, Fields fields, std::string doc) {
  Field f = make(std::move(name), Kind::Object, std::move(doc));
  f.fields = std::make_shared<Fields>(std::move(fields));
  return f;
}

Field array(std::string name, Field element, std::string doc) {
  Field f = make(std::move(name), Kind::Array, std::move(doc));
  f.element = std::make_shared<Field>(std::move(element));
  return f;
}

Field oneOf(std::string name, std::vector<Field> alternatives, std::string doc) {
  Field f = make(std::move(name), Kind::OneOf, std::move(doc));
  f.alternatives = std::move(alternatives);
  return f;
}

namespace {

// "<file>:<line>:<column>" of a byte offset into `text` (both 1-based).
std::string placeOf(const std::string& text, size_t byte, const std::string& file) {
  byte = std::min(byte, text.size());
  size_t line = 1 + std::count(text.begin(), text.begin() + byte, '\n');
  size_t lineStart = text.rfind('\n', byte == 0 ? 0 : byte - 1);
  size_t column = byte - (lineStart == std::string::npos || byte == 0 ? 0 : lineStart + 1) + 1;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

// A parser callback that refuses a key given twice in one object, which the parser would otherwise take silently
// (the last value wins): a shot edited by hand that sets `frames` twice, or a `size` left behind in a copied block,
// would run with whichever came last. It follows where the parser is, as a JSON pointer, to name the place.
class RepeatedKeyCheck {
 public:
  explicit RepeatedKeyCheck(const std::string& file) : file_(file) {}

  bool operator()(int /*depth*/, Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start: open(true); break;
      case Json::parse_event_t::array_start: open(false); break;
      case Json::parse_event_t::key: {
        Level& object = levels_.back();
        object.key = parsed.get<std::string>();
        if (!object.keys.insert(object.key).second)
          throw InputError(file_ + ": " + pointer() + ": key \"" + object.key +
                           "\" is given twice in one object (JSON would keep only the last): remove one");
        break;
      }
      case Json::parse_event_t::object_end:
      case Json::parse_event_t::array_end:
        levels_.pop_back();
        elementDone();
        break;
      case Json::parse_event_t::value: elementDone(); break;
    }
    return true;
  }

 private:
  struct Level {
    bool object = false;
    std::string key;                       // an object's current key
    size_t index = 0;                      // an array's current element
    std::unordered_set<std::string> keys;  // an object's keys so far
  };
  void open(bool object) {
    levels_.emplace_back();
    levels_.back().object = object;
  }
  void elementDone() {
    if (!levels_.empty() && !levels_.back().object) ++levels_.back().index;
  }
  std::string pointer() const {
    std::string out;
    for (const Level& l : levels_) out += "/" + (l.object ? escapePointer(l.key) : std::to_string(l.index));
    return out;
  }
  const std::string& file_;
  std::vector<Level> levels_;
};

}  // namespace

Json parseJson(const std::string& text, const std::string& file) {
  try {
    return Json::parse(text, RepeatedKeyCheck(file));
  } catch (const Json::parse_error& e) {
    std::string what = e.what();
    size_t colon = what.find(": ", what.find("column"));
    what = colon == std::string::npos ? what : what.substr(colon + 2);
    throw InputError(placeOf(text, e.byte == 0 ? 0 : e.byte - 1, file) + ": malformed JSON: " + what);
  } catch (const Json::out_of_range& e) {
    // The parser's only out_of_range: a number beyond the range of a double (406, "number overflow parsing
    // '<token>'"). It carries no position, so the token is looked up in the text.
    const std::string what = e.what();
    const size_t open = what.find('\''), close = what.rfind('\'');
    std::string token = open != std::string::npos && close > open ? what.substr(open + 1, close - open - 1) : "";
    const size_t at = token.empty() ? std::string::npos : text.find(token);
    if (token.size() > 40) token = token.substr(0, 37) + "...";
    throw InputError((at == std::string::npos ? file : placeOf(text, at, file)) + ": malformed JSON: number '" +
                     token + "' is beyond the range of a double");
  }
}

Json resolve(const Json& value, const Field& field, const Source& source) {
  return Resolver{source}.value(value, field, "");
}

std::optional<std::string> didYouMean(const std::string& word, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  size_t bestDistance = std::max<size_t>(2, word.size() / 3) + 1;
  for (const std::string& c : candidates) {
    size_t d = editDistance(word, c);
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best;
}

namespace {

std::string typeCell(const Field& f) {
  switch (f.kind) {
    case Kind::Number: return "number";
    case Kind::Integer: return "integer";
    case Kind::Boolean: return "boolean";
    case Kind::String: return "string";
    case Kind::Path: return "path";
    case Kind::Vec2: return "[x, y]";
    case Kind::Vec3: return "[x, y, z]";
    case Kind::Object: return "object";
    case Kind::Array: return "array of " + typeCell(*f.element);
    case Kind::Enum: {
      std::string s;
      for (const auto& c : f.choices) s += (s.empty() ? "`\"" : " \\| `\"") + c + "\"`";
      return s;
    }
    case Kind::OneOf: {
      std::string s;
      for (const auto& a : f.alternatives) s += (s.empty() ? "" : " or ") + typeCell(a);
      return s;
    }
  }
  return "?";
}

std::string boundsText(const Field& f) {
  std::ostringstream s;
  if (f.min) s << (f.minExclusive ? " > " : " ≥ ") << *f.min;
  if (f.max) s << (f.min ? "," : "") << (f.maxExclusive ? " < " : " ≤ ") << *f.max;
  return s.str().empty() ? "" : " Range:" + s.str() + ".";
}

void collectObjects(const Field& f, const std::string& where, std::vector<std::pair<std::string, const Field*>>& out) {
  if (f.kind == Kind::Object) {
    out.emplace_back(where, &f);
    for (const Field& sub : *f.fields) collectObjects(sub, where.empty() ? sub.name : where + "." + sub.name, out);
  } else if (f.kind == Kind::Array) {
    collectObjects(*f.element, where + "[]", out);
  } else if (f.kind == Kind::OneOf) {
    for (const Field& alt : f.alternatives) collectObjects(alt, where, out);
  }
}

}  // namespace

std::string toMarkdown(const Field& root, const std::string& title) {
  std::vector<std::pair<std::string, const Field*>> objects;
  collectObjects(root, "", objects);
  std::ostringstream md;
  md << "# " << title << "\n\n" << root.doc << "\n";
  for (const auto& [where, obj] : objects) {
    md << "\n## " << (where.empty() ? "(top level)" : "`" + where + "`") << "\n\n";
    if (!where.empty() && !obj->doc.empty()) md << obj->doc << "\n\n";
    md << "| key | type | unit | default | description |\n|---|---|---|---|---|\n";
    for (const Field& f : *obj->fields) {
      std::string def = f.defaultValue ? "`" + f.defaultValue->dump() + "`" : f.optional ? "(none)" : "**required**";
      std::string doc = f.doc + boundsText(f);
      if (!f.example.is_null()) doc += " Example: `" + f.example.dump() + "`.";
      md << "| `" << f.name << "` | " << typeCell(f) << " | " << (f.unit.empty() ? "" : f.unit) << " | " << def
         << " | " << doc << " |\n";
    }
  }
  return md.str();
}

}  // namespace adacloth::config
