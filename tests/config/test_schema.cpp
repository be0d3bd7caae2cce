#include <catch2/catch.hpp>

#include "config/schema.h"
#include "io/error.h"

using namespace adacloth;
using namespace adacloth::config;

namespace {

Field testSchema() {
  return object("root", {
      number("speed", "a speed").inUnit("m/s").atLeast(0, true).defaults(1.5),
      integer("count", "a count").atLeast(1).defaults(3),
      enumeration("mode", {"fast", "exact"}, "a mode").defaults("fast"),
      vec3("dir", "a direction").defaults(Json::array({0, 1, 0})),
      path("file", "a file").isOptional(),
      array("items", object("item", {string("name", "its name"), number("weight", "its weight").defaults(1.0)}, ""),
            "items").defaults(Json::array()),
      oneOf("material", {string("material", "a preset"), object("material", {number("density", "d")}, "inline")},
            "preset or inline").isOptional(),
  }, "test");
}

std::string errorOf(const std::string& text) {
  try {
    resolve(parseJson(text, "t.json"), testSchema(), {"t.json", "/base"});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("defaults are filled in and paths resolved", "[config]") {
  Json r = resolve(parseJson(R"({"file": "meshes/a.obj", "items": [{"name": "x"}]})", "t.json"), testSchema(),
                   {"t.json", "/base/conf"});
  CHECK(r["speed"] == 1.5);
  CHECK(r["count"] == 3);
  CHECK(r["mode"] == "fast");
  CHECK(r["dir"] == Json::array({0.0, 1.0, 0.0}));
  CHECK(r["file"] == "/base/conf/meshes/a.obj");
  CHECK(r["items"][0]["weight"] == 1.0);
  CHECK_FALSE(r.contains("material"));
  CHECK(resolve(parseJson(R"({"material": "silk"})", "t"), testSchema(), {"t", "/"})["material"] == "silk");
  CHECK(resolve(parseJson(R"({"material": {"density": 2}})", "t"), testSchema(), {"t", "/"})["material"]["density"] ==
        2.0);
}

TEST_CASE("schema errors name the file, the JSON pointer and what was expected", "[config]") {
  CHECK(errorOf(R"({"speeed": 2})") == "t.json: /speeed: unknown key \"speeed\" (did you mean \"speed\"?)");
  CHECK(errorOf(R"({"items": [{"name": "a", "weight": "heavy"}]})") ==
        "t.json: /items/0/weight: expected a number, got \"heavy\"");
  CHECK(errorOf(R"({"items": [{"weight": 2}]})") == "t.json: /items/0: missing required key \"name\" (a string)");
  CHECK(errorOf(R"({"speed": 0})") == "t.json: /speed: expected a value greater than 0 m/s, got 0");
  CHECK(errorOf(R"({"count": 2.5})") == "t.json: /count: expected a whole number, got 2.5");
  // A whole number too large for an int (found by fuzz_shot: `frames` 9.6e29 overflowed the conversion).
  CHECK(errorOf(R"({"count": 955555555555555555555555555556})") ==
        "t.json: /count: expected a whole number of at most 2147483647 in size, got 9.555555555555555e+29");
  CHECK(errorOf(R"({"count": 2147483648})") ==
        "t.json: /count: expected a whole number of at most 2147483647 in size, got 2147483648");
  CHECK(errorOf(R"({"mode": "fsat"})") ==
        "t.json: /mode: expected one of \"fast\", \"exact\", got \"fsat\" (did you mean \"fast\"?)");
  CHECK(errorOf(R"({"dir": [0, 1]})") == "t.json: /dir: expected an array of 3 numbers, got an array of 2");
  CHECK(errorOf(R"({"dir": [0, "y", 1]})") == "t.json: /dir/1: expected a number, got \"y\"");
  CHECK(errorOf(R"({"material": 3})") == "t.json: /material: expected a string or an object, got 3");
  CHECK(errorOf(R"([1, 2])") == "t.json: /: expected an object, got an array of 2");
  CHECK(errorOf(R"({"file": ""})") == "t.json: /file: expected a file path (string), got \"\"");
}

TEST_CASE("malformed JSON gives line and column", "[config]") {
  CHECK_THAT(errorOf("{\n  \"speed\": 1,\n  \"count\": ,\n}"), Catch::StartsWith("t.json:3:12: malformed JSON:"));
  CHECK_THAT(errorOf("{\"speed\": NaN}"), Catch::StartsWith("t.json:1:11: malformed JSON:"));
  CHECK_THAT(errorOf(""), Catch::StartsWith("t.json:1:1: malformed JSON:"));
  // A number beyond the range of a double: nlohmann throws out_of_range, not parse_error (found by fuzz_shot).
  CHECK(errorOf("{\n  \"speed\": 1e999\n}") == "t.json:2:12: malformed JSON: number '1e999' is beyond the range of a double");
  CHECK_THAT(errorOf("{\"speed\": -" + std::string(400, '5') + "}"),
             Catch::StartsWith("t.json:1:11: malformed JSON: number '-555"));
}

TEST_CASE("a key given twice in one object is an error naming where", "[config]") {
  // The parser alone would keep the last value silently.
  CHECK(errorOf(R"({"speed": 1, "count": 2, "speed": 3})") ==
        "t.json: /speed: key \"speed\" is given twice in one object (JSON would keep only the last): remove one");
  // Inside an array of objects the pointer names the element: after a nested array, a scalar and an object.
  CHECK(errorOf(R"({"dir": [0, 1, 0], "items": [[1, 2], 3, {"name": "a"}, {"name": "b", "name": "c"}]})") ==
        "t.json: /items/3/name: key \"name\" is given twice in one object (JSON would keep only the last): remove one");
  // Keys are compared as written (after unescaping): "a/b" and "a~b" are escaped in the pointer.
  CHECK(errorOf(R"({"x": {"a/b": 1, "a~b": 2, "a\/b": 3}})") ==
        "t.json: /x/a~1b: key \"a/b\" is given twice in one object (JSON would keep only the last): remove one");
  // The same key in different objects, or as a value, is fine.
  CHECK(errorOf(R"({"items": [{"name": "name"}, {"name": "b", "weight": 2}], "speed": 1})") == "");
  CHECK(parseJson(R"([{"a": 1}, {"a": 2}])", "t.json") == Json::parse(R"([{"a": 1}, {"a": 2}])"));
}

TEST_CASE("did-you-mean only suggests close words", "[config]") {
  CHECK(didYouMean("desnity", {"density", "damping"}) == std::optional<std::string>("density"));
  CHECK_FALSE(didYouMean("colour", {"density", "damping"}).has_value());
}
