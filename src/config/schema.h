#pragma once
// A declarative schema for JSON input: one place that says every key's type, unit, default and meaning. It serves
// three purposes from the same declaration: strict validation with precise messages, filling in defaults (the
// resolved shot), and the Markdown reference in docs/ (generated, so the docs cannot drift from the code).
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace adacloth::config {

using Json = nlohmann::ordered_json;

enum class Kind {
  Number,   // any finite number
  Integer,  // a whole number
  Boolean,
  String,
  Enum,     // a string from `choices`
  Path,     // a string naming a file, resolved relative to the file being read
  Vec2,     // [x, y]
  Vec3,     // [x, y, z]
  Object,   // keys from `fields`; unknown keys are errors
  Array,    // elements described by `element`
  OneOf,    // one of `alternatives`, chosen by the JSON type of the value (e.g. a preset name or an inline object)
};

struct Field;
using Fields = std::vector<Field>;

struct Field {
  std::string name;
  Kind kind = Kind::Number;
  std::string doc;
  std::string unit;                // "m", "kg/m^2", ... ; empty for none
  std::optional<Json> defaultValue;  // absent: required unless `optional`
  bool optional = false;           // may be absent; no default is filled in
  std::optional<double> min, max;  // inclusive bounds for numbers (and every component of vectors)
  bool minExclusive = false, maxExclusive = false;
  std::vector<std::string> choices;       // Enum
  std::shared_ptr<Fields> fields;         // Object
  std::shared_ptr<Field> element;         // Array
  std::optional<size_t> minItems;         // Array
  std::vector<Field> alternatives;        // OneOf
  Json example;                           // for the docs; null for none

  // Builder helpers, so a schema reads like a table.
  Field& defaults(Json value) { defaultValue = std::move(value); return *this; }
  Field& isOptional() { optional = true; return *this; }
  Field& inUnit(std::string u) { unit = std::move(u); return *this; }
  Field& atLeast(double v, bool exclusive = false) { min = v; minExclusive = exclusive; return *this; }
  Field& atMost(double v, bool exclusive = false) { max = v; maxExclusive = exclusive; return *this; }
  Field& withExample(Json e) { example = std::move(e); return *this; }
};

Field number(std::string name, std::string doc);
Field integer(std::string name, std::string doc);
Field boolean(std::string name, std::string doc);
Field string(std::string name, std::string doc);
Field enumeration(std::string name, std::vector<std::string> choices, std::string doc);
Field path(std::string name, std::string doc);
Field vec2(std::string name, std::string doc);
Field vec3(std::string name, std::string doc);
Field object(std::string name, Fields fields, std::string doc);
Field array(std::string name, Field element, std::string doc);
Field oneOf(std::string name, std::vector<Field> alternatives, std::string doc);

// Where the JSON came from, for messages and for resolving relative paths.
struct Source {
  std::string file;                 // as the user named it
  std::filesystem::path baseDir;    // relative paths resolve against it
};

// Parses JSON text. Malformed JSON is an InputError "<file>:<line>:<column>: malformed JSON: <what>".
Json parseJson(const std::string& text, const std::string& file);

// Validates `value` against `field` and returns it with every default filled in and every Path made absolute.
// The first problem found is an InputError "<file>: <json pointer>: <what>", e.g.
// "shot.json: /cloths/0/material/density: expected a number, got \"heavy\"".
Json resolve(const Json& value, const Field& field, const Source& source);

// The closest of `candidates` to `word` when it is close enough to be a likely typo.
std::optional<std::string> didYouMean(const std::string& word, const std::vector<std::string>& candidates);

// Markdown reference of an object schema: one table per object, nested objects after their parent.
std::string toMarkdown(const Field& root, const std::string& title);

}  // namespace adacloth::config
