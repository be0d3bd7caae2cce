#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <random>
#include <sstream>

#include "collision/obstacle.h"
#include "io/error.h"

using namespace adacloth;

namespace {

// The parser as it was before it tokenized lines itself (a stringstream per line): every input must give the same
// vertices, faces or error message.
void parseWithStreams(const std::string& text, const std::string& file, std::vector<Vec3>& x,
                      std::vector<Tri>& faces) {
  std::istringstream in(text);
  x.clear();
  faces.clear();
  std::string line;
  int lineNo = 0;
  auto fail = [&](const std::string& what) { throw InputError(file + ":" + std::to_string(lineNo) + ": " + what); };
  while (std::getline(in, line)) {
    ++lineNo;
    std::istringstream tokens(line);
    std::string tag;
    tokens >> tag;
    if (tag == "v") {
      Vec3 p;
      for (int i = 0; i < 3; ++i) {
        std::string tok;
        char* end = nullptr;
        if (!(tokens >> tok)) fail("expected 3 coordinates");
        p[i] = std::strtod(tok.c_str(), &end);
        if (*end != '\0' || !std::isfinite(p[i])) fail("coordinate '" + tok + "' is not a finite number");
      }
      x.push_back(p);
    } else if (tag == "f") {
      std::vector<int> corners;
      std::string tok;
      while (tokens >> tok) {
        char* end = nullptr;
        long i = std::strtol(tok.c_str(), &end, 10);
        if (end == tok.c_str() || (*end != '\0' && *end != '/')) fail("face corner '" + tok + "' is not an index");
        if (i < 0) i += long(x.size()) + 1;
        if (i < 1 || i > long(x.size())) fail("face index " + tok + " is out of range");
        corners.push_back(int(i - 1));
      }
      if (corners.size() < 3) fail("a face needs at least 3 corners");
      for (size_t k = 1; k + 1 < corners.size(); ++k) faces.push_back({corners[0], corners[k], corners[k + 1]});
    }
  }
  if (x.empty()) throw InputError(file + ": no vertices");
}

struct Parsed {
  std::vector<Vec3> x;
  std::vector<Tri> faces;
  std::string error;
};

template <typename Parse>
Parsed parsedBy(Parse parse, const std::string& text) {
  Parsed out;
  try {
    parse(text, "body.obj", out.x, out.faces);
  } catch (const InputError& e) {
    out.error = e.what();
  }
  return out;
}

void requireSameAsStreams(const std::string& text) {
  const Parsed now = parsedBy(parseObstacleObj, text), before = parsedBy(parseWithStreams, text);
  INFO("input: " << text);
  REQUIRE(now.error == before.error);
  REQUIRE(now.x == before.x);
  REQUIRE(now.faces == before.faces);
}

// Random OBJ-like text: mostly valid vertex and face lines, with comments, other tags, odd whitespace (CR, tabs,
// vertical tabs, form feeds), relative and slashed indices and, now and then, a broken token.
std::string randomObj(std::mt19937& rng) {
  static const std::vector<std::string> spaces = {" ", "  ", "\t", "\v", "\f", "\r", " \r"};
  static const std::vector<std::string> numbers = {"1", "-2", "0", "1.5", "-0.25e-2", "+4", "3."};
  static const std::vector<std::string> indices = {"1", "2", "3", "-1", "-2", "1/1", "2//2", "3/3/3"};
  static const std::vector<std::string> broken = {
      "1e400", "nan", "inf", "0x1p3", "abc", "1x", "/", "7", "0", "", std::string("1\0" "2", 3)};
  auto any = [&](const std::vector<std::string>& from) { return from[rng() % from.size()]; };
  auto token = [&](const std::vector<std::string>& from) { return rng() % 40 == 0 ? any(broken) : any(from); };
  std::string text;
  for (int line = int(rng() % 12); line > 0; --line) {
    const int kind = int(rng() % 6);
    std::vector<std::string> tokens;
    if (kind <= 2) tokens = {"v", token(numbers), token(numbers), token(numbers)};
    if (kind == 3) tokens = {"f", token(indices), token(indices), token(indices)};
    if (kind == 3 && rng() % 2) tokens.push_back(token(indices));
    if (kind == 4) tokens = {any({"#", "vn", "o", "g", "vt"}), token(numbers)};
    if (rng() % 20 == 0 && !tokens.empty()) tokens.pop_back();
    if (rng() % 20 == 0) tokens.push_back(any(numbers));
    if (rng() % 2) text += any(spaces);
    for (const std::string& t : tokens) text += t + any(spaces);
    text += "\n";
  }
  return text;
}

}  // namespace

TEST_CASE("obstacle OBJ: vertices, polygons fanned into triangles, relative indices, CRLF", "[collision][io]") {
  std::vector<Vec3> x;
  std::vector<Tri> faces;
  parseObstacleObj("# a quad\r\nv 0 0 0\r\nv 1 0 0\r\nv\t1 1 0 extra\r\nv 0 1 0\r\nvn 0 0 1\r\nf 1/1/1 2//1 -2 -1\r\n",
                   "quad.obj", x, faces);
  REQUIRE(x.size() == 4);
  CHECK(x[2] == Vec3(1, 1, 0));
  CHECK(faces == std::vector<Tri>{{0, 1, 2}, {0, 2, 3}});
}

TEST_CASE("obstacle OBJ: errors name the file and line", "[collision][io]") {
  auto error = [](const std::string& text) { return parsedBy(parseObstacleObj, text).error; };
  CHECK(error("v 0 0 0\nv 0 0\n") == "body.obj:2: expected 3 coordinates");
  CHECK(error("v 0 0 0\n\nv 0 zero 0\n") == "body.obj:3: coordinate 'zero' is not a finite number");
  CHECK(error("v 0 0 1e999") == "body.obj:1: coordinate '1e999' is not a finite number");
  CHECK(error("v 0 0 0\nf 1 1 x\n") == "body.obj:2: face corner 'x' is not an index");
  CHECK(error("v 0 0 0\nf 1 1 2\n") == "body.obj:2: face index 2 is out of range");
  CHECK(error("v 0 0 0\nf 1 1\n") == "body.obj:2: a face needs at least 3 corners");
  CHECK(error("# nothing\n") == "body.obj: no vertices");
}

TEST_CASE("obstacle OBJ: the line tokenizer reads what a stream per line read", "[collision][io]") {
  requireSameAsStreams("");
  requireSameAsStreams("v 1 2 3");
  requireSameAsStreams("v 1 2 3\n\n\nf 1 1 1\n");
  requireSameAsStreams(std::string("v 1\0 2 3\n", 10));
  std::mt19937 rng(11);
  for (int i = 0; i < 3000; ++i) requireSameAsStreams(randomObj(rng));
}
